package agents

import (
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
)

// DefaultKeyPrefix is the API key prefix when none is configured.
const DefaultKeyPrefix = "aft_agent_"

// keyRandomLen is the number of random alphanumerics after the prefix.
const keyRandomLen = 40

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomAlphanumeric returns n characters drawn uniformly from [A-Za-z0-9]
// using rejection sampling: bytes >= 248 (= 4 × 62) are discarded, so no
// character is more likely than another (no modulo bias).
func randomAlphanumeric(r io.Reader, n int) (string, error) {
	const limit = 256 - 256%len(alphanumerics) // 248
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", fmt.Errorf("reading randomness: %w", err)
		}
		for _, b := range buf {
			if int(b) < limit {
				out = append(out, alphanumerics[int(b)%len(alphanumerics)])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out), nil
}

// KeyDigest returns the SHA-256 digest under which a key is stored.
func KeyDigest(key string) []byte {
	d := sha256.Sum256([]byte(key))
	return d[:]
}

// validKeyPrefix reports whether p is a usable key prefix: it must end in
// "agent_" and contain only lowercase letters, digits and underscores.
func validKeyPrefix(p string) bool {
	if !strings.HasSuffix(p, "agent_") {
		return false
	}
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
