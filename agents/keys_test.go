package agents

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
