package guardian

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limit is a token bucket: Burst tokens, one coming back every Every. A
// limit with a Burst below 1 or an Every of 0 is unlimited.
type Limit struct {
	Every time.Duration
	Burst int
}

// Unlimited never refuses.
var Unlimited = Limit{Burst: -1}

// NewLimit allows n requests per period: a bucket of n tokens refilled at
// n per period.
func NewLimit(n int, per time.Duration) Limit {
	if n < 1 || per <= 0 {
		return Unlimited
	}
	return Limit{Every: per / time.Duration(n), Burst: n}
}

// IsUnlimited reports whether the limit never refuses.
func (l Limit) IsUnlimited() bool { return l.Burst < 1 || l.Every <= 0 }

// String formats the limit as ParseLimit reads it ("600/m", "off").
func (l Limit) String() string {
	if l.IsUnlimited() {
		return "off"
	}
	for _, u := range periodUnits {
		if total := l.Every * time.Duration(l.Burst); total == u.d {
			return fmt.Sprintf("%d/%s", l.Burst, u.name)
		}
	}
	return fmt.Sprintf("%d/%s", l.Burst, l.Every*time.Duration(l.Burst))
}

var periodUnits = []struct {
	name string
	d    time.Duration
}{{"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}

// ParseLimit reads "N/unit" (unit s, m, h or d, or a Go duration such as
// "10m"): a burst of N refilled at N per unit. "off" is Unlimited.
func ParseLimit(s string) (Limit, error) {
	if s == "off" {
		return Unlimited, nil
	}
	num, unit, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > 1_000_000 {
		return Limit{}, fmt.Errorf("rate limit %q: want N/unit with N from 1 to 1000000 and unit s, m, h, d or a duration (e.g. 600/m), or off", s)
	}
	for _, u := range periodUnits {
		if unit == u.name {
			return NewLimit(n, u.d), nil
		}
	}
	d, err := time.ParseDuration(unit)
	if err != nil || d < time.Second || d > 31*24*time.Hour {
		return Limit{}, fmt.Errorf("rate limit %q: the period must be s, m, h, d or a duration from 1s to 744h", s)
	}
	return NewLimit(n, d), nil
}

// Decision is a limiter's answer, with what the RateLimit-* headers need.
type Decision struct {
	Allowed bool
	// Limit is the bucket size (RateLimit-Limit).
	Limit int
	// Remaining is the number of tokens left after this request
	// (RateLimit-Remaining).
	Remaining int
	// Reset is the time until the bucket is full again (RateLimit-Reset).
	Reset time.Duration
	// RetryAfter, for a refused request, is the time until one token is
	// back (Retry-After).
	RetryAfter time.Duration
}

// Limiter is the port of the rate limiters: token buckets by key.
// MemoryLimiter keeps them in process; StoreLimiter shares them between
// instances through the Store. Errors mean the limiter could not decide;
// callers let the request through (a limiter outage must not take the API
// down) and log the error.
type Limiter interface {
	// Take takes one token from the key's bucket under l.
	Take(ctx context.Context, key string, l Limit) (Decision, error)
	// Peek reports whether Take would be allowed, taking nothing.
	Peek(ctx context.Context, key string, l Limit) (Decision, error)
}

// unlimited is the decision for an unlimited limit.
var unlimited = Decision{Allowed: true}

// gcraDecision derives a decision from a bucket's theoretical arrival time
// tat after (allowed) or at (refused) the request.
func gcraDecision(l Limit, now, tat time.Time, allowed bool) Decision {
	interval, tolerance := l.Every, l.Every*time.Duration(l.Burst)
	ahead := max(tat.Sub(now), 0)
	d := Decision{Allowed: allowed, Limit: l.Burst, Reset: ahead}
	if allowed {
		d.Remaining = int((tolerance - ahead) / interval)
	} else {
		d.RetryAfter = max(ahead+interval-tolerance, time.Nanosecond)
	}
	return d
}
