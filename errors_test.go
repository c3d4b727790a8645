package toolkit

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKindOfAndMessage(t *testing.T) {
	e := Errorf(Invalid, "equity: must be positive")
	assert.Equal(t, Invalid, KindOf(e))
	assert.Equal(t, "equity: must be positive", MessageOf(e))
	wrapped := fmt.Errorf("context: %w", e)
	assert.Equal(t, Invalid, KindOf(wrapped))
	assert.Equal(t, "equity: must be positive", MessageOf(wrapped))

	plain := errors.New("db exploded: password=hunter2")
	assert.Equal(t, Internal, KindOf(plain))
	assert.Equal(t, "internal error", MessageOf(plain), "causes never reach clients")
	assert.Equal(t, "internal error", MessageOf(Wrap(Internal, "op", plain)))

	noMsg := &Error{Kind: NotFound, Op: "x"}
	assert.Equal(t, "not_found", MessageOf(noMsg))
	assert.False(t, IsKind(nil, Internal))
	assert.Nil(t, Wrap(Invalid, "op", nil))
}

func TestWrapKeepsKindAndAddsOp(t *testing.T) {
	inner := Errorf(Conflict, "taken")
	w := Wrap(Internal, "agents.Register", inner)
	assert.Equal(t, Conflict, KindOf(w))
	assert.Equal(t, "agents.Register: conflict: taken", w.Error())
	assert.Equal(t, "agents.Register: conflict: taken", Wrap(Internal, "other", w).Error(), "an existing op is kept")
	cause := errors.New("boom")
	e := Wrap(Unavailable, "db", cause)
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, "db: unavailable: boom", e.Error())
}

func TestKindStrings(t *testing.T) {
	for k, want := range map[Kind]string{Internal: "internal", Invalid: "invalid", Unauthenticated: "unauthenticated",
		InsufficientCredits: "insufficient_credits", Forbidden: "forbidden", NotFound: "not_found", Conflict: "conflict",
		TooLarge: "too_large", RateLimited: "rate_limited", Unavailable: "unavailable", Kind(200): "kind(200)"} {
		assert.Equal(t, want, k.String())
	}
}
