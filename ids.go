package toolkit

import (
	"crypto/rand"
	"fmt"
	"io"
	"strings"
)

// The alphabets of identifiers and secrets.
const (
	// IDAlphabet is the alphabet of the random part of every record id.
	IDAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	// Alphanumerics is the alphabet of API and owner keys.
	Alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// IDRandomLen is the number of random characters of a record id: 16 of
// IDAlphabet, about 82 bits.
const IDRandomLen = 16

// NewID returns a record id: prefix (such as "agt_" or "tx_") followed by
// IDRandomLen characters drawn uniformly from IDAlphabet, reading r
// (crypto/rand.Reader when nil). It is the one id generator of the
// toolkit.
func NewID(r io.Reader, prefix string) (string, error) {
	s, err := RandomString(r, IDAlphabet, IDRandomLen)
	return prefix + s, err
}

// ValidID reports whether id has the shape NewID gives it with prefix.
func ValidID(prefix, id string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || len(rest) != IDRandomLen {
		return false
	}
	for i := range len(rest) {
		if !strings.ContainsRune(IDAlphabet, rune(rest[i])) {
			return false
		}
	}
	return true
}

// RandomString returns n characters drawn uniformly from alphabet (at most
// 256 characters) reading r (crypto/rand.Reader when nil). It uses
// rejection sampling: bytes at or above the largest multiple of the
// alphabet's size are discarded, so no character is more likely than
// another.
func RandomString(r io.Reader, alphabet string, n int) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n)
	for len(out) < n {
		// Read what is still missing: a reader of exactly n bytes is
		// enough when none is rejected.
		buf = buf[:n-len(out)]
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", fmt.Errorf("reading randomness: %w", err)
		}
		for _, b := range buf {
			if int(b) < limit {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out), nil
}
