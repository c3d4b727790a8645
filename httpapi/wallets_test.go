package httpapi_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walletsig is agents/testdata/walletsig/walletsig.json: wallet
// signatures made by tweetnacl (an independent Ed25519 implementation).
type walletsig struct {
	Timestamp int64 `json:"timestamp"`
	Keys      []struct {
		SeedHex       string `json:"seed_hex"`
		WalletAddress string `json:"wallet_address"`
	} `json:"keys"`
	Messages map[string]string `json:"messages"`
	Cases    []struct {
		Message   string `json:"message"`
		Signature string `json:"signature"`
		Encoding  string `json:"encoding"`
		Verifies  bool   `json:"verifies"`
	} `json:"cases"`
}

func loadWalletsig(t *testing.T) walletsig {
	t.Helper()
	b, err := os.ReadFile("../agents/testdata/walletsig/walletsig.json")
	require.NoError(t, err)
	var w walletsig
	require.NoError(t, json.Unmarshal(b, &w))
	return w
}

// signature returns the fixture's signature of message in encoding.
func (w walletsig) signature(t *testing.T, message, encoding string) string {
	t.Helper()
	for _, c := range w.Cases {
		if c.Verifies && c.Message == message && c.Encoding == encoding {
			return c.Signature
		}
	}
	t.Fatalf("no %s signature of %q", encoding, message)
	return ""
}

// key returns fixture key i as an Ed25519 private key.
func (w walletsig) key(t *testing.T, i int) ed25519.PrivateKey {
	t.Helper()
	seed, err := hex.DecodeString(w.Keys[i].SeedHex)
	require.NoError(t, err)
	return ed25519.NewKeyFromSeed(seed)
}

// wallet is a test wallet: its key and base58 address.
type wallet struct {
	key     ed25519.PrivateKey
	address string
}

func newWallet(key ed25519.PrivateKey) wallet {
	return wallet{key: key, address: base58.Encode(key.Public().(ed25519.PublicKey))}
}

// depositWallet is solanarpctest's agent wallet, which sends the deposit
// fixtures.
func depositWallet() wallet { return newWallet(ed25519.PrivateKey(solanarpctest.AgentWallet)) }

func (w wallet) sign(message string) string {
	return base58.Encode(ed25519.Sign(w.key, []byte(message)))
}

// signIn registers (or signs in) w with a challenge at the env's time and
// returns the answer.
func (e *env) signIn(w wallet) (int, map[string]any) {
	e.t.Helper()
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, e.clock.Now().Unix())
	return e.do("POST", "/v1/agents/register-wallet", nil,
		fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"chain":"solana"}`, w.address, w.sign(msg), msg))
}

// link links w to the agent of k with a message at the env's time.
func (e *env) link(k, agentID string, w wallet) (int, map[string]any) {
	e.t.Helper()
	msg := fmt.Sprintf("aft-link:%s:%s:%d", agentID, w.address, e.clock.Now().Unix())
	return e.do("POST", "/v1/agents/link-wallet", key(k),
		fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`, w.address, w.sign(msg), msg))
}

// TestRegisterWalletWithTweetnaclSignatures: the first sign-in creates a
// sandbox agent with zero balances, a replayed challenge (in any encoding)
// mints no key, and a fresh challenge rotates the key.
func TestRegisterWalletWithTweetnaclSignatures(t *testing.T) {
	e := newEnv(t)
	f := loadWalletsig(t)
	e.clock.Set(time.Unix(f.Timestamp, 0).Add(90 * time.Second))
	addr, msg := f.Keys[0].WalletAddress, f.Messages["auth"]
	body := func(sig string) string {
		return fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"chain":"solana"}`, addr, sig, msg)
	}

	status, m := e.do("POST", "/v1/agents/register-wallet", nil, body(f.signature(t, msg, "base58")))
	require.Equal(t, http.StatusCreated, status, m)
	assert.Equal(t, true, m["created"])
	assert.Equal(t, "sandbox", m["mode"])
	assert.Equal(t, "0.00", m["balance"])
	assert.Equal(t, "0.00", m["sandbox_balance"])
	assert.Equal(t, "wallet agent", m["agent_name"])
	assert.Equal(t, "trading", m["agent_type"])
	assert.Regexp(t, `^wallet:[0-9a-f]{32}$`, m["owner_id"])
	raw, _ := json.Marshal(m)
	for _, part := range []string{addr, addr[:8], addr[len(addr)-8:]} {
		assert.NotContains(t, string(raw), part, "the address appears nowhere but sealed")
	}
	firstKey, agentID := m["api_key"].(string), m["agent_id"].(string)
	status, me := e.do("GET", "/v1/agents/me", key(firstKey), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, agentID, me["agent_id"])

	for _, enc := range []string{"base58", "base64", "base64raw"} {
		status, m = e.do("POST", "/v1/agents/register-wallet", nil, body(f.signature(t, msg, enc)))
		assert.Equal(t, http.StatusConflict, status, enc)
		assert.Contains(t, m["detail"], "already used", enc)
		assert.NotContains(t, m, "api_key")
	}
	status, _ = e.do("GET", "/v1/agents/me", key(firstKey), "")
	assert.Equal(t, http.StatusOK, status, "a replay rotated nothing")

	e.clock.Set(time.Unix(f.Timestamp, 0).Add(2 * time.Minute))
	status, m = e.signIn(newWallet(f.key(t, 0)))
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, false, m["created"])
	assert.Equal(t, agentID, m["agent_id"], "the wallet's agent")
	status, _ = e.do("GET", "/v1/agents/me", key(firstKey), "")
	assert.Equal(t, http.StatusUnauthorized, status, "the old key stops working at once")
	status, _ = e.do("GET", "/v1/agents/me", key(m["api_key"].(string)), "")
	assert.Equal(t, http.StatusOK, status)
}

func TestRegisterWalletNamesTheAgent(t *testing.T) {
	e := newEnv(t)
	w := newWallet(ed25519.NewKeyFromSeed(make([]byte, 32)))
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, e.clock.Now().Unix())
	status, m := e.do("POST", "/v1/agents/register-wallet", nil,
		fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"timestamp":%d,"agent_name":"Desk","agent_type":"risk"}`,
			w.address, w.sign(msg), e.clock.Now().Unix()))
	require.Equal(t, http.StatusCreated, status, m)
	assert.Equal(t, "Desk", m["agent_name"])
	assert.Equal(t, "risk", m["agent_type"])
}

