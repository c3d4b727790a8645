package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
)

// RateLimits bound request rates with token buckets. Zero limits take the
// defaults of DefaultRateLimits; guardian.Unlimited turns one off.
type RateLimits struct {
	// Disabled turns every limit off.
	Disabled bool
	// PerKey bounds the requests of one agent (by API key) on every
	// authenticated route.
	PerKey guardian.Limit
	// PerIP bounds the requests of one client address on public routes.
	PerIP guardian.Limit
	// Register bounds registrations per client address.
	Register guardian.Limit
	// RegisterWallet bounds wallet registrations per client address.
	RegisterWallet guardian.Limit
	// Report bounds guardian reports per client address.
	Report guardian.Limit
	// AuthFailures bounds failed authentications (bad API or admin keys)
	// per client address; past it, the address gets 429 on every
	// authenticated route until tokens come back.
	AuthFailures guardian.Limit
	// Limiter keeps the buckets. Nil: an in-process guardian.MemoryLimiter.
	// Use a guardian.StoreLimiter when several instances serve the API.
	Limiter guardian.Limiter
}

// DefaultRateLimits are the limits used for zero fields.
var DefaultRateLimits = RateLimits{
	PerKey:         guardian.NewLimit(600, time.Minute),
	PerIP:          guardian.NewLimit(300, time.Minute),
	Register:       guardian.NewLimit(20, time.Hour),
	RegisterWallet: guardian.NewLimit(20, time.Hour),
	Report:         guardian.NewLimit(60, time.Hour),
	AuthFailures:   guardian.NewLimit(30, time.Minute),
}

// withDefaults fills zero limits and the limiter.
func (l RateLimits) withDefaults() RateLimits {
	if l.Disabled {
		return RateLimits{Disabled: true}
	}
	for _, f := range []struct{ v, def *guardian.Limit }{
		{&l.PerKey, &DefaultRateLimits.PerKey}, {&l.PerIP, &DefaultRateLimits.PerIP},
		{&l.Register, &DefaultRateLimits.Register}, {&l.RegisterWallet, &DefaultRateLimits.RegisterWallet},
		{&l.Report, &DefaultRateLimits.Report}, {&l.AuthFailures, &DefaultRateLimits.AuthFailures},
	} {
		if *f.v == (guardian.Limit{}) {
			*f.v = *f.def
		}
	}
	if l.Limiter == nil {
		l.Limiter = guardian.NewMemoryLimiter(guardian.MemoryLimiterConfig{})
	}
	return l
}

// rateClass names the bucket family a route draws from.
type rateClass string

// The rate classes; the names are the bucket key prefixes and the values
// of the limit label of toolkit_rate_limited_total.
const (
	rateDefault        rateClass = ""                // by auth level: per_ip for public and owner routes, per_key for agent routes
	ratePerIP          rateClass = "per_ip"          // public routes, by client address
	ratePerKey         rateClass = "per_key"         // authenticated routes, by agent
	rateRegister       rateClass = "register"        // registrations, by client address
	rateRegisterWallet rateClass = "register_wallet" // wallet registrations, by client address
	rateReport         rateClass = "report"          // guardian reports, by client address
	rateAuthFailures   rateClass = "auth_failures"   // failed authentications, by client address
	rateNone           rateClass = "none"            // admin routes: only failed authentications count
)

// limit is the limit of a class.
func (l RateLimits) limit(c rateClass) guardian.Limit {
	switch c {
	case ratePerIP:
		return l.PerIP
	case ratePerKey:
		return l.PerKey
	case rateRegister:
		return l.Register
	case rateRegisterWallet:
		return l.RegisterWallet
	case rateReport:
		return l.Report
	case rateAuthFailures:
		return l.AuthFailures
	}
	return guardian.Unlimited
}

// classOf is the class of a route.
func classOf(rt route) rateClass {
	switch {
	case rt.limit != rateDefault:
		return rt.limit
	case rt.auth == authPublic, rt.auth == authOwner:
		return ratePerIP
	case rt.auth == authAgent:
		return ratePerKey
	}
	return rateNone
}

// take draws one token of class c for subject, sets the RateLimit-*
// headers and returns a RateLimited error when the bucket is empty. A
// limiter failure lets the request through (logged).
func (a *API) take(ctx context.Context, w http.ResponseWriter, c rateClass, subject, agentID string) error {
	l := a.limits.limit(c)
	if a.limits.Disabled || l.IsUnlimited() {
		return nil
	}
	d, err := a.limits.Limiter.Take(ctx, string(c)+":"+subject, l)
	if err != nil {
		a.opts.Logger.ErrorContext(ctx, "rate limiter failed; request let through", "limit", string(c), "error", err)
		return nil
	}
	setRateHeaders(w, d)
	if !d.Allowed {
		return a.refuse(ctx, c, agentID, d)
	}
	return nil
}

// blockedAfterFailures refuses a client address whose failed
// authentications used up their bucket.
func (a *API) blockedAfterFailures(ctx context.Context, w http.ResponseWriter, network string) error {
	l := a.limits.AuthFailures
	if a.limits.Disabled || l.IsUnlimited() {
		return nil
	}
	d, err := a.limits.Limiter.Peek(ctx, string(rateAuthFailures)+":"+network, l)
	if err != nil {
		a.opts.Logger.ErrorContext(ctx, "rate limiter failed; request let through", "limit", string(rateAuthFailures), "error", err)
		return nil
	}
	if !d.Allowed {
		setRateHeaders(w, d)
		return a.refuse(ctx, rateAuthFailures, "", d)
	}
	return nil
}

// authFailed counts a failed authentication: one token of the address's
// failure bucket and a security event (aggregated by the guardian).
func (a *API) authFailed(ctx context.Context, level authLevel, network string) {
	typ := guardian.TypeAuthFailure
	switch level {
	case authAdmin:
		typ = guardian.TypeAdminKeyFailure
	case authOwner:
		typ = guardian.TypeOwnerKeyFailure
	}
	a.rec.Record(ctx, guardian.Event{Type: typ})
	if l := a.limits.AuthFailures; !a.limits.Disabled && !l.IsUnlimited() {
		if _, err := a.limits.Limiter.Take(ctx, string(rateAuthFailures)+":"+network, l); err != nil {
			a.opts.Logger.ErrorContext(ctx, "rate limiter failed", "limit", string(rateAuthFailures), "error", err)
		}
	}
}

// refuse records a refusal and returns its 429 error.
func (a *API) refuse(ctx context.Context, c rateClass, agentID string, d guardian.Decision) error {
	a.rec.Record(ctx, guardian.Event{Type: guardian.TypeRateLimited, AgentID: agentID,
		Description: "Requests refused by the " + string(c) + " rate limit"})
	a.opts.Metrics.rateLimited(c)
	msg := "Rate limit exceeded: too many requests from this address; retry after the time in Retry-After"
	switch c {
	case ratePerKey:
		msg = "Rate limit exceeded for this API key; retry after the time in Retry-After"
	case rateAuthFailures:
		msg = "Too many failed authentications from this address; retry after the time in Retry-After"
	}
	return &toolkit.Error{Kind: toolkit.RateLimited, Msg: msg, RetryAfter: max(d.RetryAfter, time.Second)}
}

// setRateHeaders writes the RateLimit-* headers of a decision (IETF
// draft "RateLimit header fields for HTTP": limit, remaining, seconds
// until the bucket is full).
func setRateHeaders(w http.ResponseWriter, d guardian.Decision) {
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", strconv.FormatInt(int64((d.Reset+time.Second-1)/time.Second), 10))
}
