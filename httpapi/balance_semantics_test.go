package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxDepositShowsInBalance (issue: a spec-only client concluded a
// sandbox deposit had failed): after a sandbox deposit of 5.25 the
// deposit answer, GET /v1/billing/balance and the ledger's balance_after
// all say 5.25, the money the agent's calls are now paid from; the real
// money stays apart at zero.
func TestSandboxDepositShowsInBalance(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("spec-client")
	want := map[string]any{"balance": "5.25", "real_balance": "0.00", "sandbox_balance": "5.25", "pays_from": "test", "is_low": false}
	status, dep := e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"5.25","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, dep)
	assert.Equal(t, want, pick(dep, "balance", "real_balance", "sandbox_balance", "pays_from", "is_low"))
	status, bal := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status, bal)
	assert.Equal(t, want, pick(bal, "balance", "real_balance", "sandbox_balance", "pays_from", "is_low"))
	status, txs := e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status, txs)
	rows := txs["transactions"].([]any)
	require.Len(t, rows, 1)
	assert.Equal(t, map[string]any{"type": "deposit", "amount": "5.25", "balance_after": "5.25", "funds": "test"},
		pick(rows[0].(map[string]any), "type", "amount", "balance_after", "funds"))

	status, _ = e.do("POST", "/v1/sizing/calculate", key(k), `{"equity":"100000","entry_price":"185.50","stop_price":"180","direction":"long"}`)
	require.Equal(t, http.StatusOK, status)
	status, bal = e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "5.247", bal["balance"], "the call was paid from it")

	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status)
	status, bal = e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"balance": "0.00", "real_balance": "0.00", "sandbox_balance": "5.247", "pays_from": "real", "is_low": true},
		pick(bal, "balance", "real_balance", "sandbox_balance", "pays_from", "is_low"), "live calls are paid from real money only; test money is never mixed in")
}
