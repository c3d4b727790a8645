package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPricingIsPublic(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("GET", "/v1/billing/pricing", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "USDC", m["currency"])
	prices := m["prices"].(map[string]any)
	assert.Equal(t, "0.003", prices["position_sizing"])
	assert.Equal(t, "2.00", prices["assess_trading_system"])
	assert.Equal(t, "0.002", prices["store_memory"])
	assert.Equal(t, "0.001", prices["search_memory"])
	assert.Equal(t, "0.003", prices["record_trade_journal"])
	assert.Len(t, prices, 11)
}

func TestBalanceDepositLedgerUsage(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	status, b := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, id, b["agent_id"])
	assert.Equal(t, "0.00", b["balance"])
	assert.Equal(t, "0.00", b["real_balance"])
	assert.Equal(t, "0.00", b["sandbox_balance"])
	assert.Equal(t, "test", b["pays_from"], "a new agent is in sandbox: it pays from test funds")
	assert.Equal(t, true, b["is_low"])

	status, b = e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"1.000000","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, b)
	assert.Equal(t, "1.00", b["balance"], "balance is what a sandbox agent's calls are paid from: its test money")
	assert.Equal(t, "0.00", b["real_balance"], "self-credit is test money, never real money")
	assert.Equal(t, "1.00", b["sandbox_balance"])
	assert.Equal(t, false, b["is_low"], "is_low is about the funds the calls are paid from")

	for i := 0; i < 3; i++ {
		status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1.5"}}`)
		require.Equal(t, http.StatusOK, status, m)
		assert.Equal(t, "demo_double", m["tool_name"])
		assert.Equal(t, "3.0", m["result"].(map[string]any)["doubled"])
	}
	assert.Equal(t, "0.991", e.balance(k))

	status, txs := e.do("GET", "/v1/billing/transactions?limit=2", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 2, txs["count"])
	first := txs["transactions"].([]any)[0].(map[string]any)
	assert.Equal(t, "consumption", first["type"])
	assert.Equal(t, "-0.003", first["amount"])
	assert.Equal(t, "0.991", first["balance_after"])
	assert.Equal(t, "position_sizing", first["operation"])
	assert.Equal(t, "test", first["funds"])
	assert.Nil(t, first["funding_path"])
	assert.Nil(t, first["currency"])
	status, txs = e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 4, txs["count"])
	last := txs["transactions"].([]any)[3].(map[string]any)
	assert.Equal(t, "deposit", last["type"])
	assert.Equal(t, "direct_transfer", last["funding_path"])
	assert.Equal(t, "test", last["funds"])
	assert.Nil(t, last["operation"])

	status, u := e.do("GET", "/v1/billing/usage", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"position_sizing": map[string]any{"count": float64(3), "total_cost": "0.009"}}, u["operations"])
}

func TestMeteringChargesOnlySuccess(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusPaymentRequired, status)
	assert.Equal(t, "Insufficient balance. Required: $0.003, Available: $0.00", m["detail"])
	assert.Zero(t, e.runs, "402 means nothing ran")

	e.fund(k, "0.005")
	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1","fail":true}}`)
	assert.Equal(t, http.StatusBadRequest, status)
	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"x"}}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "0.005", e.balance(k), "failures are never charged")

	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool":"demo_double","params":{"value":"2"}}`)
	assert.Equal(t, http.StatusOK, status, "published alternate body shape")
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"2"}}`)
	assert.Equal(t, http.StatusPaymentRequired, status)
	assert.Equal(t, "Insufficient balance. Required: $0.003, Available: $0.002", m["detail"])

	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"value":"2"}}`)
	assert.Equal(t, http.StatusOK, status, "free tools run on an empty balance")
}

