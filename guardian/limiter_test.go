package guardian_test

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLimit(t *testing.T) {
	cases := []struct {
		in    string
		want  guardian.Limit
		shown string
	}{
		{"600/m", guardian.Limit{Every: 100 * time.Millisecond, Burst: 600}, "600/m"},
		{"20/h", guardian.Limit{Every: 3 * time.Minute, Burst: 20}, "20/h"},
		{"5/s", guardian.Limit{Every: 200 * time.Millisecond, Burst: 5}, "5/s"},
		{"100/d", guardian.Limit{Every: 864 * time.Second, Burst: 100}, "100/d"},
		{"10/30s", guardian.Limit{Every: 3 * time.Second, Burst: 10}, "10/30s"},
		{"off", guardian.Unlimited, "off"},
	}
	for _, c := range cases {
		got, err := guardian.ParseLimit(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, c.shown, got.String(), c.in)
	}
	for _, bad := range []string{"", "10", "0/m", "-1/m", "x/m", "10/fortnight", "10/1ms", "10/1000h", "2000000/s"} {
		_, err := guardian.ParseLimit(bad)
		assert.Error(t, err, bad)
	}
	assert.True(t, guardian.Limit{}.IsUnlimited())
	assert.True(t, guardian.NewLimit(0, time.Second).IsUnlimited())
}

// limiterScenario runs the same script against any limiter whose clock
// is c: burst 3 at one token per second.
func limiterScenario(t *testing.T, lim guardian.Limiter, c *clock) {
	t.Helper()
	l := guardian.NewLimit(3, 3*time.Second)
	key := "ip:203.0.113.7"
	for i := range 3 {
		d, err := lim.Take(ctx, key, l)
		require.NoError(t, err)
		assert.True(t, d.Allowed, "request %d of the burst", i+1)
		assert.Equal(t, 3, d.Limit)
		assert.Equal(t, 2-i, d.Remaining)
		assert.Equal(t, time.Duration(i+1)*time.Second, d.Reset, "the bucket is full again after one second per token used")
	}
	d, err := lim.Take(ctx, key, l)
	require.NoError(t, err)
	assert.False(t, d.Allowed, "the 4th request at the same instant is refused")
	assert.Equal(t, time.Second, d.RetryAfter)
	assert.Zero(t, d.Remaining)

	p, err := lim.Peek(ctx, key, l)
	require.NoError(t, err)
	assert.False(t, p.Allowed)
	other, err := lim.Take(ctx, "ip:203.0.113.8", l)
	require.NoError(t, err)
	assert.True(t, other.Allowed, "keys are independent")

	c.Advance(999 * time.Millisecond)
	d, err = lim.Take(ctx, key, l)
	require.NoError(t, err)
	assert.False(t, d.Allowed, "still refused 1 ms before the token is back")
	assert.Equal(t, time.Millisecond, d.RetryAfter)

	c.Advance(time.Millisecond)
	p, err = lim.Peek(ctx, key, l)
	require.NoError(t, err)
	assert.True(t, p.Allowed, "one token is back")
	for range 3 {
		_, err = lim.Peek(ctx, key, l)
		require.NoError(t, err)
	}
	d, err = lim.Take(ctx, key, l)
	require.NoError(t, err)
	assert.True(t, d.Allowed, "peeking took nothing")
	d, err = lim.Take(ctx, key, l)
	require.NoError(t, err)
	assert.False(t, d.Allowed, "exactly one token came back")

	// Over 10 simulated seconds at one request every 100 ms, exactly one
	// request per second passes once the burst is spent.
	allowed := 0
	for range 100 {
		c.Advance(100 * time.Millisecond)
		d, err := lim.Take(ctx, key, l)
		require.NoError(t, err)
		if d.Allowed {
			allowed++
		}
	}
	assert.Equal(t, 10, allowed)

	d, err = lim.Take(ctx, key, guardian.Unlimited)
	require.NoError(t, err)
	assert.True(t, d.Allowed)
}

func TestMemoryLimiterRate(t *testing.T) {
	c := newClock()
	limiterScenario(t, guardian.NewMemoryLimiter(guardian.MemoryLimiterConfig{Now: c.Now}), c)
}

func TestStoreLimiterRate(t *testing.T) {
	f := newFixture(t)
	limiterScenario(t, guardian.NewStoreLimiter(f.store, f.clock.Now), f.clock)
}

func TestMemoryLimiterEvictsLeastRecentlyUsed(t *testing.T) {
	c := newClock()
	lim := guardian.NewMemoryLimiter(guardian.MemoryLimiterConfig{Now: c.Now, MaxBuckets: 2})
	l := guardian.NewLimit(1, time.Hour)
	for _, k := range []string{"a", "b", "a", "c"} { // "b" is evicted by "c"
		_, err := lim.Take(ctx, k, l)
		require.NoError(t, err)
	}
	d, err := lim.Peek(ctx, "a", l)
	require.NoError(t, err)
	assert.False(t, d.Allowed, "a is kept and empty")
	d, err = lim.Peek(ctx, "b", l)
	require.NoError(t, err)
	assert.True(t, d.Allowed, "b was evicted and starts full")
}

func BenchmarkMemoryLimiterTake(b *testing.B) {
	lim := guardian.NewMemoryLimiter(guardian.MemoryLimiterConfig{})
	l := guardian.NewLimit(1_000_000, time.Second)
	keys := []string{"key:a", "key:b", "key:c", "key:d"}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			_, _ = lim.Take(ctx, keys[i%len(keys)], l)
			i++
		}
	})
}
