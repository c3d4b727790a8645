package portal

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionsExpireWhenIdleAndEndOnDemand(t *testing.T) {
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	st := newSessionStore(func() time.Time { return now }, SessionIdle, 3)
	owner := st.create(&session{ownerID: "acme"})
	other := st.create(&session{ownerID: "acme"})
	op := st.create(&session{operator: true})

	now = now.Add(11 * time.Hour)
	s, ok := st.get(owner)
	require.True(t, ok)
	assert.NotEmpty(t, s.csrf)
	assert.True(t, s.validCSRF(s.csrf))
	assert.False(t, s.validCSRF(""), "an empty token never matches")

	now = now.Add(11 * time.Hour) // 22 h after sign-in, 11 h after the last request
	_, ok = st.get(owner)
	assert.True(t, ok, "12 h idle, not 12 h in all")
	_, ok = st.get(other)
	assert.False(t, ok, "idle for 22 h: expired")

	st.endOwner("acme")
	_, ok = st.get(owner)
	assert.False(t, ok, "an owner key rotation ends the owner's sessions")
	_, ok = st.get(op)
	assert.False(t, ok, "the operator's too had expired")

	_, ok = st.get("not a token")
	assert.False(t, ok)
	assert.NotEqual(t, tokenID(owner), owner, "sessions are kept by the token's digest")
}

func TestSessionsAreBounded(t *testing.T) {
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	st := newSessionStore(func() time.Time { return now }, SessionIdle, 2)
	first := st.create(&session{ownerID: "a"})
	now = now.Add(time.Minute)
	second := st.create(&session{ownerID: "b"})
	now = now.Add(time.Minute)
	third := st.create(&session{ownerID: "c"})
	_, ok := st.get(first)
	assert.False(t, ok, "the least recently used session made room")
	for _, tok := range []string{second, third} {
		_, ok := st.get(tok)
		assert.True(t, ok)
	}
	st.end(third)
	_, ok = st.get(third)
	assert.False(t, ok, "signed out")
}