func TestToolsCallErrors(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"fake_tool"}`)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "Unknown tool: 'fake_tool'. Available: demo_double, demo_free", m["detail"])
	for body, want := range map[string]string{
		`{}`: "Missing required field: tool_name",
		`{"tool_name":"demo_free","tool":"demo_free"}`:              "either",
		`{"tool_name":"demo_free","arguments":[1]}`:                 "arguments: expected an object, got an array",
		`{"tool_name":"demo_free","arguments":{}}`:                  "Missing required argument: value",
		`{"tool_name":"demo_free","arguments":{"value":"1"},"x":1}`: "Unknown field: x",
	} {
		status, m := e.do("POST", "/v1/tools/call", key(k), body)
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, m["detail"], want, body)
	}
}

func TestToolsList(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("GET", "/v1/tools/list", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 2, m["tool_count"])
	tools := m["tools"].([]any)
	priced := tools[0].(map[string]any)
	assert.Equal(t, "demo_double", priced["name"])
	assert.Equal(t, "metered", priced["billing_class"])
	assert.Equal(t, "0.003", priced["price"])
	schema := priced["input_schema"].(map[string]any)
	assert.Equal(t, "object", schema["type"])
	assert.Equal(t, []any{"value"}, schema["required"])
	free := tools[1].(map[string]any)
	assert.Equal(t, "free_public_tool", free["billing_class"])
	assert.Equal(t, "0.00", free["price"])
}

func TestIdempotencyKeyOverHTTP(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	e.fund(k, "1")
	h := map[string]string{"X-API-Key": k, "Idempotency-Key": "order-42"}
	body := `{"tool_name":"demo_double","arguments":{"value":"4"}}`
	for i := 0; i < 3; i++ {
		status, m := e.do("POST", "/v1/tools/call", h, body)
		require.Equal(t, http.StatusOK, status, m)
		assert.Equal(t, "8", m["result"].(map[string]any)["doubled"])
	}
	assert.Equal(t, 1, e.runs, "retries replay the stored response")
	assert.Equal(t, "0.997", e.balance(k), "charged once")
	status, m := e.do("POST", "/v1/tools/call", h, `{"tool_name":"demo_double","arguments":{"value":"5"}}`)
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, m["detail"], "different request body")
}

func TestSpendLimitsOverHTTP(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	e.fund(k, "1")
	status, m := e.do("GET", "/v1/agents/limits", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Nil(t, m["daily_limit"])

	status, m = e.do("PUT", "/v1/agents/limits", key(k), `{"daily_limit":"0.006","allowed_operations":["position_sizing"]}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "0.006", m["daily_limit"])
	for i := 0; i < 2; i++ {
		status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
		require.Equal(t, http.StatusOK, status)
	}
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, m["detail"], "Daily spend limit of $0.006 would be exceeded")
	assert.Equal(t, "0.994", e.balance(k), "nothing charged over the cap")

	status, m = e.do("PUT", "/v1/agents/limits", key(k), `{"daily_limit":"0.006","allowed_operations":["position_sizing","risk_check"]}`)
	assert.Equal(t, http.StatusForbidden, status, "an agent cannot widen its own allowed operations")
	assert.Contains(t, m["detail"], "allowed_operations: an agent can only tighten its own limits")
	status, m = e.do("PUT", "/v1/admin/agents/"+id+"/limits", map[string]string{"X-Admin-Key": adminKey}, `{"allowed_operations":["risk_check"]}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Nil(t, m["daily_limit"], "an admin may remove a cap")
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, m["detail"], "allowed operations")

	for body, want := range map[string]string{
		`{"daily_limit":"0"}`:                 `daily_limit: must be greater than 0, got "0"`,
		`{"monthly_limit":"0.0000001"}`:       "monthly_limit: must be a positive amount",
		`{"allowed_operations":["teleport"]}`: "allowed_operations[0]: unknown operation",
	} {
		status, m := e.do("PUT", "/v1/agents/limits", key(k), body)
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, m["detail"], want, body)
	}
}

// Regression (robustness finding 5): an agent may tighten its own caps but
// never loosen them; loosening is an admin action.
func TestAgentsCannotLoosenTheirOwnLimits(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	status, m := e.do("PUT", "/v1/agents/limits", key(k), `{"daily_limit":"1","monthly_limit":"10","allowed_operations":["position_sizing","risk_check"]}`)
	require.Equal(t, http.StatusOK, status, m)
	for body, field := range map[string]string{
		`{"monthly_limit":"10","allowed_operations":["position_sizing"]}`:                            "daily_limit",
		`{"daily_limit":"2","monthly_limit":"10","allowed_operations":["position_sizing"]}`:          "daily_limit",
		`{"daily_limit":"1","monthly_limit":"11","allowed_operations":["risk_check"]}`:               "monthly_limit",
		`{"daily_limit":"1","monthly_limit":"10"}`:                                                   "allowed_operations",
		`{"daily_limit":"1","monthly_limit":"10","allowed_operations":["full_eval"]}`:                "allowed_operations",
		`{"daily_limit":"0.5","monthly_limit":"9","allowed_operations":["basic_eval","risk_check"]}`: "allowed_operations",
	} {
		status, m := e.do("PUT", "/v1/agents/limits", key(k), body)
		assert.Equal(t, http.StatusForbidden, status, body)
		assert.Contains(t, m["detail"], field+": an agent can only tighten its own limits", body)
	}
	status, m = e.do("PUT", "/v1/agents/limits", key(k), `{"daily_limit":"0.5","monthly_limit":"9","allowed_operations":["risk_check"]}`)
	require.Equal(t, http.StatusOK, status, "tightening is allowed: %v", m)
	status, m = e.do("GET", "/v1/agents/limits", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.50", m["daily_limit"], "refused changes wrote nothing; the tightening did")

	status, _ = e.do("PUT", "/v1/admin/agents/"+id+"/limits", nil, `{}`)
	assert.Equal(t, http.StatusUnauthorized, status, "loosening needs the admin key")
	status, m = e.do("PUT", "/v1/admin/agents/"+id+"/limits", map[string]string{"X-Admin-Key": adminKey}, `{}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Nil(t, m["daily_limit"])
	status, _ = e.do("PUT", "/v1/admin/agents/agt_nobody/limits", map[string]string{"X-Admin-Key": adminKey}, `{}`)
	assert.Equal(t, http.StatusNotFound, status)
}