// TestRegisterWalletRefusesBadInput: every malformed request is a 400
// naming the field (413 when oversized), never a panic, and writes
// nothing: the wallet's next valid sign-in still creates its agent.
func TestRegisterWalletRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	w := newWallet(ed25519.NewKeyFromSeed([]byte(strings.Repeat("k", 32))))
	other := newWallet(ed25519.NewKeyFromSeed([]byte(strings.Repeat("o", 32))))
	now := e.clock.Now().Unix()
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, now)
	good := w.sign(msg)
	sig := ed25519.Sign(w.key, []byte(msg))
	// A fixed 63-byte value: the base58 text of sig[:63] changes with the
	// clock and is, one time in about 30, also raw base64 of 64 bytes,
	// which is tried and fails to verify instead.
	short := ed25519.Sign(w.key, []byte("a fixed message"))[:63]
	pub := w.key.Public().(ed25519.PublicKey)
	req := func(addr, signature, message string) string {
		return fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q}`, addr, signature, message)
	}
	tests := []struct {
		name, body string
		status     int
		detail     string
	}{
		{"key of 31 bytes", req(base58.Encode(pub[:31]), good, msg), 400, "wallet_address: must decode to 32 bytes"},
		{"key of 33 bytes", req(base58.Encode(append(pub, 1)), good, msg), 400, "wallet_address"},
		{"signature of 63 bytes", req(w.address, base58.Encode(short), msg), 400, "signature: must be a base58 (or base64) Ed25519 signature of 64 bytes"},
		{"signature of 65 bytes", req(w.address, base58.Encode(append(sig, 0)), msg), 400, "signature: must be"},
		{"signature not base58", req(w.address, "0OIl"+good[4:], msg), 400, "signature"},
		{"signature by another wallet", req(w.address, other.sign(msg), msg), 400, "signature: does not verify"},
		{"message of another wallet", req(w.address, good, fmt.Sprintf("aft-auth:%s:%d", other.address, now)), 400, "message"},
		{"stale challenge", req(w.address, w.sign(fmt.Sprintf("aft-auth:%s:%d", w.address, now-301)), fmt.Sprintf("aft-auth:%s:%d", w.address, now-301)), 400, "within 5 minutes"},
		{"future challenge", req(w.address, w.sign(fmt.Sprintf("aft-auth:%s:%d", w.address, now+301)), fmt.Sprintf("aft-auth:%s:%d", w.address, now+301)), 400, "within 5 minutes"},
		{"another service", req(w.address, w.sign("other-auth:"+w.address+":1"), "other-auth:"+w.address+":1"), 400, "message"},
		{"chain", fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"chain":"ethereum"}`, w.address, good, msg), 400, "chain"},
		{"agent type", fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"agent_type":"bot"}`, w.address, good, msg), 400, "agent_type"},
		{"unknown field", fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q,"walet":1}`, w.address, good, msg), 400, "walet"},
		{"no signature", fmt.Sprintf(`{"wallet_address":%q,"message":%q}`, w.address, msg), 400, "signature"},
		{"long address", req(strings.Repeat("1", 45), good, msg), 400, "wallet_address"},
		{"oversized body", req(w.address, good, strings.Repeat("a", 70_000)), 413, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, m := e.do("POST", "/v1/agents/register-wallet", nil, tt.body)
			assert.Equal(t, tt.status, status, m)
			assert.Contains(t, m["detail"], tt.detail)
		})
	}
	status, m := e.do("POST", "/v1/agents/register-wallet", nil, req(w.address, good, msg))
	require.Equal(t, http.StatusCreated, status, m)
	assert.Equal(t, true, m["created"], "nothing was written by the refused requests")
}

// TestWalletEndpointsWithoutVault: a server without a key vault cannot
// store wallet addresses encrypted, so it refuses (503), saying why.
func TestWalletEndpointsWithoutVault(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.noVault = true })
	w := depositWallet()
	status, m := e.signIn(w)
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Contains(t, m["detail"], "no key vault")
}
