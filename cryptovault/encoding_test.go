package cryptovault

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The encodings are persistent: stored ciphertexts and hashes depend on
// them byte for byte. These pins fail if they change.
func TestEncodingsArePinned(t *testing.T) {
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"fieldAD", fieldAD("ag", "wallet"),
			hex.EncodeToString([]byte("agentfin-ad-v1")) + "00000002" + hex.EncodeToString([]byte("ag")) +
				"00000006" + hex.EncodeToString([]byte("wallet"))},
		{"fieldAD empty", fieldAD("", ""), hex.EncodeToString([]byte("agentfin-ad-v1")) + "00000000" + "00000000"},
		{"hashInput", hashInput("tx", []byte{0xff, 0x00, 0x01}),
			hex.EncodeToString([]byte("agentfin-hash-v1")) + "00000002" + hex.EncodeToString([]byte("tx")) + "00000003" + "ff0001"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, hex.EncodeToString(c.got))
		})
	}
}

// Moving bytes between the agent id and the field name changes the
// associated data: the length prefixes keep the encoding injective.
func TestEncodingsAreInjective(t *testing.T) {
	assert.NotEqual(t, fieldAD("ab", "c"), fieldAD("a", "bc"))
	assert.NotEqual(t, fieldAD("a\x00\x00\x00\x01b", ""), fieldAD("a", "b"))
	assert.NotEqual(t, hashInput("ab", []byte("c")), hashInput("a", []byte("bc")))
}
