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
	assert.Equal(t, "internal error", MessageOf(WithOp("op", plain)))

	noMsg := &Error{Kind: NotFound, Op: "x"}
	assert.Equal(t, "not_found", MessageOf(noMsg))
	assert.False(t, IsKind(nil, Internal))
	assert.Nil(t, WithOp("op", nil))
	assert.Nil(t, AsInternal("op", nil))
}

func TestWithOpKeepsKindAndAddsOp(t *testing.T) {
	inner := Errorf(Conflict, "taken")
	w := WithOp("agents.Register", inner)
	assert.Equal(t, Conflict, KindOf(w))
	assert.Equal(t, "agents.Register: conflict: taken", w.Error())
	assert.Equal(t, "agents.Register: conflict: taken", WithOp("other", w).Error(), "an existing op is kept")
	assert.Equal(t, "conflict: taken", inner.Error(), "the original is not modified")
	cause := errors.New("boom")
	e := WithOp("db", cause)
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, "db: internal: boom", e.Error(), "an unclassified error is internal")
}

func TestAsInternalClassifiesWhateverTheKind(t *testing.T) {
	nf := Errorf(NotFound, "no such agent")
	e := AsInternal("billing.Balance", nf)
	assert.Equal(t, Internal, KindOf(e))
	assert.Equal(t, "internal error", MessageOf(e), "the inner message does not leak")
	assert.ErrorIs(t, e, nf)
}

func TestKindStrings(t *testing.T) {
	for k, want := range map[Kind]string{Internal: "internal", Invalid: "invalid", Unauthenticated: "unauthenticated",
		InsufficientCredits: "insufficient_credits", Forbidden: "forbidden", NotFound: "not_found", Conflict: "conflict",
		TooLarge: "too_large", RateLimited: "rate_limited", Unavailable: "unavailable", Kind(200): "kind(200)"} {
		assert.Equal(t, want, k.String())
	}
}

func TestFieldsOfListsAValidationsViolationsOnly(t *testing.T) {
	many := make([]FieldError, MaxFieldErrors+5)
	for i := range many {
		many[i] = FieldError{Field: fmt.Sprintf("bars[%d].close", i), Rule: "type", Message: "expected a number"}
	}
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"validation", &Error{Kind: Invalid, Msg: "a", Fields: many[:2]}, 2},
		{"wrapped", fmt.Errorf("decode: %w", &Error{Kind: TooLarge, Fields: many[:1]}), 1},
		{"capped", &Error{Kind: Invalid, Fields: many}, MaxFieldErrors},
		{"internal", &Error{Kind: Internal, Fields: many[:2]}, 0},
		{"plain", errors.New("boom"), 0},
		{"nil", nil, 0},
	}
	for _, tc := range cases {
		got := FieldsOf(tc.err)
		assert.Len(t, got, tc.want, tc.name)
		if tc.want > 0 {
			assert.Equal(t, many[0], got[0], tc.name)
		}
	}
}