// Regression (robustness finding 5): an agent registered with another
// agent's key inherits at least that agent's restrictions: authorized
// actions and instruments, percent caps and spend limits.
func TestSiblingsInheritRestrictions(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("POST", "/v1/agents/register", nil, `{"owner_id":"fund","agent_name":"a","agent_type":"risk",`+
		`"authorized_actions":["demo_free"],"authorized_instruments":["AAPL","MSFT"],"max_position_size_pct":"5"}`)
	require.Equal(t, http.StatusCreated, status, m)
	parent := m["api_key"].(string)
	status, m = e.do("PUT", "/v1/agents/limits", key(parent), `{"daily_limit":"0.01"}`)
	require.Equal(t, http.StatusOK, status, m)

	for body, field := range map[string]string{
		`{"owner_id":"fund","agent_name":"b","agent_type":"risk","authorized_actions":["demo_double"]}`: "authorized_actions",
		`{"owner_id":"fund","agent_name":"b","agent_type":"risk","authorized_instruments":["TSLA"]}`:    "authorized_instruments",
		`{"owner_id":"fund","agent_name":"b","agent_type":"risk","max_position_size_pct":"10"}`:         "max_position_size_pct",
	} {
		status, m := e.do("POST", "/v1/agents/register", key(parent), body)
		assert.Equal(t, http.StatusForbidden, status, body)
		assert.Contains(t, m["detail"], field+": an agent registered with another agent's key cannot be less restricted", body)
	}
	status, m = e.do("POST", "/v1/agents/register", key(parent), `{"owner_id":"fund","agent_name":"b","agent_type":"risk"}`)
	require.Equal(t, http.StatusCreated, status, m)
	child := m["api_key"].(string)
	status, m = e.do("GET", "/v1/agents/me", key(child), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []any{"demo_free"}, m["authorized_actions"])
	assert.Equal(t, []any{"AAPL", "MSFT"}, m["authorized_instruments"])
	assert.Equal(t, "5", m["max_position_size_pct"])
	status, m = e.do("GET", "/v1/agents/limits", key(child), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.01", m["daily_limit"], "the spend caps are inherited too")
	status, _ = e.do("POST", "/v1/tools/call", key(child), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusForbidden, status, "the sibling cannot call what its registrar cannot")

	status, m = e.do("POST", "/v1/agents/register", key(parent), `{"owner_id":"fund","agent_name":"c","agent_type":"risk","authorized_instruments":["AAPL"]}`)
	require.Equal(t, http.StatusCreated, status, "narrowing is allowed: %v", m)
}

func TestAuthorizedActionsRestrictTools(t *testing.T) {
	e := newEnv(t)
	status, m := e.do("POST", "/v1/agents/register", nil,
		`{"owner_id":"o","agent_name":"a","agent_type":"risk","authorized_actions":["demo_free"]}`)
	require.Equal(t, http.StatusCreated, status)
	k := m["api_key"].(string)
	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusOK, status)
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, m["detail"], "authorized_actions")
}

func TestSandboxSelfCreditPolicy(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.billing.SandboxCreditCap = toolkit.MustParseAmount("5") })
	_, k := e.register("acme")
	e.fund(k, "5")
	status, m := e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"0.01","funding_path":"x402"}`)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Contains(t, m["detail"], "capped at $5.00")

	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status)
	status, m = e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"1","funding_path":"direct_transfer"}`)
	assert.Equal(t, http.StatusBadRequest, status, "live agents never self-credit")
	assert.Contains(t, m["detail"], "on_chain_tx_hash: required")
	assert.Contains(t, m["detail"], "test funds are for sandbox mode only")
	status, m = e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"1","funding_path":"direct_transfer","on_chain_tx_hash":"5Vf"}`)
	assert.Equal(t, http.StatusServiceUnavailable, status, "no Solana RPC endpoint: 503 naming the missing setup")
	assert.Contains(t, m["detail"], "no Solana RPC endpoint configured")

	off := newEnv(t, func(c *envConfig) { c.billing.SandboxSelfCredit = false })
	_, k2 := off.register("acme")
	status, _ = off.do("POST", "/v1/billing/deposit", key(k2), `{"amount":"1","funding_path":"direct_transfer"}`)
	assert.Equal(t, http.StatusBadRequest, status, "library default: no self-credit")
}
