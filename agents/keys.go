package agents

import (
	"crypto/sha256"
	"strings"
)

// DefaultKeyPrefix is the API key prefix when none is configured.
const DefaultKeyPrefix = "aft_agent_"

// keyRandomLen is the number of random alphanumerics after the prefix.
const keyRandomLen = 40

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
