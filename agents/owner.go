package agents

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// ownerIDChars are the characters an owner_id may hold after NFKC
// normalisation: ASCII letters and digits and . _ - @ :, so that no two
// owner ids that look alike (full-width letters, zero-width spaces,
// homoglyphs from other scripts) can name two owners.
const ownerIDChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@:"

// NormalizeOwnerID returns owner_id in its canonical form — Unicode NFKC,
// which folds full-width and other compatibility forms ("ａｃｍｅ" is
// "acme") — and checks it: 1 to MaxOwnerIDLen characters from
// [A-Za-z0-9._-@:]. Ids are case-sensitive.
func NormalizeOwnerID(s string) (string, error) {
	n := norm.NFKC.String(s)
	if len(n) == 0 || len(n) > MaxOwnerIDLen {
		return "", invalid("owner_id: must be 1 to %d characters (got %d)", MaxOwnerIDLen, len(n))
	}
	if i := strings.IndexFunc(n, func(r rune) bool { return !strings.ContainsRune(ownerIDChars, r) }); i >= 0 {
		return "", invalid("owner_id: may only hold ASCII letters, digits and . _ - @ : (found %q)", []rune(n[i:])[0])
	}
	return n, nil
}
