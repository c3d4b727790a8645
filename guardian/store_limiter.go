package guardian

import (
	"context"
	"fmt"
	"time"
)

// StoreLimiter keeps token buckets in the Store, so every instance on one
// database shares them. Each bucket is one row holding its theoretical
// arrival time (GCRA, the token bucket written as one timestamp); a Take
// is one atomic conditional upsert. It costs a database write per
// request: use it when several instances serve one API.
type StoreLimiter struct {
	store Store
	now   func() time.Time
}

var _ Limiter = (*StoreLimiter)(nil)

// NewStoreLimiter returns a limiter over store; now defaults to time.Now.
func NewStoreLimiter(store Store, now func() time.Time) *StoreLimiter {
	if now == nil {
		now = time.Now
	}
	return &StoreLimiter{store: store, now: now}
}

// Take takes one token; a refused request takes nothing.
func (s *StoreLimiter) Take(ctx context.Context, key string, l Limit) (Decision, error) {
	if l.IsUnlimited() {
		return unlimited, nil
	}
	if len(key) > MaxRateKeyLen {
		return Decision{}, fmt.Errorf("guardian: rate key of %d bytes exceeds %d", len(key), MaxRateKeyLen)
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	st, err := s.store.TakeRateToken(ctx, RateRequest{Key: key, Now: now, Interval: l.Every, Tolerance: l.Every * time.Duration(l.Burst)})
	if err != nil {
		return Decision{}, err
	}
	return gcraDecision(l, now, st.TAT, st.Allowed), nil
}

// Peek reports whether one token is available.
func (s *StoreLimiter) Peek(ctx context.Context, key string, l Limit) (Decision, error) {
	if l.IsUnlimited() {
		return unlimited, nil
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	tat, err := s.store.RateBucket(ctx, key)
	if err != nil {
		return Decision{}, err
	}
	if tat.Before(now) {
		tat = now
	}
	allowed := tat.Add(l.Every).Sub(now) <= l.Every*time.Duration(l.Burst)
	return gcraDecision(l, now, tat, allowed), nil
}
