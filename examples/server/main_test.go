package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServerWalkThrough starts the reference server on :0 against a temp
// SQLite file and walks register -> me -> list -> mode, as the README does.
func TestServerWalkThrough(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "data", "keys.json")
	cfg, err := parseConfig([]string{"-db", filepath.Join(dir, "data", "toolkit.db"), "-keys", keys, "-metrics-addr", "off"}, func(string) string { return "" })
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ln, &out) }()
	base := "http://" + ln.Addr().String()

	call := func(method, path, key, body string) (int, map[string]any) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("X-API-Key", key)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&m))
		return res.StatusCode, m
	}
	waitReady(t, base)

	status, reg := call("POST", "/v1/agents/register", "", `{"owner_id":"acme","agent_name":"RiskBot","agent_type":"trading"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	key := reg["api_key"].(string)
	assert.Regexp(t, `^aft_agent_[A-Za-z0-9]{40}$`, key)
	assert.Equal(t, "sandbox", reg["mode"])

	status, me := call("GET", "/v1/agents/me", key, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, reg["agent_id"], me["agent_id"])

	status, list := call("GET", "/v1/agents/list", key, "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 1, list["count"])

	// The README's billing steps: sandbox test funds, a priced shortcut,
	// the same tool through /v1/tools/call, then the ledger and usage.
	status, bal := call("POST", "/v1/billing/deposit", key, `{"amount":"5.00","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, bal)
	assert.Equal(t, []any{"5.00", "5.00", "0.00"}, []any{bal["balance"], bal["sandbox_balance"], bal["real_balance"]}, "test money pays sandbox calls; never real money")
	sizing := `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`
	status, size := call("POST", "/v1/sizing/calculate", key, sizing)
	require.Equal(t, http.StatusOK, status, size)
	assert.EqualValues(t, 363, size["shares"])
	status, tool := call("POST", "/v1/tools/call", key, `{"tool_name":"calculate_position_size","arguments":`+sizing+`}`)
	require.Equal(t, http.StatusOK, status, tool)
	assert.Equal(t, "calculate_position_size", tool["tool_name"])
	status, txs := call("GET", "/v1/billing/transactions?limit=10", key, "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 3, txs["count"])
	status, usage := call("GET", "/v1/billing/usage", key, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"count": float64(2), "total_cost": "0.006"}, usage["operations"].(map[string]any)["position_sizing"])

	// The README's workspace steps, paid from the sandbox credits: 45
	// tools, a memory found again, a journal trade and its statistics, the
	// biases, the demo broker.
	status, tools := call("GET", "/v1/tools/list", "", "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 45, tools["tool_count"])
	status, m := call("POST", "/v1/tools/call", key, `{"tool_name":"store_memory","arguments":{"content":"Scale out a third at 2R","category":"rules"}}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = call("POST", "/v1/tools/call", key, `{"tool_name":"search_memory","arguments":{"query":"scale out"}}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 1, m["result"].(map[string]any)["count"])
	status, m = call("POST", "/v1/journal/record", key, `{"symbol":"AAPL","direction":"long","entry_price":"185.50",
		"exit_price":"192.00","stop_price":"180.00","quantity":"100","notes":"clean breakout"}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = call("GET", "/v1/journal/stats", key, "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "650.00", m["total_pnl"])
	status, m = call("POST", "/v1/tools/call", key, `{"tool_name":"get_trading_biases","arguments":{"trades":[{"r_multiple":1},{"r_multiple":-1}]}}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = call("POST", "/v1/broker/connect", key, `{"broker_type":"demo"}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = call("GET", "/v1/broker/account", key, "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "100000.00", m["equity"])

	status, mode := call("PUT", "/v1/agents/mode", key, `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "live", mode["mode"])
	status, refused := call("POST", "/v1/sizing/calculate", key, sizing)
	assert.Equal(t, http.StatusPaymentRequired, status, "test money never pays a live call")
	assert.Contains(t, refused["detail"], "test funds are spendable in sandbox mode only")
	status, refused = call("POST", "/v1/billing/deposit-usdc", key, `{"tx_signature":"5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"}`)
	assert.Equal(t, http.StatusServiceUnavailable, status, "no Solana RPC configured: 503, never a silent success")
	assert.Contains(t, refused["detail"], "no Solana RPC endpoint configured")

	// The README's support steps: a ticket, sealed at rest, read back.
	status, ticket := call("POST", "/v1/support/ticket", key,
		`{"subject":"Charged twice","description":"Two debits for one call","priority":"high","category":"billing"}`)
	require.Equal(t, http.StatusCreated, status, ticket)
	assert.Regexp(t, `^SR-[0-9]{6}$`, ticket["ticket_id"])
	status, got := call("GET", "/v1/support/ticket/"+ticket["ticket_id"].(string), key, "")
	require.Equal(t, http.StatusOK, status, got)
	assert.Equal(t, "Two debits for one call", got["description"])
	st, err := os.Stat(keys)
	require.NoError(t, err, "the development key file was created on first start")
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	status, pricing := call("GET", "/v1/billing/pricing", "", "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "USDC", pricing["currency"])

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err, "graceful shutdown")
	case <-time.After(20 * time.Second):
		t.Fatal("server did not shut down")
	}
	assert.Contains(t, out.String(), "generated admin key")
	assert.Contains(t, out.String(), "vault: created development key file "+keys)
	assert.Contains(t, out.String(), "solana: no RPC URL set (-solana-rpc-url)")
	assert.NotContains(t, out.String(), key, "API keys are never printed")
}

func waitReady(t *testing.T, base string) {
	t.Helper()
	waitReadyWith(t, http.DefaultClient, base)
}

// waitReadyWith waits until the server at base answers client.
func waitReadyWith(t *testing.T, client *http.Client, base string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if res, err := client.Get(base + "/v1/billing/pricing"); err == nil {
			res.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("server never became ready")
}

// Regression (robustness findings 7 and 9): a short admin key refuses to
// start; the base URL and allowed hosts come from flags or environment.
func TestParseConfigHostsAndAdminKey(t *testing.T) {
	noEnv := func(string) string { return "" }
	_, err := parseConfig(nil, func(k string) string { return map[string]string{"TOOLKIT_ADMIN_KEY": "a"}[k] })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at least 32 characters")
	_, err = parseConfig([]string{"-base-url", "toolkit.example.com"}, noEnv)
	assert.Error(t, err, "a base URL needs a scheme")
	_, err = parseConfig(nil, func(k string) string { return map[string]string{"TOOLKIT_IDEMPOTENCY_RETENTION": "forever"}[k] })
	assert.ErrorContains(t, err, "-idempotency-retention")
	cfg, err := parseConfig([]string{"-addr", "10.0.0.5:8080"}, noEnv)
	require.NoError(t, err)
	assert.Equal(t, []string{"localhost", "127.0.0.1", "::1", "10.0.0.5"}, cfg.allowedHosts)
	cfg, err = parseConfig(nil, func(k string) string {
		return map[string]string{"TOOLKIT_ALLOWED_HOSTS": "api.example.com, localhost", "TOOLKIT_BASE_URL": "https://api.example.com"}[k]
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"api.example.com", "localhost"}, cfg.allowedHosts)
	assert.Equal(t, "https://api.example.com", cfg.baseURL)
}

func TestParseConfigRejectsBadAmounts(t *testing.T) {
	_, err := parseConfig([]string{"-sandbox-credit-cap", "lots"}, func(string) string { return "" })
	assert.Error(t, err)
	cfg, err := parseConfig(nil, func(k string) string {
		return map[string]string{"TOOLKIT_DB": "postgres://u:secret@h/db", "TOOLKIT_SANDBOX_CREDIT": "false"}[k]
	})
	require.NoError(t, err)
	assert.False(t, cfg.platform.SandboxSelfCredit)
	assert.Equal(t, "postgres://u:xxxxx@h/db", redactDSN(cfg.adapters.DB))
}

// TestServerKEKProtectedKeys: with a KEK the key file is created only when
// asked, reopens with the same KEK and deployment name, and a wrong
// deployment name fails at start.
func TestServerKEKProtectedKeys(t *testing.T) {
	dir := t.TempDir()
	kek := filepath.Join(dir, "secrets", "kek.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(kek), 0o700))
	_, err := tinkkeys.CreateLocalKEK(kek)
	require.NoError(t, err)
	keys := filepath.Join(dir, "data", "keys.json")
	configure := func(extra ...string) config {
		args := append([]string{"-db", filepath.Join(dir, "data", "toolkit.db"), "-keys", keys, "-keys-kek-file", kek, "-metrics-addr", "off"}, extra...)
		cfg, err := parseConfig(args, func(string) string { return "" })
		require.NoError(t, err)
		return cfg
	}
	serve := func(cfg config) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		var out bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- run(ctx, cfg, ln, &out) }()
		waitReady(t, "http://"+ln.Addr().String())
		cancel()
		require.NoError(t, <-done)
		return out.String()
	}

	_, err = openKeys(configure("-keys-ad", "test/agentfin-keys").adapters)
	require.ErrorContains(t, err, "-keys-create", "a missing KEK-protected key file is not created silently")
	_, err = os.Stat(keys)
	require.ErrorIs(t, err, fs.ErrNotExist)

	out := serve(configure("-keys-ad", "test/agentfin-keys", "-keys-create"))
	assert.Contains(t, out, "vault: created key file "+keys+" encrypted under the KEK")
	raw, err := os.ReadFile(keys)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"protection": "kek"`)
	out = serve(configure("-keys-ad", "test/agentfin-keys"))
	assert.Contains(t, out, "vault: using key file", "reopens with the same KEK and deployment name")

	_, err = openKeys(configure("-keys-ad", "prod/agentfin-keys").adapters)
	assert.ErrorContains(t, err, "wrong KEK or associated data", "a wrong deployment name fails at start")
	other := filepath.Join(dir, "secrets", "other.json")
	_, err = tinkkeys.CreateLocalKEK(other)
	require.NoError(t, err)
	cfg := configure("-keys-ad", "test/agentfin-keys")
	cfg.adapters.KEKFile = other
	_, err = openKeys(cfg.adapters)
	assert.ErrorContains(t, err, "wrong KEK or associated data", "a wrong KEK fails at start")

	_, err = parseConfig([]string{"-keys-kek-file", kek}, func(string) string { return "" })
	assert.ErrorContains(t, err, "-keys-ad")
	_, err = parseConfig(nil, func(k string) string { return map[string]string{"TOOLKIT_KEYS_AD": "x"}[k] })
	assert.ErrorContains(t, err, "only with -keys-kek-file")
}

func TestParseConfigWorkspaceQuotas(t *testing.T) {
	noEnv := func(string) string { return "" }
	cfg, err := parseConfig(nil, noEnv)
	require.NoError(t, err)
	assert.EqualValues(t, 10_000, cfg.platform.MaxMemories)
	assert.EqualValues(t, 10<<20, cfg.platform.MaxMemoryBytes)
	assert.EqualValues(t, 100_000, cfg.platform.MaxTrades)
	cfg, err = parseConfig([]string{"-max-memories", "5"}, func(k string) string {
		return map[string]string{"TOOLKIT_MAX_JOURNAL_TRADES": "7"}[k]
	})
	require.NoError(t, err)
	assert.EqualValues(t, 5, cfg.platform.MaxMemories)
	assert.EqualValues(t, 7, cfg.platform.MaxTrades)
	for _, args := range [][]string{{"-max-memories", "0"}, {"-max-memory-bytes", "lots"}, {"-max-journal-trades", "-1"}} {
		_, err := parseConfig(args, noEnv)
		assert.ErrorContains(t, err, args[0]+": must be a positive integer", args)
	}
}
