package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walletAgent signs in solanarpctest's agent wallet, which sends the
// deposit fixtures, and returns the new agent's id and key.
func (e *env) walletAgent() (string, string) {
	e.t.Helper()
	status, m := e.signIn(depositWallet())
	require.Equal(e.t, http.StatusCreated, status, m)
	return m["agent_id"].(string), m["api_key"].(string)
}

// deposit posts fixture's signature to the deposit endpoint path.
func (e *env) deposit(k, path, fixture string) (int, map[string]any) {
	e.t.Helper()
	return e.do("POST", path, key(k), `{"tx_signature":"`+solanarpctest.MustFixture(e.t, fixture).Signature+`"}`)
}

func TestChainDepositsCredit(t *testing.T) {
	e := newEnv(t, withChain)
	id, k := e.walletAgent()
	tests := []struct {
		path, fixture string
		want          map[string]any
	}{
		{"/v1/billing/deposit-usdc", "usdc_v0_lookup_table",
			map[string]any{"currency": "USDC", "amount": "25.00", "compute_credits": "25.00", "real_balance": "25.00"}},
		{"/v1/billing/deposit-usdc", "usdc_legacy_creates_treasury_account",
			map[string]any{"currency": "USDC", "amount": "10.00", "compute_credits": "10.00", "real_balance": "35.00"}},
		{"/v1/billing/deposit-usdc", "usdc_two_transfers", map[string]any{"amount": "10.00", "real_balance": "45.00"}},
		{"/v1/billing/deposit-usdc", "usdc_inner_instruction", map[string]any{"amount": "4.00", "real_balance": "49.00"}},
		{"/v1/billing/deposit-usdt", "usdt_to_treasury", map[string]any{"currency": "USDT", "amount": "9.00", "real_balance": "58.00"}},
		{"/v1/billing/deposit-pyusd", "pyusd_token2022", map[string]any{"currency": "PYUSD", "amount": "12.50", "real_balance": "70.50"}},
		{"/v1/billing/deposit-sol", "sol_legacy", map[string]any{"currency": "SOL", "amount": "1.500000000",
			"sol_price_usd": "140.25", "compute_credits": "210.375", "real_balance": "280.875"}},
		{"/v1/billing/deposit-sol", "sol_v0_treasury_in_lookup_table", map[string]any{"amount": "0.250000000",
			"compute_credits": "35.0625", "real_balance": "315.9375"}},
		{"/v1/billing/deposit-osr", "osr_native_token", map[string]any{"currency": "OSR", "osr_amount": "10000",
			"usd_credited": "50.00", "rate_per_token": "0.005", "is_presale_buyer": false, "real_balance": "365.9375"}},
	}
	for _, tt := range tests {
		status, m := e.deposit(k, tt.path, tt.fixture)
		require.Equal(t, http.StatusOK, status, "%s %s: %v", tt.path, tt.fixture, m)
		assert.Equal(t, id, m["agent_id"])
		assert.Equal(t, solanarpctest.MustFixture(t, tt.fixture).Signature, m["tx_signature"])
		for field, want := range tt.want {
			assert.Equal(t, want, m[field], "%s %s", tt.fixture, field)
		}
		assert.Equal(t, map[string]any{"balance_after": "0.00", "sandbox_balance": "0.00", "pays_from": "test"},
			pick(m, "balance_after", "sandbox_balance", "pays_from"), "a sandbox agent's calls are paid from its test money")
	}
	status, b := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "365.9375", b["real_balance"], "verified deposits are real money")
	assert.Equal(t, "0.00", b["sandbox_balance"])
	assert.Equal(t, "0.00", b["balance"], "in sandbox mode calls are paid from test money")

	status, txs := e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status)
	rows := txs["transactions"].([]any)
	require.Len(t, rows, len(tests))
	osr, sol := rows[0].(map[string]any), rows[2].(map[string]any)
	assert.Equal(t, map[string]any{"funds": "real", "currency": "OSR", "quantity": "10000.000000000", "price_usd": "0.005", "amount": "50.00"},
		pick(osr, "funds", "currency", "quantity", "price_usd", "amount"))
	assert.Equal(t, map[string]any{"funds": "real", "currency": "SOL", "quantity": "1.500000000", "price_usd": "140.25", "amount": "210.375"},
		pick(sol, "funds", "currency", "quantity", "price_usd", "amount"), "the SOL price is recorded on the ledger row")

	for _, tt := range tests {
		status, m := e.deposit(k, tt.path, tt.fixture)
		assert.Equal(t, http.StatusConflict, status, "%s replayed", tt.fixture)
		assert.Contains(t, m["detail"], "already credited")
	}
	status, m := e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"25","funding_path":"x402","on_chain_tx_hash":"`+
		solanarpctest.MustFixture(t, "usdc_v0_lookup_table").Signature+`"}`)
	assert.Equal(t, http.StatusConflict, status, "one replay index for every deposit endpoint: %v", m)
	assert.Equal(t, "365.9375", e.balance(liveKey(t, e, k)))
}

