package httpapi_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registerBody(owner string) string {
	return `{"owner_id":"` + owner + `","agent_name":"bot","agent_type":"trading"}`
}

func TestRegistrationLimitedExactlyAtTheConfiguredRate(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), withTrustedProxy, withRateLimits(httpapi.RateLimits{Register: guardian.NewLimit(3, time.Hour)}))
	attacker := "203.0.113.7"
	for i := range 3 {
		status, h, m := e.exchange("POST", "/v1/agents/register", from(attacker, nil), registerBody(fmt.Sprint("o", i)))
		require.Equal(t, http.StatusCreated, status, m)
		assert.Equal(t, "3", h.Get("RateLimit-Limit"))
		assert.Equal(t, fmt.Sprint(2-i), h.Get("RateLimit-Remaining"))
		assert.Equal(t, fmt.Sprint((i+1)*20*60), h.Get("RateLimit-Reset"), "20 minutes per token used")
	}
	status, h, m := e.exchange("POST", "/v1/agents/register", from(attacker, nil), registerBody("o3"))
	require.Equal(t, http.StatusTooManyRequests, status, m)
	assert.Equal(t, "rate_limited", m["code"])
	assert.Equal(t, "1200", h.Get("Retry-After"), "one token comes back in 20 minutes")
	assert.Equal(t, "0", h.Get("RateLimit-Remaining"))

	status, _, _ = e.exchange("POST", "/v1/agents/register", from("198.51.100.9", nil), registerBody("o4"))
	assert.Equal(t, http.StatusCreated, status, "another address has its own bucket")

	c.Advance(20*time.Minute - time.Second)
	status, _, _ = e.exchange("POST", "/v1/agents/register", from(attacker, nil), registerBody("o5"))
	assert.Equal(t, http.StatusTooManyRequests, status, "one second early")
	c.Advance(time.Second)
	status, _, _ = e.exchange("POST", "/v1/agents/register", from(attacker, nil), registerBody("o6"))
	assert.Equal(t, http.StatusCreated, status, "exactly one token is back")
	status, _, _ = e.exchange("POST", "/v1/agents/register", from(attacker, nil), registerBody("o7"))
	assert.Equal(t, http.StatusTooManyRequests, status)

	status, _ = e.do("GET", "/v1/billing/pricing", from(attacker, nil), "")
	assert.Equal(t, http.StatusOK, status, "other public routes draw from the per-address bucket")

	c.Advance(time.Minute)
	limited := e.eventsOf(guardian.TypeRateLimited)
	require.Len(t, limited, 2, "one event per window, not one per refusal")
	var total float64
	for _, ev := range limited {
		assert.Equal(t, attacker, ev["source"])
		assert.Equal(t, "Requests refused by the register rate limit", ev["description"])
		total += ev["count"].(float64)
	}
	assert.Equal(t, 3.0, total)
}

func TestPerKeyLimit(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), withRateLimits(httpapi.RateLimits{PerKey: guardian.NewLimit(5, time.Minute)}))
	id, k := e.register("acme")
	_, other := e.register("beta")
	for range 5 {
		status, _ := e.do("GET", "/v1/agents/me", key(k), "")
		require.Equal(t, http.StatusOK, status)
	}
	status, h, m := e.exchange("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusTooManyRequests, status)
	assert.Contains(t, m["detail"], "for this API key")
	assert.Equal(t, "12", h.Get("Retry-After"))
	status, _ = e.do("GET", "/v1/agents/me", key(other), "")
	assert.Equal(t, http.StatusOK, status, "keys are limited independently, from the same address")
	c.Advance(12 * time.Second)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusOK, status)

	c.Advance(time.Minute)
	limited := e.eventsOf(guardian.TypeRateLimited)
	require.Len(t, limited, 1)
	assert.Equal(t, id, limited[0]["agent_id"])
}

func TestFailedAuthenticationsBlockTheAddress(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), withTrustedProxy, withRateLimits(httpapi.RateLimits{AuthFailures: guardian.NewLimit(3, time.Minute)}))
	_, k := e.register("acme")
	attacker := "203.0.113.66"
	for i := range 3 {
		status, _ := e.do("GET", "/v1/agents/me", from(attacker, key(fmt.Sprintf("aft_agent_%040d", i))), "")
		require.Equal(t, http.StatusUnauthorized, status)
	}
	status, h, m := e.exchange("GET", "/v1/agents/me", from(attacker, key(k)), "")
	require.Equal(t, http.StatusTooManyRequests, status, "a blocked address is refused before any key check, even a valid key")
	assert.Contains(t, m["detail"], "failed authentications")
	assert.Equal(t, "20", h.Get("Retry-After"))
	status, _ = e.do("GET", "/v1/guardian/events", from(attacker, admin()), "")
	assert.Equal(t, http.StatusTooManyRequests, status, "admin routes too")
	status, _ = e.do("GET", "/v1/agents/me", from("198.51.100.1", key(k)), "")
	assert.Equal(t, http.StatusOK, status, "other addresses are not affected")
	status, _ = e.do("GET", "/v1/billing/pricing", from(attacker, nil), "")
	assert.Equal(t, http.StatusOK, status, "public routes without a key stay open")

	c.Advance(20 * time.Second)
	status, _ = e.do("GET", "/v1/agents/me", from(attacker, key(k)), "")
	assert.Equal(t, http.StatusOK, status, "a valid key does not use up the failure bucket")

	c.Advance(time.Minute)
	failures := e.eventsOf(guardian.TypeAuthFailure)
	require.Len(t, failures, 1, "the burst is one event")
	assert.Equal(t, 3.0, failures[0]["count"])
	assert.Equal(t, attacker, failures[0]["source"])
	assert.Len(t, e.eventsOf(guardian.TypeRateLimited), 1)
}

