package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegisterBadInput: every rejected registration is a 4xx naming the
// field and writes nothing.
func TestRegisterBadInput(t *testing.T) {
	e := newEnv(t, withRateLimits(httpapi.RateLimits{Register: guardian.NewLimit(100, time.Hour)}))
	long := strings.Repeat("x", 101)
	cases := []struct {
		body, want string
		status     int
	}{
		{`{"owner_id":"o","agent_name":"","agent_type":"trading"}`, "agent_name: must not be empty", 400},
		{`{"owner_id":"o","agent_name":"` + long + `","agent_type":"trading"}`, "agent_name: must be at most 100 characters long, got 101", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"trader"}`, "agent_type: must be one of", 400},
		{`{"owner_id":"","agent_name":"a","agent_type":"risk"}`, "owner_id", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","description":"` + strings.Repeat("d", 501) + `"}`, "description: must be at most 500 characters", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","max_position_size_pct":"0"}`, `max_position_size_pct: must be greater than 0, got "0"`, 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","max_daily_loss_pct":"100.5"}`, `max_daily_loss_pct: must be at most 100, got "100.5"`, 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","max_daily_loss_pct":"1e3"}`, `max_daily_loss_pct: must be at most 100, got "1e3"`, 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","authorized_instruments":[""]}`, "authorized_instruments[0]", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","extra":1}`, "Unknown field: extra", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","OWNER_ID":"p"}`, "Unknown field: OWNER_ID", 400},
		{`{"owner_id":"o","owner_id":"p","agent_name":"a","agent_type":"risk"}`, "owner_id: appears twice", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","authorized_actions":[` + strings.Repeat(`"a",`, 100) + `"a"]}`, "authorized_actions: at most 100 items", 413},
		{`{"owner_id":"o","agent_name":5,"agent_type":"risk"}`, "agent_name: expected a string, got 5", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","authorized_actions":"size"}`, "authorized_actions: expected an array", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk"} {}`, "unexpected data after the JSON value", 400},
		{`not json`, "must be a JSON object", 400},
		{`{"owner_id":"o",`, "invalid JSON", 400},
		{``, "must be a JSON object", 400},
		{`[1,2]`, "must be a JSON object", 400},
		{`{"owner_id":"o","agent_name":"a\u0000b","agent_type":"risk"}`, "agent_name: contains the control character", 400},
		{`{"owner_id":"o","agent_name":"a","agent_type":"risk","description":"` + strings.Repeat("y", 70<<10) + `"}`, "too large", 413},
	}
	for _, c := range cases {
		status, m := e.do("POST", "/v1/agents/register", nil, c.body)
		assert.Equal(t, c.status, status, c.body[:min(len(c.body), 80)])
		assert.Contains(t, m["detail"], c.want, c.body[:min(len(c.body), 80)])
	}
	for _, owner := range []string{"o", "p", ""} { // every owner_id the bodies name
		list, err := e.store.ListAgentsByOwner(t.Context(), owner, 10)
		require.NoError(t, err)
		assert.Empty(t, list, "nothing written on any rejected request (owner %q)", owner)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("GET", "/v1/nothing/here", nil, "")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "not_found", m["code"])
}

func TestDepositBadInput(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	cases := map[string]string{
		`{"amount":"-1","funding_path":"direct_transfer"}`:        "amount: must be greater than 0",
		`{"amount":"0","funding_path":"direct_transfer"}`:         "amount: must be greater than 0",
		`{"amount":"abc","funding_path":"direct_transfer"}`:       "abc",
		`{"amount":"1e7","funding_path":"direct_transfer"}`:       `amount: must be at most 1000000, got "1e7"`,
		`{"amount":"1.0000001","funding_path":"direct_transfer"}`: "amount: at most 6 decimal places",
		`{"amount":"10","funding_path":"paypal"}`:                 "funding_path: must be one of",
		`{"amount":"10"}`: "Missing required field: funding_path",
		`{"amount":"10","funding_path":"onramp","on_chain_tx_hash":"x"}`: "onramp payment provider",
		`{"amount":"","funding_path":"direct_transfer"}`:                 `amount: "" is not a number`,
	}
	for body, want := range cases {
		status, m := e.do("POST", "/v1/billing/deposit", key(k), body)
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, m["detail"], want, body)
	}
	assert.Equal(t, "0.00", e.balance(k), "nothing credited")
	for _, q := range []string{"0", "1001", "abc", "-5"} {
		status, m := e.do("GET", "/v1/billing/transactions?limit="+q, key(k), "")
		assert.Equal(t, http.StatusBadRequest, status, q)
		assert.Contains(t, m["detail"], "limit:", q)
	}
}
