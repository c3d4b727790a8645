package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeCoinGecko serves the simple-price API with a fresh SOL price.
func fakeCoinGecko(t *testing.T, price string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v3/simple/price" || r.URL.Query().Get("ids") != "solana" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"solana":{"usd":%s,"last_updated_at":%d}}`, price, time.Now().Unix())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestServerWalletsAndDeposits is the "done when": a fresh
// reference server signs a wallet agent in with a signed challenge, links
// a wallet, credits a USDC deposit verified against the fake node exactly
// once, prices SOL through the price API and refuses every reject case
// with its reason.
func TestServerWalletsAndDeposits(t *testing.T) {
	node := solanarpctest.NewNode(t, solanarpctest.Fixtures(t)...)
	presale := solanarpctest.Key("presale program").PublicKey()
	dir := t.TempDir()
	cfg, err := parseConfig([]string{"-db", filepath.Join(dir, "toolkit.db"), "-keys", filepath.Join(dir, "keys.json"),
		"-solana-rpc-url", node.URL() + "/?api-key=secret", "-treasury", solanarpctest.TreasuryKey.PublicKey().String(),
		"-presale-program", presale.String(), "-price-api-url", fakeCoinGecko(t, "140.25").URL, "-metrics-addr", "off"}, func(string) string { return "" })
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ln, &out) }()
	base := "http://" + ln.Addr().String()
	waitReady(t, base)
	call := func(path, key, body string) (int, map[string]any) {
		req, err := http.NewRequest("POST", base+path, strings.NewReader(body))
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

	wallet := ed25519.PrivateKey(solanarpctest.AgentWallet)
	address := base58.Encode(wallet.Public().(ed25519.PublicKey))
	challenge := fmt.Sprintf("aft-auth:%s:%d", address, time.Now().Unix())
	status, reg := call("/v1/agents/register-wallet", "", fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"chain":"solana"}`,
		address, base58.Encode(ed25519.Sign(wallet, []byte(challenge))), challenge))
	require.Equal(t, http.StatusCreated, status, reg)
	key, id := reg["api_key"].(string), reg["agent_id"].(string)
	assert.Equal(t, "0.00", reg["balance"])

	node.AddAccount(solanarpctest.PresaleRecord(presale, solanarpctest.AgentWallet.PublicKey(), "presale").String(),
		solanarpctest.AccountValue(presale, []byte{1}))
	link := fmt.Sprintf("aft-link:%s:%s:%d", id, address, time.Now().Unix())
	status, linked := call("/v1/agents/link-wallet", key, fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`,
		address, base58.Encode(ed25519.Sign(wallet, []byte(link))), link))
	require.Equal(t, http.StatusOK, status, linked)
	assert.Equal(t, true, linked["is_presale_buyer"])

	deposit := func(path, fixture string) (int, map[string]any) {
		return call("/v1/billing/"+path, key, `{"tx_signature":"`+solanarpctest.MustFixture(t, fixture).Signature+`"}`)
	}
	// 50 submissions of one USDC transfer at once, across every endpoint.
	statuses := make([]int, 50)
	paths := []string{"deposit-usdc", "deposit-usdt", "deposit-pyusd", "deposit-sol", "deposit-native", "deposit-osr"}
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = deposit(paths[i%len(paths)], "usdc_v0_lookup_table")
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	assert.Equal(t, 1, count[http.StatusOK], "one credit on SQLite: %v", count)
	status, m := deposit("deposit-usdc", "usdc_v0_lookup_table")
	assert.Equal(t, http.StatusConflict, status, "replay: %v", m)

	status, m = deposit("deposit-sol", "sol_legacy")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "140.25", m["sol_price_usd"], "through the price API")
	assert.Equal(t, "210.375", m["compute_credits"])
	status, m = deposit("deposit-osr", "osr_native_token")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "40.00", m["usd_credited"], "the presale rate")
	assert.Equal(t, "275.375", m["real_balance"], "real money")
	assert.Equal(t, "0.00", m["balance_after"], "the sandbox agent's calls are paid from its test money")

	for _, r := range []struct{ path, fixture, reason string }{
		{"deposit-usdc", "usdt_to_treasury", "expected the USDC mint"},
		{"deposit-usdc", "usdc_wrong_destination", "not to the treasury's token account"},
		{"deposit-usdc", "usdc_failed_on_chain", "failed on chain"},
		{"deposit-usdc", "usdc_zero_amount", "moves no USDC"},
		{"deposit-usdc", "usdc_out_of_treasury", "moves out of the treasury"},
		{"deposit-usdc", "usdc_foreign_sender", "not a wallet registered or linked"},
		{"deposit-pyusd", "sol_legacy", "sends native SOL, not PYUSD"},
	} {
		status, m := deposit(r.path, r.fixture)
		assert.Equal(t, http.StatusBadRequest, status, r.fixture)
		assert.Contains(t, m["detail"], r.reason, r.fixture)
	}

	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, out.String(), "solana: deposits to treasury "+solanarpctest.TreasuryKey.PublicKey().String()+" verified on mainnet through http://127.0.0.1")
	assert.NotContains(t, out.String(), "secret", "the RPC URL's key is never printed")
}

func TestParseConfigSolana(t *testing.T) {
	noEnv := func(string) string { return "" }
	_, err := parseConfig([]string{"-solana-rpc-url", "http://127.0.0.1:8899"}, noEnv)
	assert.ErrorContains(t, err, "-treasury (TOOLKIT_TREASURY) is required")
	_, err = parseConfig([]string{"-native-rate", "0"}, noEnv)
	assert.ErrorContains(t, err, "-native-rate")
	_, err = parseConfig([]string{"-native-decimals", "31"}, noEnv)
	assert.ErrorContains(t, err, "-native-decimals")
	_, err = parseConfig([]string{"-solana-rpc-url", "ftp://x", "-treasury", "x"}, noEnv)
	assert.ErrorContains(t, err, "-solana-rpc-url")
	cfg, err := parseConfig(nil, func(k string) string {
		return map[string]string{"TOOLKIT_SOLANA_RPC_URL": "https://api.devnet.solana.com", "TOOLKIT_SOLANA_NETWORK": "devnet",
			"TOOLKIT_TREASURY": "T", "TOOLKIT_USDC_MINT": "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", "TOOLKIT_PRICE_API_KEY": "k",
			"TOOLKIT_NATIVE_TOKEN": "ABC", "TOOLKIT_NATIVE_RATE": "0.01"}[k]
	})
	require.NoError(t, err)
	s := cfg.adapters.Solana
	assert.Equal(t, "devnet", s.Network)
	assert.Equal(t, "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", s.USDCMint)
	assert.Equal(t, "k", s.PriceAPIKey)
	assert.Equal(t, "ABC", s.NativeToken)
	assert.Equal(t, "0.01", s.NativeRate.String())
	assert.Equal(t, "0.004", s.NativePresaleRate.String())
}
