package guardian

import (
	"context"
	"math"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// DefaultMaxBuckets bounds the buckets a MemoryLimiter keeps.
const DefaultMaxBuckets = 100_000

// MemoryLimiter keeps token buckets (golang.org/x/time/rate) in process,
// in an LRU of at most MaxBuckets keys. A key evicted while its bucket is
// not full starts again with a full bucket, so the bound should exceed
// the number of clients active within one refill period. Limits are per
// instance: several instances need a StoreLimiter.
type MemoryLimiter struct {
	now     func() time.Time
	mu      sync.Mutex // serializes get-or-create
	buckets *lru.Cache[string, *rate.Limiter]
}

// MemoryLimiterConfig configures a MemoryLimiter. Zero fields take
// defaults.
type MemoryLimiterConfig struct {
	// MaxBuckets bounds the keys kept (default DefaultMaxBuckets).
	MaxBuckets int
	// Now returns the current time (default time.Now).
	Now func() time.Time
}

var _ Limiter = (*MemoryLimiter)(nil)

// NewMemoryLimiter returns an in-process limiter.
func NewMemoryLimiter(cfg MemoryLimiterConfig) *MemoryLimiter {
	if cfg.MaxBuckets <= 0 {
		cfg.MaxBuckets = DefaultMaxBuckets
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c, _ := lru.New[string, *rate.Limiter](cfg.MaxBuckets) // only fails for a size below 1
	return &MemoryLimiter{now: cfg.Now, buckets: c}
}

// bucket returns the key's bucket under l, creating a full one.
func (m *MemoryLimiter) bucket(key string, l Limit, now time.Time) *rate.Limiter {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.buckets.Get(key)
	if !ok {
		b = rate.NewLimiter(rate.Every(l.Every), l.Burst)
		m.buckets.Add(key, b)
		return b
	}
	if b.Limit() != rate.Every(l.Every) || b.Burst() != l.Burst {
		b.SetLimitAt(now, rate.Every(l.Every))
		b.SetBurstAt(now, l.Burst)
	}
	return b
}

// Take takes one token; a refused request takes nothing.
func (m *MemoryLimiter) Take(_ context.Context, key string, l Limit) (Decision, error) {
	if l.IsUnlimited() {
		return unlimited, nil
	}
	now := m.now()
	b := m.bucket(key, l, now)
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // give the token back: a refused request consumes nothing
		return m.decision(b, l, now, false, d), nil
	}
	return m.decision(b, l, now, true, 0), nil
}

// Peek reports whether one token is available.
func (m *MemoryLimiter) Peek(_ context.Context, key string, l Limit) (Decision, error) {
	if l.IsUnlimited() {
		return unlimited, nil
	}
	now := m.now()
	b := m.bucket(key, l, now)
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return m.decision(b, l, now, true, 0), nil
	}
	return m.decision(b, l, now, false, time.Duration((1-tokens)*float64(l.Every))), nil
}

func (m *MemoryLimiter) decision(b *rate.Limiter, l Limit, now time.Time, allowed bool, retry time.Duration) Decision {
	tokens := max(b.TokensAt(now), 0)
	return Decision{
		Allowed:    allowed,
		Limit:      l.Burst,
		Remaining:  int(math.Floor(tokens)),
		Reset:      time.Duration((float64(l.Burst) - tokens) * float64(l.Every)),
		RetryAfter: retry,
	}
}