// liveKey switches the agent of k to live mode and returns k.
func liveKey(t *testing.T, e *env, k string) string {
	t.Helper()
	status, m := e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status, m)
	return k
}

func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

func TestChainDepositsRefuse(t *testing.T) {
	e := newEnv(t, withChain)
	_, k := e.walletAgent()
	tests := []struct {
		path, fixture string
		status        int
		detail        string
	}{
		{"/v1/billing/deposit-usdc", "usdt_to_treasury", 400, "tx_signature: the transfer's mint is Es9vMFrzaCERmKcoYhgNPJ9rg9fNimJik6Xvxp7UYA8e, expected the USDC mint"},
		{"/v1/billing/deposit-usdc", "usdc_wrong_destination", 400, "not to the treasury's token account"},
		{"/v1/billing/deposit-usdc", "usdc_failed_on_chain", 400, "the transaction failed on chain"},
		{"/v1/billing/deposit-usdc", "usdc_zero_amount", 400, "moves no USDC into the treasury"},
		{"/v1/billing/deposit-usdc", "usdc_out_of_treasury", 400, "USDC moves out of the treasury"},
		{"/v1/billing/deposit-usdc", "usdc_foreign_sender", 400, "which is not a wallet registered or linked to agent"},
		{"/v1/billing/deposit-usdc", "usdc_memo_for_another_agent", 400, "which is not a wallet registered or linked to agent"},
		{"/v1/billing/deposit-usdc", "sol_legacy", 400, "sends native SOL, not USDC"},
		{"/v1/billing/deposit-pyusd", "sol_legacy", 400, "sends native SOL, not PYUSD"},
		{"/v1/billing/deposit-sol", "usdc_v0_lookup_table", 400, "not native SOL"},
		{"/v1/billing/deposit-native", "usdc_v0_lookup_table", 400, "expected the OSR mint"},
		{"/v1/billing/deposit-usdt", "pyusd_token2022", 400, "expected the USDT mint"},
		{"/v1/billing/deposit-usdc", "usdc_wrong_decimals", 500, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.fixture, func(t *testing.T) {
			status, m := e.deposit(k, tt.path, tt.fixture)
			assert.Equal(t, tt.status, status, m)
			assert.Contains(t, m["detail"], tt.detail)
		})
	}
	for body, detail := range map[string]string{
		`{"tx_signature":"5xYz..."}`:                         "tx_signature: must be a base58 transaction signature of 64 bytes",
		`{"tx_signature":""}`:                                "tx_signature",
		`{"tx_signature":"` + strings.Repeat("1", 89) + `"}`: "tx_signature",
		`{"signature":"abc"}`:                                "Unknown field: signature",
		`{}`:                                                 "tx_signature",
	} {
		status, m := e.do("POST", "/v1/billing/deposit-usdc", key(k), body)
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, m["detail"], detail, body)
	}
	status, m := e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"30","funding_path":"direct_transfer","on_chain_tx_hash":"`+
		solanarpctest.MustFixture(t, "usdc_v0_lookup_table").Signature+`"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "amount: the transaction pays 25.00 USDC, less than the 30 claimed; nothing was credited", m["detail"])
	status, m = e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"1","funding_path":"direct_transfer","on_chain_tx_hash":"`+
		solanarpctest.MustFixture(t, "usdc_wrong_destination").Signature+`"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.True(t, strings.HasPrefix(m["detail"].(string), "on_chain_tx_hash: the USDC transfer goes to"), "the generic deposit names its own field: %v", m)

	status, b := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.00", b["balance"], "no refused deposit credited anything")
	status, txs := e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 0, txs["count"])
}

// TestChainDepositsUnavailable: a deposit that cannot be verified now is a
// 503 with Retry-After that records nothing, so the same signature
// credits once the cause is gone.
func TestChainDepositsUnavailable(t *testing.T) {
	e := newEnv(t, withChain)
	_, k := e.walletAgent()
	unknown := unknownSignature(2)
	status, m := e.do("POST", "/v1/billing/deposit-usdc", key(k), `{"tx_signature":"`+unknown+`"}`)
	assert.Equal(t, http.StatusServiceUnavailable, status, m)
	assert.Contains(t, m["detail"], "not found or not finalized yet")

	e.node.Fail(502)
	status, m = e.deposit(k, "/v1/billing/deposit-usdc", "usdc_two_transfers")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Contains(t, m["detail"], "could not be reached")
	e.node.Fail(0)
	e.oracle.set("140.25", &toolkit.Error{Kind: toolkit.Unavailable, Msg: "the SOL price is stale; retry later"})
	status, m = e.deposit(k, "/v1/billing/deposit-sol", "sol_legacy")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "the SOL price is stale; retry later", m["detail"])
	assert.Equal(t, "0.00", e.balance(liveKey(t, e, k)), "nothing was recorded")

	status, m = e.deposit(k, "/v1/billing/deposit-usdc", "usdc_two_transfers")
	require.Equal(t, http.StatusOK, status, "the signature was not consumed: %v", m)
	e.oracle.set("140.123456789", nil)
	status, m = e.deposit(k, "/v1/billing/deposit-sol", "sol_legacy")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "210.185185", m["compute_credits"], "1.5 × 140.123456789 = 210.1851851835, rounded down to the micro")
	assert.Equal(t, "140.123456789", m["sol_price_usd"])
}

// TestDevnetNodeOnMainnetServer: a server configured for mainnet refuses
// to read deposits from a node of another network.
func TestDevnetNodeOnMainnetServer(t *testing.T) {
	e := newEnv(t, withChain)
	e.node.SetGenesis(solanarpctest.DevnetGenesis)
	_, k := e.walletAgent()
	status, m := e.deposit(k, "/v1/billing/deposit-usdc", "usdc_v0_lookup_table")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Contains(t, m["detail"], "not on mainnet")
	assert.Empty(t, e.node.Calls("getTransaction"), "nothing is read from the wrong network")
}

func TestRetryAfterOnUnfinalizedDeposit(t *testing.T) {
	e := newEnv(t, withChain)
	_, k := e.walletAgent()
	req, err := http.NewRequest("POST", e.srv.URL+"/v1/billing/deposit-usdc", strings.NewReader(`{"tx_signature":"`+unknownSignature(3)+`"}`))
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	assert.Equal(t, "30", res.Header.Get("Retry-After"))
}

// TestChainDepositsWithoutRPC: with no Solana node configured every
// on-chain endpoint is a 503 naming the missing setup, never a success.
func TestChainDepositsWithoutRPC(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	for _, p := range []string{"usdc", "usdt", "pyusd", "sol", "native", "osr"} {
		status, m := e.do("POST", "/v1/billing/deposit-"+p, key(k), `{"tx_signature":"`+unknownSignature(4)+`"}`)
		assert.Equal(t, http.StatusServiceUnavailable, status, p)
		assert.Contains(t, m["detail"], "no Solana RPC endpoint configured", p)
	}
}

// TestNativeDepositAtThePresaleRate: a linked presale buyer is credited
// 0.004 USD per native token.
func TestNativeDepositAtThePresaleRate(t *testing.T) {
	e := newEnv(t, withChain)
	id, k := e.register("acme")
	w := depositWallet()
	e.markPresaleBuyer(w)
	status, m := e.link(k, id, w)
	require.Equal(t, http.StatusOK, status, m)
	require.Equal(t, true, m["is_presale_buyer"])
	status, m = e.deposit(k, "/v1/billing/deposit-native", "osr_native_token")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, map[string]any{"osr_amount": "10000", "usd_credited": "40.00", "rate_per_token": "0.004", "is_presale_buyer": true},
		pick(m, "osr_amount", "usd_credited", "rate_per_token", "is_presale_buyer"))
}

// TestDepositBoundByMemo: a transfer from a foreign wallet is credited to
// the agent its memo names, and to no other.
func TestDepositBoundByMemo(t *testing.T) {
	// The first agent of this env gets the memo fixtures' agent id.
	id := []byte(strings.TrimPrefix(solanarpctest.AgentID, "agt_"))
	random := make([]byte, len(id)) // the bytes toolkit.NewID reads for it
	for i, c := range id {
		random[i] = byte(strings.IndexByte(toolkit.IDAlphabet, c))
	}
	e := newEnv(t, withChain, func(c *envConfig) { c.agents.Random = io.MultiReader(bytes.NewReader(random), rand.Reader) })
	got, k := e.register("memo")
	require.Equal(t, solanarpctest.AgentID, got)
	_, other := e.register("other")

	status, m := e.deposit(other, "/v1/billing/deposit-usdc", "usdc_memo_foreign_sender")
	assert.Equal(t, http.StatusBadRequest, status, "the memo names another agent")
	assert.Contains(t, m["detail"], "not a wallet registered or linked")
	for fixture, want := range map[string]string{"usdc_memo_foreign_sender": "20.00", "usdc_memo_v1_foreign_sender": "2.00"} {
		status, m = e.deposit(k, "/v1/billing/deposit-usdc", fixture)
		require.Equal(t, http.StatusOK, status, m)
		assert.Equal(t, want, m["compute_credits"], fixture)
	}
}

// TestConcurrentSubmissionsCreditOnce: one signature submitted 50 times
// at once across every deposit endpoint credits exactly once.
func TestConcurrentSubmissionsCreditOnce(t *testing.T) {
	e := newEnv(t, withChain)
	_, k := e.walletAgent()
	sig := solanarpctest.MustFixture(t, "usdc_v0_lookup_table").Signature
	paths := []string{"deposit-usdc", "deposit-usdt", "deposit-pyusd", "deposit-sol", "deposit-native", "deposit-osr", "deposit"}
	statuses := make([]int, 50)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"tx_signature":"` + sig + `"}`
			if paths[i%len(paths)] == "deposit" {
				body = `{"amount":"25","funding_path":"direct_transfer","on_chain_tx_hash":"` + sig + `"}`
			}
			req, _ := http.NewRequest("POST", e.srv.URL+"/v1/billing/"+paths[i%len(paths)], strings.NewReader(body))
			req.Header.Set("X-API-Key", k)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			res.Body.Close()
			statuses[i] = res.StatusCode
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	assert.Equal(t, 1, count[http.StatusOK], "exactly one credit: %v", count)
	assert.Equal(t, 50, count[http.StatusOK]+count[http.StatusConflict]+count[http.StatusBadRequest], "%v", count)
	status, txs := e.do("GET", "/v1/billing/transactions", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 1, txs["count"])
	assert.Equal(t, "25.00", e.balance(liveKey(t, e, k)))
}

// unknownSignature is a well-formed transaction signature the node does
// not know (as if the transaction were not finalized yet).
func unknownSignature(b byte) string { return base58.Encode(bytes.Repeat([]byte{b}, 64)) }
