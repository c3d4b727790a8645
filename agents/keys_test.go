package agents

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRandomAlphanumericRejectsBiasedBytes: bytes 248..255 would make the
// first 8 characters more likely under a plain modulo; they are skipped.
func TestRandomAlphanumericRejectsBiasedBytes(t *testing.T) {
	src := bytes.NewReader(append([]byte{255, 248, 0, 61, 62, 247, 123, 250}, make([]byte, 64)...))
	s, err := randomAlphanumeric(src, 5)
	require.NoError(t, err)
	// 0 -> 'A', 61 -> '9', 62 -> 'A' (62 % 62), 247 -> 247 % 62 = 61 -> '9', 123 -> 61 -> '9'
	assert.Equal(t, "A9A99", s)
}

func TestRandomAlphanumericFailsOnShortRandomness(t *testing.T) {
	_, err := randomAlphanumeric(bytes.NewReader([]byte{1, 2}), 40)
	assert.Error(t, err)
}

func TestKeyDigestIsSHA256(t *testing.T) {
	assert.Len(t, KeyDigest("aft_agent_x"), 32)
	assert.NotEqual(t, KeyDigest("a"), KeyDigest("b"))
}

func TestValidKeyPrefix(t *testing.T) {
	for p, ok := range map[string]bool{"aft_agent_": true, "sr_agent_": true, "agent_": true, "aft_": false, "AFT_agent_": false, "a b_agent_": false} {
		assert.Equal(t, ok, validKeyPrefix(p), p)
	}
	_, err := NewService(nil, Config{KeyPrefix: "bad"})
	assert.Error(t, err)
}