func TestRegistrationWithABadKeyIsAFailedAuthentication(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	status, _ := e.do("POST", "/v1/agents/register", key("aft_agent_"+fmt.Sprintf("%040d", 7)), registerBody("acme"))
	require.Equal(t, http.StatusUnauthorized, status)
	e.register("acme")
	status, _ = e.do("POST", "/v1/agents/register", nil, registerBody("acme"))
	require.Equal(t, http.StatusConflict, status)
	c.Advance(time.Minute)
	assert.Len(t, e.eventsOf(guardian.TypeAuthFailure), 1)
	claims := e.eventsOf(guardian.TypeOwnerClaimRefused)
	require.Len(t, claims, 1)
	assert.Contains(t, claims[0]["description"], `"acme"`)
}

func TestClientAddressFromTrustedProxiesOnly(t *testing.T) {
	limits := httpapi.RateLimits{Register: guardian.NewLimit(1, time.Hour)}
	cases := []struct {
		name     string
		proxy    httpapi.TrustedProxy
		separate bool // two X-Forwarded-For values get separate buckets
	}{
		{"no proxy configured: the header is ignored", httpapi.TrustedProxy{}, false},
		{"any peer trusted", httpapi.TrustedProxy{Header: "X-Forwarded-For"}, true},
		{"peer is a listed proxy", httpapi.TrustedProxy{Header: "X-Forwarded-For", Proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, true},
		{"peer is not a listed proxy", httpapi.TrustedProxy{Header: "X-Forwarded-For", Proxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, withRateLimits(limits), func(c *envConfig) { c.api.TrustedProxy = tc.proxy })
			status, _ := e.do("POST", "/v1/agents/register", from("203.0.113.1", nil), registerBody("a"))
			require.Equal(t, http.StatusCreated, status)
			status, _ = e.do("POST", "/v1/agents/register", from("203.0.113.2", nil), registerBody("b"))
			assert.Equal(t, tc.separate, status == http.StatusCreated, "status %d", status)
		})
	}
	t.Run("spoofed hops before the proxy's are ignored", func(t *testing.T) {
		e := newEnv(t, withRateLimits(limits), withTrustedProxy)
		status, _ := e.do("POST", "/v1/agents/register", from("1.1.1.1, 203.0.113.1", nil), registerBody("a"))
		require.Equal(t, http.StatusCreated, status)
		status, _ = e.do("POST", "/v1/agents/register", from("2.2.2.2, 203.0.113.1", nil), registerBody("b"))
		assert.Equal(t, http.StatusTooManyRequests, status, "the address the proxy added decides")
	})
	t.Run("IPv6 clients share their /64", func(t *testing.T) {
		e := newEnv(t, withRateLimits(limits), withTrustedProxy)
		status, _ := e.do("POST", "/v1/agents/register", from("2001:db8:1:2::1", nil), registerBody("a"))
		require.Equal(t, http.StatusCreated, status)
		status, _ = e.do("POST", "/v1/agents/register", from("2001:db8:1:2:ffff::9", nil), registerBody("b"))
		assert.Equal(t, http.StatusTooManyRequests, status)
		status, _ = e.do("POST", "/v1/agents/register", from("2001:db8:1:3::1", nil), registerBody("c"))
		assert.Equal(t, http.StatusCreated, status)
	})
}

func TestLimitsCanBeTurnedOff(t *testing.T) {
	e := newEnv(t, withRateLimits(httpapi.RateLimits{Disabled: true}))
	for i := range 30 {
		status, h, _ := e.exchange("POST", "/v1/agents/register", nil, registerBody(fmt.Sprint("o", i)))
		require.Equal(t, http.StatusCreated, status)
		assert.Empty(t, h.Get("RateLimit-Limit"))
	}
	e = newEnv(t, withRateLimits(httpapi.RateLimits{Register: guardian.Unlimited}))
	for i := range 30 {
		status, _ := e.do("POST", "/v1/agents/register", nil, registerBody(fmt.Sprint("o", i)))
		require.Equal(t, http.StatusCreated, status)
	}
}

func TestDefaultRegistrationLimit(t *testing.T) {
	e := newEnv(t)
	created := 0
	for i := range 30 {
		if status, _ := e.do("POST", "/v1/agents/register", nil, registerBody(fmt.Sprint("o", i))); status == http.StatusCreated {
			created++
		}
	}
	assert.Equal(t, httpapi.DefaultRateLimits.Register.Burst, created, "30 registrations from one address: the default burst passes")
}
