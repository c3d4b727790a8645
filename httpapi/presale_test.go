package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/gagliardetto/solana-go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markPresaleBuyer makes the fake node hold w's presale purchase record.
func (e *env) markPresaleBuyer(w wallet) {
	record := solanarpctest.PresaleRecord(presaleProgram, solana.MustPublicKeyFromBase58(w.address), "presale")
	e.node.AddAccount(record.String(), solanarpctest.AccountValue(presaleProgram, []byte{1, 0, 0, 0, 0, 0, 0, 0}))
}

// TestPresalePriceOnEverySurface: once a presale wallet is linked, the
// agent pays 80 % of list over REST, tools/call and MCP alike.
func TestPresalePriceOnEverySurface(t *testing.T) {
	e := newEnv(t, withChain, withDefaultCatalog)
	id, k := e.register("acme")
	e.fund(k, "1")
	sizing := `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`
	call := func() string { // REST shortcut; returns what it charged
		req, err := http.NewRequest("POST", e.srv.URL+"/v1/sizing/calculate", stringsReader(sizing))
		require.NoError(t, err)
		req.Header.Set("X-API-Key", k)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
		return res.Header.Get("X-Charged")
	}
	assert.Equal(t, "0.003", call(), "list price before linking")
	cs, err := e.mcpConnect(t, "streamable", k) // a session opened before the link
	require.NoError(t, err)

	w := depositWallet()
	e.markPresaleBuyer(w)
	status, m := e.link(k, id, w)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, true, m["is_presale_buyer"])
	assert.Equal(t, w.address, m["solana_wallet_address"])
	assert.Contains(t, m["message"], "80 %")

	assert.Equal(t, "0.0024", call(), "REST shortcut")
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"calculate_position_size","arguments":`+sizing+`}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "0.9922", e.balance(k), "tools/call: 1 − 0.003 − 0.0024 − 0.0024")

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_position_size",
		Arguments: map[string]any{"equity": "100000", "entry_price": "185.50", "stop_price": "180.00", "direction": "long"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Equal(t, "0.9898", e.balance(k), "MCP, in a session opened before the link: 0.9922 − 0.0024")

	status, m = e.do("GET", "/v1/billing/usage", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"count": float64(4), "total_cost": "0.0102"}, m["operations"].(map[string]any)["position_sizing"])
}

func TestLinkWalletRules(t *testing.T) {
	e := newEnv(t, withChain)
	id, k := e.register("acme")
	w := depositWallet()

	status, m := e.link(k, id, w)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, false, m["is_presale_buyer"])
	assert.Contains(t, m["message"], "No presale purchase")

	msg := fmt.Sprintf("aft-link:%s:%s:%d", id, w.address, e.clock.Now().Unix())
	body := fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`, w.address, w.sign(msg), msg)
	status, m = e.do("POST", "/v1/agents/link-wallet", key(k), body)
	assert.Equal(t, http.StatusConflict, status, "the message was used by the first link")
	assert.Contains(t, m["detail"], "already used")

	// The node fails: the wallet links, without presale status, and says so.
	e.markPresaleBuyer(w)
	e.node.Fail(503)
	e.clock.Set(e.clock.Now().Add(time.Second))
	status, m = e.link(k, id, w)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, false, m["is_presale_buyer"])
	assert.Contains(t, m["message"], "could not be checked on chain")
	e.node.Fail(0)
	e.clock.Set(e.clock.Now().Add(time.Second))
	status, m = e.link(k, id, w)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, true, m["is_presale_buyer"], "linking again retries the check")

	other, ok := e.register("other")
	tests := []struct {
		name, body string
		status     int
		detail     string
	}{
		{"another agent's free-text message", fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`,
			w.address, w.sign("Link wallet to agent "+other), "Link wallet to agent "+other), 400, "message: must contain the calling agent's agent_id"},
		{"another agent's message", fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`,
			w.address, w.sign(fmt.Sprintf("aft-link:%s:%s:%d", other, w.address, e.clock.Now().Unix())),
			fmt.Sprintf("aft-link:%s:%s:%d", other, w.address, e.clock.Now().Unix())), 400, "message"},
		{"stale", fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`,
			w.address, w.sign(fmt.Sprintf("aft-link:%s:%s:%d", id, w.address, e.clock.Now().Unix()-600)),
			fmt.Sprintf("aft-link:%s:%s:%d", id, w.address, e.clock.Now().Unix()-600)), 400, "within 5 minutes"},
		{"missing message", fmt.Sprintf(`{"solana_wallet_address":%q,"signature":"x"}`, w.address), 400, "message"},
		{"short key", fmt.Sprintf(`{"solana_wallet_address":"abc","signature":%q,"message":"m"}`, w.sign("m")), 400, "solana_wallet_address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, m := e.do("POST", "/v1/agents/link-wallet", key(k), tt.body)
			assert.Equal(t, tt.status, status, m)
			assert.Contains(t, m["detail"], tt.detail)
		})
	}
	free := fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`, w.address, w.sign("Link wallet to agent "+id), "Link wallet to agent "+id)
	status, m = e.do("POST", "/v1/agents/link-wallet", key(k), free)
	require.Equal(t, http.StatusOK, status, "the published free-text form: %v", m)
	assert.Equal(t, true, m["is_presale_buyer"])
	status, m = e.do("POST", "/v1/agents/link-wallet", key(k), free)
	assert.Equal(t, http.StatusConflict, status, "its signature is accepted once: %v", m)
	status, _ = e.do("POST", "/v1/agents/link-wallet", nil, body)
	assert.Equal(t, http.StatusUnauthorized, status)
	status, m = e.do("GET", "/v1/agents/me", key(ok), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, other, m["agent_id"])
}

// TestLinkWalletWithoutRPC: with no Solana node configured a wallet still
// links, without presale status, and the answer names the missing setup.
func TestLinkWalletWithoutRPC(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	status, m := e.link(k, id, depositWallet())
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, false, m["is_presale_buyer"])
	assert.Contains(t, m["message"], "no Solana RPC endpoint configured")
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
