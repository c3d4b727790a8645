package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegisterAndReadAgent(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("POST", "/v1/agents/register", nil, `{"owner_id":"acme","agent_name":"RiskBot","agent_type":"risk",
		"description":"checks","authorized_instruments":["AAPL"],"max_position_size_pct":"5.0","max_daily_loss_pct":2}`)
	require.Equal(t, http.StatusCreated, status, m)
	for _, f := range []string{"agent_id", "agent_name", "agent_type", "mode", "api_key", "created_at"} {
		assert.Contains(t, m, f)
	}
	assert.Equal(t, "sandbox", m["mode"])
	assert.Regexp(t, `^agt_[a-z0-9]{16}$`, m["agent_id"])
	assert.Regexp(t, `^aft_agent_[A-Za-z0-9]{40}$`, m["api_key"])
	assert.Regexp(t, `Z$`, m["created_at"], "UTC timestamps")
	k := m["api_key"].(string)

	for _, h := range []map[string]string{key(k), {"Authorization": "Bearer " + k}} {
		status, me := e.do("GET", "/v1/agents/me", h, "")
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, m["agent_id"], me["agent_id"])
		assert.Equal(t, "acme", me["owner_id"])
		assert.Equal(t, true, me["is_active"])
		assert.Equal(t, "checks", me["description"])
		assert.Equal(t, "5.0", me["max_position_size_pct"])
		assert.Equal(t, "2", me["max_daily_loss_pct"])
		assert.Equal(t, []any{"AAPL"}, me["authorized_instruments"])
	}
	assert.NotContains(t, e.logs.String(), k, "keys are never logged")
}

func TestOwnerClaimsNeedAnAgentKeyOfThatOwner(t *testing.T) {
	e := newEnv(t)
	_, k1 := e.register("acme")
	body := `{"owner_id":"acme","agent_name":"second","agent_type":"analysis"}`

	status, m := e.do("POST", "/v1/agents/register", nil, body)
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, m["detail"], "X-API-Key")

	_, other := e.register("mallory")
	status, _ = e.do("POST", "/v1/agents/register", key(other), body)
	assert.Equal(t, http.StatusConflict, status, "another owner's key does not grant acme")

	status, m = e.do("POST", "/v1/agents/register", key(k1), body)
	require.Equal(t, http.StatusCreated, status, m)
	status, list := e.do("GET", "/v1/agents/list", key(k1), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 2, list["count"])
	assert.Len(t, list["agents"], 2)
	status, list = e.do("GET", "/v1/agents/list", key(other), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 1, list["count"], "mallory sees only her own agents")
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	for _, h := range []map[string]string{nil, key("nope"), key(k[:len(k)-1] + "!"), key(strings.ToUpper(k[:10]) + k[10:]),
		key("aft_agent_" + strings.Repeat("a", 40)), {"Authorization": "Basic " + k}} {
		status, m := e.do("GET", "/v1/agents/me", h, "")
		assert.Equal(t, http.StatusUnauthorized, status, h)
		assert.Equal(t, "unauthenticated", m["code"])
	}
}

func TestModesSuspensionAndTermination(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")

	status, m := e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"flying"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "mode: must be one of")

	status, m = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"suspended"}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, false, m["is_active"])
	for _, path := range []string{"/v1/agents/me", "/v1/billing/balance"} {
		status, _ = e.do("GET", path, key(k), "")
		assert.Equal(t, http.StatusForbidden, status)
	}
	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"live"}`)
	assert.Equal(t, http.StatusForbidden, status, "a suspended agent cannot lift its own suspension")

	status, _ = e.do("PUT", "/v1/admin/agents/"+id+"/mode", nil, `{"mode":"live"}`)
	assert.Equal(t, http.StatusUnauthorized, status, "admin key required")
	status, _ = e.do("PUT", "/v1/admin/agents/"+id+"/mode", map[string]string{"X-Admin-Key": "wrong"}, `{"mode":"live"}`)
	assert.Equal(t, http.StatusUnauthorized, status)
	status, m = e.do("PUT", "/v1/admin/agents/"+id+"/mode", map[string]string{"X-Admin-Key": adminKey}, `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "live", m["mode"])

	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"terminated"}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusForbidden, status)
	status, m = e.do("PUT", "/v1/admin/agents/"+id+"/mode", map[string]string{"X-Admin-Key": adminKey}, `{"mode":"sandbox"}`)
	assert.Equal(t, http.StatusConflict, status, "terminated is final")
	assert.Contains(t, m["detail"], "terminated")
	status, _ = e.do("PUT", "/v1/admin/agents/agt_missing/mode", map[string]string{"X-Admin-Key": adminKey}, `{"mode":"live"}`)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestRotateKey(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	status, m := e.do("POST", "/v1/agents/rotate-key", key(k), "")
	require.Equal(t, http.StatusOK, status)
	newKey := m["api_key"].(string)
	assert.NotEqual(t, k, newKey)
	status, _ = e.do("GET", "/v1/agents/me", key(k), "")
	assert.Equal(t, http.StatusUnauthorized, status, "the old key stops working")
	status, me := e.do("GET", "/v1/agents/me", key(newKey), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, id, me["agent_id"])
}

func TestAdminEndpointsDisabledWithoutAdminKey(t *testing.T) {
	e := newEnvWithoutAdmin(t)
	status, m := e.do("PUT", "/v1/admin/agents/agt_x/mode", map[string]string{"X-Admin-Key": ""}, `{"mode":"live"}`)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, m["detail"], "disabled")
}
