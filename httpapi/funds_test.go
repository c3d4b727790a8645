package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestMoneyCannotPayLiveCalls is the walk-through: register,
// self-credit 100, go live, call assess-system. The call is refused (402
// naming the test funds) and nothing is charged; real money pays live
// calls; back in sandbox the test money pays again; no switch converts one
// into the other.
func TestTestMoneyCannotPayLiveCalls(t *testing.T) {
	e := newEnv(t, withChain, withDefaultCatalog)
	_, k := e.walletAgent()
	e.fund(k, "100")
	liveKey(t, e, k)

	status, m := e.do("POST", "/v1/compound/assess-system", key(k), rBody)
	assert.Equal(t, http.StatusPaymentRequired, status)
	assert.Equal(t, "Insufficient balance. Required: $2.00, Available: $0.00 (test funds are spendable in sandbox mode only)", m["detail"])
	status, b := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"balance": "0.00", "real_balance": "0.00", "sandbox_balance": "100.00", "pays_from": "real", "is_low": true},
		pick(b, "balance", "real_balance", "sandbox_balance", "pays_from", "is_low"))

	status, m = e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"5","funding_path":"direct_transfer"}`)
	assert.Equal(t, http.StatusBadRequest, status, "no self-credit in live mode")
	assert.Contains(t, m["detail"], "test funds are for sandbox mode only")

	status, m = e.deposit(k, "/v1/billing/deposit-usdc", "usdc_v0_lookup_table")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, map[string]any{"balance_after": "25.00", "real_balance": "25.00", "sandbox_balance": "100.00", "pays_from": "real"},
		pick(m, "balance_after", "real_balance", "sandbox_balance", "pays_from"), "a live agent pays from real money")
	status, _ = e.do("POST", "/v1/compound/assess-system", key(k), rBody)
	require.Equal(t, http.StatusOK, status)
	status, b = e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "23.00", b["balance"], "the live call was paid from real money")
	assert.Equal(t, "100.00", b["sandbox_balance"], "the test money was not touched")

	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"sandbox"}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = e.do("POST", "/v1/compound/assess-system", key(k), rBody)
	require.Equal(t, http.StatusOK, status)
	status, b = e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"balance": "98.00", "real_balance": "23.00", "sandbox_balance": "98.00", "pays_from": "test"},
		pick(b, "balance", "real_balance", "sandbox_balance", "pays_from"), "sandbox calls are paid from test money only")

	status, txs := e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status)
	var funds []any
	for _, row := range txs["transactions"].([]any) {
		funds = append(funds, row.(map[string]any)["funds"])
	}
	assert.Equal(t, []any{"test", "real", "real", "test"}, funds, "every ledger row says which money it moved")
}

// TestSandboxCallWithOnlyRealMoney: a sandbox agent pays from test funds
// only; the 402 says where its real money can be spent.
func TestSandboxCallWithOnlyRealMoney(t *testing.T) {
	e := newEnv(t, withChain)
	_, k := e.walletAgent()
	status, m := e.deposit(k, "/v1/billing/deposit-usdc", "usdc_inner_instruction")
	require.Equal(t, http.StatusOK, status, m)
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusPaymentRequired, status)
	assert.Contains(t, m["detail"], "Insufficient balance. Required: $0.003, Available: $0.00 in test funds")
	assert.Contains(t, m["detail"], "your $4.00 of real funds pay in live mode")
	assert.Zero(t, e.runs)
}
