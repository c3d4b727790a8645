package httpapi_test

import (
	"crypto/ed25519"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ownerHeader(k string) map[string]string { return map[string]string{"X-Owner-Key": k} }

// registerOwner registers the first agent of a new owner and returns the
// agent's id and key and the owner key.
func (e *env) registerOwner(owner string) (id, agentKey, ownerKey string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/agents/register", nil, `{"owner_id":"`+owner+`","agent_name":"first","agent_type":"trading"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	require.Contains(e.t, m, "owner_key", "the first registration of an owner shows its owner key")
	return m["agent_id"].(string), m["api_key"].(string), m["owner_key"].(string)
}

// addAgent registers a second agent of the owner of k.
func (e *env) addAgent(owner, k, name string) (string, string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/agents/register", key(k), `{"owner_id":"`+owner+`","agent_name":"`+name+`","agent_type":"risk"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	assert.NotContains(e.t, m, "owner_key", "only the owner's first registration shows the owner key")
	return m["agent_id"].(string), m["api_key"].(string)
}

const pricedCall = `{"tool_name":"demo_double","arguments":{"value":"2"}}`

func TestOwnerKeyShownOnceAndOpensOnlyOwnerRoutes(t *testing.T) {
	e := newEnv(t)
	_, agentKey, ok := e.registerOwner("acme")
	assert.Regexp(t, regexp.MustCompile(`^aft_owner_[A-Za-z0-9]{40}$`), ok)
	e.addAgent("acme", agentKey, "second")

	status, m := e.do("GET", "/v1/owner/agents", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 2, m["count"])
	other := "x"
	if strings.HasSuffix(ok, other) {
		other = "y" // one character off, whatever the key ends with
	}
	for _, h := range []map[string]string{ownerHeader(agentKey), key(agentKey), nil, ownerHeader(ok[:len(ok)-1] + other)} {
		status, m := e.do("GET", "/v1/owner/agents", h, "")
		assert.Equal(t, http.StatusUnauthorized, status, "%v: %v", h, m)
	}
	status, _ = e.do("GET", "/v1/agents/me", key(ok), "")
	assert.Equal(t, http.StatusUnauthorized, status, "an owner key is not an agent key either")
}

func TestOwnerSeesBalancesSpendAndKeyTimes(t *testing.T) {
	e := newEnv(t)
	id, k, ok := e.registerOwner("fleet")
	id2, k2 := e.addAgent("fleet", k, "second")
	e.fund(k, "1.00")
	e.fund(k2, "0.50")
	status, m := e.do("POST", "/v1/tools/call", key(k), pricedCall)
	require.Equal(t, http.StatusOK, status, m)

	status, m = e.do("GET", "/v1/owner/agents", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	byID := map[string]map[string]any{}
	for _, a := range m["agents"].([]any) {
		byID[a.(map[string]any)["agent_id"].(string)] = a.(map[string]any)
	}
	first, second := byID[id], byID[id2]
	require.NotNil(t, first)
	require.NotNil(t, second)
	assert.Equal(t, "0.997", first["sandbox_balance"])
	assert.Equal(t, "0.00", first["real_balance"])
	assert.Equal(t, "0.003", first["spent_today"])
	assert.Equal(t, "0.003", first["spent_this_month"])
	assert.NotNil(t, first["key_last_used_at"], "the key authenticated requests")
	assert.NotEmpty(t, first["key_created_at"])
	assert.Equal(t, "0.50", second["sandbox_balance"])
	assert.Equal(t, "0.00", second["spent_today"])
}

func TestOwnerLimitsWithinCeilingsAreEnforced(t *testing.T) {
	e := newEnv(t)
	id, k, ok := e.registerOwner("limits")
	e.fund(k, "1.00")
	path := "/v1/owner/agents/" + id + "/limits"
	status, m := e.do("PUT", path, ownerHeader(ok), `{"daily_limit":"0.004"}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = e.do("POST", "/v1/tools/call", key(k), pricedCall)
	require.Equal(t, http.StatusOK, status, m)
	status, m = e.do("POST", "/v1/tools/call", key(k), pricedCall)
	assert.Equal(t, http.StatusForbidden, status, "the owner's limit is the API's: %v", m)
	status, m = e.do("PUT", path, ownerHeader(ok), `{"daily_limit":"5"}`)
	require.Equal(t, http.StatusOK, status, "an owner may raise a limit: %v", m)
	status, _ = e.do("POST", "/v1/tools/call", key(k), pricedCall)
	assert.Equal(t, http.StatusOK, status)

	status, m = e.do("PUT", "/v1/admin/agents/"+id+"/ceilings", admin(), `{"daily_limit":"2","allowed_operations":["position_sizing","risk_check"]}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "2.00", m["daily_limit"], "a limit above a new ceiling comes down to it")
	assert.Equal(t, "2.00", m["ceilings"].(map[string]any)["daily_limit"])
	for body, field := range map[string]string{
		`{"daily_limit":"3","allowed_operations":["risk_check"]}`: "daily_limit",
		`{"allowed_operations":["risk_check"]}`:                   "daily_limit",
		`{"daily_limit":"1"}`:                                     "allowed_operations",
		`{"daily_limit":"1","allowed_operations":["basic_eval"]}`: "allowed_operations",
	} {
		status, m := e.do("PUT", path, ownerHeader(ok), body)
		assert.Equal(t, http.StatusForbidden, status, body)
		assert.Contains(t, m["detail"], field, body)
	}
	status, m = e.do("PUT", path, ownerHeader(ok), `{"daily_limit":"1.5","allowed_operations":["risk_check"]}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = e.do("POST", "/v1/tools/call", key(k), pricedCall)
	assert.Equal(t, http.StatusForbidden, status, "position_sizing is no longer allowed: %v", m)
	status, _ = e.do("PUT", "/v1/agents/limits", key(k), `{"daily_limit":"1.9","allowed_operations":["risk_check"]}`)
	assert.Equal(t, http.StatusForbidden, status, "the agent itself still cannot loosen")
}

func TestOwnerModesAndAgentKeys(t *testing.T) {
	e := newEnv(t)
	id, k, ok := e.registerOwner("modes")
	_, otherKey, otherOwner := e.registerOwner("stranger")
	_ = otherKey
	mode := "/v1/owner/agents/" + id + "/mode"
	status, m := e.do("PUT", mode, ownerHeader(ok), `{"mode":"suspended"}`)
	require.Equal(t, http.StatusOK, status, m)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusForbidden, status)
	status, _ = e.do("PUT", mode, ownerHeader(ok), `{"mode":"sandbox"}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusOK, status, "resumed")

	status, m = e.do("POST", "/v1/owner/agents/"+id+"/rotate-key", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	newKey := m["api_key"].(string)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusUnauthorized, status, "the old key stops working")
	status, _ = e.do("GET", "/v1/agents/me", key(newKey), "")
	assert.Equal(t, http.StatusOK, status)

	for _, c := range []struct{ method, path, body string }{
		{"PUT", mode, `{"mode":"suspended"}`}, {"POST", "/v1/owner/agents/" + id + "/rotate-key", ""},
		{"PUT", "/v1/owner/agents/" + id + "/limits", `{"daily_limit":"1"}`},
		{"GET", "/v1/owner/transactions?agent_id=" + id, ""}, {"GET", "/v1/owner/usage?agent_id=" + id, ""},
	} {
		status, m := e.do(c.method, c.path, ownerHeader(otherOwner), c.body)
		assert.Equal(t, http.StatusNotFound, status, "another owner's agent is not found: %s %s %v", c.method, c.path, m)
	}

	status, _ = e.do("PUT", mode, ownerHeader(ok), `{"mode":"terminated"}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = e.do("PUT", mode, ownerHeader(ok), `{"mode":"sandbox"}`)
	assert.Equal(t, http.StatusConflict, status, "terminated is final")
	status, _ = e.do("POST", "/v1/owner/agents/"+id+"/rotate-key", ownerHeader(ok), "")
	assert.Equal(t, http.StatusConflict, status, "a terminated agent gets no key")
}

func TestOwnerUsageAndLedgerAcrossAgents(t *testing.T) {
	e := newEnv(t)
	id, k, ok := e.registerOwner("books")
	id2, k2 := e.addAgent("books", k, "second")
	e.fund(k, "1.00")
	e.fund(k2, "1.00")
	for _, kk := range []string{k, k, k2} {
		status, m := e.do("POST", "/v1/tools/call", key(kk), pricedCall)
		require.Equal(t, http.StatusOK, status, m)
	}
	status, m := e.do("GET", "/v1/owner/usage", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	days := m["days"].([]any)
	require.Len(t, days, 1)
	day := days[0].(map[string]any)
	assert.Equal(t, time.Now().UTC().Format(time.DateOnly), day["day"])
	assert.Equal(t, "position_sizing", day["operation"])
	assert.EqualValues(t, 3, day["count"])
	assert.Equal(t, "0.009", day["cost"])
	status, m = e.do("GET", "/v1/owner/usage?agent_id="+id2, ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "0.003", m["total_cost"])
	status, m = e.do("GET", "/v1/owner/usage?from=2026-01-01&to=2025-01-01", ownerHeader(ok), "")
	assert.Equal(t, http.StatusBadRequest, status, m)

	status, m = e.do("GET", "/v1/owner/transactions?limit=4", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 4, m["count"])
	assert.Equal(t, true, m["has_more"])
	status, m = e.do("GET", "/v1/owner/transactions?limit=4&cursor="+m["next_cursor"].(string), ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 1, m["count"], "2 deposits and 3 charges in all")
	status, m = e.do("GET", "/v1/owner/transactions?agent_id="+id, ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 3, m["count"])

	req, err := http.NewRequest("GET", e.srv.URL+"/v1/owner/transactions?limit=2", nil)
	require.NoError(t, err)
	req.Header.Set("X-Owner-Key", ok)
	req.Header.Set("Accept", "text/csv")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", raw)
	e.contract.check(t, req, nil, res, raw)
	assert.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	assert.NotEmpty(t, res.Header.Get("X-Next-Cursor"))
	records, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, 3)
	assert.Equal(t, "agent_id", records[0][0])
	assert.Equal(t, id2, records[1][0], "newest first")
	assert.Equal(t, "-0.003", records[1][7])
}

func TestOwnerKeyRotationAndAdminIssue(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	_, _, ok := e.registerOwner("rotating")
	status, m := e.do("POST", "/v1/owner/rotate-key", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, m)
	fresh := m["owner_key"].(string)
	status, _ = e.do("GET", "/v1/owner/agents", ownerHeader(ok), "")
	assert.Equal(t, http.StatusUnauthorized, status, "the old owner key stops working")
	status, _ = e.do("GET", "/v1/owner/agents", ownerHeader(fresh), "")
	assert.Equal(t, http.StatusOK, status)

	status, m = e.do("POST", "/v1/admin/owners/rotating/key", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	issued := m["owner_key"].(string)
	status, _ = e.do("GET", "/v1/owner/agents", ownerHeader(fresh), "")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = e.do("GET", "/v1/owner/agents", ownerHeader(issued), "")
	assert.Equal(t, http.StatusOK, status)
	status, _ = e.do("POST", "/v1/admin/owners/nobody/key", admin(), "")
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = e.do("POST", "/v1/admin/owners/rotating/key", ownerHeader(issued), "")
	assert.Equal(t, http.StatusUnauthorized, status, "an owner key is not an admin key")
	c.Advance(2 * time.Minute)
	assert.Len(t, e.eventsOf(guardian.TypeOwnerKeyIssued), 2, "the rotation and the issue are security events")
}

func TestFailedOwnerKeysBlockTheAddress(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), withTrustedProxy, withRateLimits(httpapi.RateLimits{AuthFailures: guardian.NewLimit(3, time.Minute)}))
	_, k := e.register("victim")
	attacker := "203.0.113.9"
	for i := range 3 {
		status, _ := e.do("GET", "/v1/owner/agents", from(attacker, ownerHeader(fmt.Sprintf("aft_owner_%040d", i))), "")
		require.Equal(t, http.StatusUnauthorized, status)
	}
	status, _ := e.do("GET", "/v1/agents/me", from(attacker, key(k)), "")
	assert.Equal(t, http.StatusTooManyRequests, status, "owner key failures count against the same per-address limit")
	c.Advance(time.Minute)
	assert.NotEmpty(t, e.eventsOf(guardian.TypeOwnerKeyFailure), "and are security events")
}

func TestWalletOwnersGetTheirOwnerKeyOnce(t *testing.T) {
	e := newEnv(t)
	_, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	w := newWallet(priv)
	status, m := e.signIn(w)
	require.Equal(t, http.StatusCreated, status, m)
	ok, _ := m["owner_key"].(string)
	require.NotEmpty(t, ok, "the wallet's new owner gets an owner key")
	status, owned := e.do("GET", "/v1/owner/agents", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status, owned)
	assert.Equal(t, m["owner_id"], owned["owner_id"])

	e.clock.Advance(time.Second)
	status, m = e.signIn(w)
	require.Equal(t, http.StatusOK, status, m)
	assert.NotContains(t, m, "owner_key", "a later sign-in rotates the agent key only")
	status, _ = e.do("GET", "/v1/owner/agents", ownerHeader(ok), "")
	assert.Equal(t, http.StatusOK, status)
}

func TestOwnerChangesEndTheAgentsMCPSessions(t *testing.T) {
	e := newEnv(t)
	id, k, ok := e.registerOwner("mcp-owner")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	require.NoError(t, callEcho(cs))
	status, m := e.do("PUT", "/v1/owner/agents/"+id+"/mode", ownerHeader(ok), `{"mode":"suspended"}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Error(t, callEcho(cs), "the owner's suspension ends the sessions")

	status, _ = e.do("PUT", "/v1/owner/agents/"+id+"/mode", ownerHeader(ok), `{"mode":"sandbox"}`)
	require.Equal(t, http.StatusOK, status)
	cs, err = e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	status, _ = e.do("POST", "/v1/owner/agents/"+id+"/rotate-key", ownerHeader(ok), "")
	require.Equal(t, http.StatusOK, status)
	assert.Error(t, callEcho(cs), "so does the owner's key rotation")
}
