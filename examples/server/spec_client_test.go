package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specClient is a client written from ../shared/spec/service-spec.md
// alone: it sends only the request fields the spec lists and checks only
// the answers it documents, over HTTPS. It knows nothing of this
// repository's packages or extensions.
type specClient struct {
	t    *testing.T
	base string
	http *http.Client
	key  string // X-API-Key
}

// call sends body (nil, or a value encoded as JSON) with the agent key
// unless headers say otherwise, and decodes the JSON answer.
func (c *specClient) call(method, path string, body any, headers map[string]string) (int, map[string]any) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(c.t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	require.NoError(c.t, err)
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("X-API-Key", c.key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	require.NoError(c.t, err)
	defer res.Body.Close()
	require.Equal(c.t, 2, res.ProtoMajor, "HTTP/2 over TLS")
	require.GreaterOrEqual(c.t, res.TLS.Version, uint16(tls.VersionTLS12), "spec: TLS 1.2 or higher")
	var m map[string]any
	require.NoError(c.t, json.NewDecoder(res.Body).Decode(&m), "%s %s", method, path)
	return res.StatusCode, m
}

// must calls and requires want.
func (c *specClient) must(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	status, m := c.call(method, path, body, nil)
	require.Equal(c.t, want, status, "%s %s: %v", method, path, m)
	return m
}

// decimal reads a decimal string of an answer exactly.
func decimal(t *testing.T, v any) *big.Rat {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "spec: numeric quantities are strings, got %#v", v)
	r, ok := new(big.Rat).SetString(s)
	require.True(t, ok, "a decimal string: %q", s)
	return r
}

// assertDecimal checks a decimal string answer equals want.
func assertDecimal(t *testing.T, want string, v any, msg string) {
	t.Helper()
	w, _ := new(big.Rat).SetString(want)
	assert.Equal(t, 0, decimal(t, v).Cmp(w), "%s: want %s, got %v", msg, want, v)
}

// hasFields checks an answer carries every documented field.
func hasFields(t *testing.T, m map[string]any, fields string, what string) {
	t.Helper()
	for _, f := range strings.Fields(fields) {
		assert.Contains(t, m, f, "%s: documented field %s", what, f)
	}
}

// TestSpecOnlyClientOverHTTPS is issue 24's "done when": a client built
// from the spec alone walks registration by wallet (the spec's three
// fields), link-wallet with the published free-text message, a sandbox
// deposit and the balance, every finance endpoint, every support and
// guardian endpoint, against the reference server started with
// -tls-cert/-tls-key (a self-signed CA made here).
func TestSpecOnlyClientOverHTTPS(t *testing.T) {
	ca := newTestCA(t, "spec client CA")
	s, _ := startTLSServer(t, ca)
	c := &specClient{t: t, base: s.base, http: httpsClient(ca, tls.VersionTLS12, 0)}

	specPublicEndpoints(t, c)
	agentID := specRegisterAndLink(t, c)
	specBalance(t, c, agentID)
	specFinance(t, c)
	specLedgerAndUsage(t, c, agentID)
	specSupport(t, c, agentID)
	specGuardian(t, c, agentID)

	c.key = "aft_agent_" + strings.Repeat("x", 40)
	status, _ := c.call("GET", "/v1/agents/me", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, status, "spec: 401 when the API key is invalid")
}

// specPublicEndpoints: pricing, platform status and the machine-readable
// documents, without a key.
func specPublicEndpoints(t *testing.T, c *specClient) {
	prices := c.must(200, "GET", "/v1/billing/pricing", nil)
	assert.Equal(t, "USDC", prices["currency"])
	table := prices["prices"].(map[string]any)
	for op, want := range map[string]string{"position_sizing": "0.003", "risk_check": "0.004", "basic_eval": "0.10",
		"full_eval": "0.50", "comprehensive_eval": "1.00", "pre_trade_gate": "0.01", "assess_trading_system": "2.00"} {
		assertDecimal(t, want, table[op], "price of "+op)
	}
	status := c.must(200, "GET", "/v1/guardian/status", nil)
	hasFields(t, status, "platform status uptime_seconds latency_ms version", "platform status")
	assert.Contains(t, []any{"operational", "degraded", "maintenance"}, status["status"])

	doc := c.must(200, "GET", "/v1/openapi.json", nil)
	assert.Equal(t, "3.1.0", doc["openapi"], "spec: specification version 3.1.0")
	assert.Equal(t, "1.0.0", doc["info"].(map[string]any)["version"], "spec: API version 1.0.0")
	c.must(200, "GET", "/.well-known/agent.json", nil)
	c.must(200, "GET", "/.well-known/mcp/server-card.json", nil)
	res, err := c.http.Get(c.base + "/llms.txt")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
}

// specRegisterAndLink signs a wallet in with wallet_address, signature and
// chain only, links a second wallet with "Link wallet to agent
// <agent_id>", and checks the agent endpoints. It returns the agent id.
func specRegisterAndLink(t *testing.T, c *specClient) string {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	wallet := base58.Encode(pub)
	challenge := fmt.Sprintf("aft-auth:%s:%d", wallet, time.Now().Unix()) // <service>-auth:{wallet_address}:{timestamp}
	reg := c.must(201, "POST", "/v1/agents/register-wallet", map[string]string{
		"wallet_address": wallet, "signature": base58.Encode(ed25519.Sign(priv, []byte(challenge))), "chain": "solana"})
	hasFields(t, reg, "agent_id api_key mode balance", "register-wallet")
	assert.Equal(t, "sandbox", reg["mode"])
	assertDecimal(t, "0", reg["balance"], "a new agent's balance")
	assert.Regexp(t, `agent_[A-Za-z0-9]{40}$`, reg["api_key"], "spec: a prefix ending in agent_ and 40 alphanumerics")
	c.key = reg["api_key"].(string)
	agentID := reg["agent_id"].(string)

	me := c.must(200, "GET", "/v1/agents/me", nil)
	hasFields(t, me, "agent_id owner_id agent_name agent_type mode is_active created_at description", "agent record")
	assert.Equal(t, agentID, me["agent_id"])
	list := c.must(200, "GET", "/v1/agents/list", nil)
	assert.EqualValues(t, 1, list["count"])
	mode := c.must(200, "PUT", "/v1/agents/mode", map[string]string{"mode": "sandbox"})
	assert.Equal(t, "sandbox", mode["mode"])

	linkPub, linkPriv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	message := "Link wallet to agent " + agentID
	link := c.must(200, "POST", "/v1/agents/link-wallet", map[string]string{"solana_wallet_address": base58.Encode(linkPub),
		"signature": base58.Encode(ed25519.Sign(linkPriv, []byte(message))), "message": message})
	hasFields(t, link, "agent_id solana_wallet_address is_presale_buyer message", "link-wallet")
	assert.Equal(t, agentID, link["agent_id"])
	assert.Equal(t, false, link["is_presale_buyer"])
	return agentID
}

// specBalance: a sandbox deposit of 5.25 shows in balance.
func specBalance(t *testing.T, c *specClient, agentID string) {
	dep := c.must(200, "POST", "/v1/billing/deposit", map[string]string{"amount": "5.25", "funding_path": "direct_transfer"})
	assertDecimal(t, "5.25", dep["balance"], "spec: the deposit answers the updated balance")
	bal := c.must(200, "GET", "/v1/billing/balance", nil)
	hasFields(t, bal, "agent_id balance is_low updated_at", "balance")
	assert.Equal(t, agentID, bal["agent_id"])
	assertDecimal(t, "5.25", bal["balance"], "balance after the sandbox deposit")
	assert.Equal(t, false, bal["is_low"])
}

// specFinance calls every compound and calculation endpoint with the
// spec's fields (the minimum of 2 R-multiples where the spec allows it).
func specFinance(t *testing.T, c *specClient) {
	sizing := c.must(200, "POST", "/v1/sizing/calculate", map[string]string{
		"equity": "100000", "entry_price": "185.50", "stop_price": "180.00", "direction": "long", "risk_percent": "0.01"})
	assert.NotEmpty(t, sizing, "position size result")
	risk := c.must(200, "POST", "/v1/risk/check", map[string]string{"symbol": "AAPL", "direction": "long",
		"entry_price": "185.50", "stop_price": "180.00", "quantity": "100", "equity": "100000", "daily_pnl": "0"})
	hasFields(t, risk, "errors warnings", "risk check")
	two := map[string]any{"r_multiples": []string{"1.5", "-1"}}
	c.must(200, "POST", "/v1/eval/basic", two)
	c.must(200, "POST", "/v1/eval/full", two)
	c.must(200, "POST", "/v1/eval/comprehensive", map[string]any{"r_multiples": []string{"1.5", "-1", "2", "-0.5"}, "window_size": 2})
	gate := c.must(200, "POST", "/v1/compound/pre-trade-gate", map[string]any{"symbol": "AAPL", "direction": "long",
		"entry_price": "185.50", "stop_price": "180.00", "equity": "100000", "daily_pnl": "0", "risk_percent": "0.02",
		"r_multiples": []string{"1.5", "-1", "2"}})
	assert.IsType(t, true, gate["gate_passed"])
	hasFields(t, gate["sizing"].(map[string]any), "shares risk_amount", "gate sizing")
	assess := c.must(200, "POST", "/v1/compound/assess-system", map[string]any{
		"r_multiples": []string{"1.5", "-1", "2", "-0.5", "0.8"}, "starting_equity": "100000"})
	assert.NotEmpty(t, assess["verdict"])
}

// specLedgerAndUsage: the ledger and usage agree with the prices, and the
// balance is what is left of the deposit.
func specLedgerAndUsage(t *testing.T, c *specClient, agentID string) {
	spent := "3.617" // 0.003 + 0.004 + 0.10 + 0.50 + 1.00 + 0.01 + 2.00
	bal := c.must(200, "GET", "/v1/billing/balance", nil)
	assertDecimal(t, "1.633", bal["balance"], "5.25 deposited, "+spent+" spent")
	txs := c.must(200, "GET", "/v1/billing/transactions?limit=100", nil)
	rows := txs["transactions"].([]any)
	assert.EqualValues(t, 8, txs["count"])
	require.Len(t, rows, 8)
	for _, raw := range rows {
		row := raw.(map[string]any)
		hasFields(t, row, "tx_id type amount balance_after created_at operation funding_path", "transaction")
		if row["type"] == "consumption" {
			assert.NotNil(t, row["operation"], "set for consumption")
			assert.Nil(t, row["funding_path"], "null for consumption")
		}
	}
	newest, oldest := rows[0].(map[string]any), rows[len(rows)-1].(map[string]any)
	assert.Equal(t, "deposit", oldest["type"])
	assert.Equal(t, "direct_transfer", oldest["funding_path"])
	assert.Nil(t, oldest["operation"], "null for deposit")
	assertDecimal(t, "5.25", oldest["balance_after"], "the deposit's balance_after")
	assertDecimal(t, "1.633", newest["balance_after"], "the last charge's balance_after")
	usage := c.must(200, "GET", "/v1/billing/usage", nil)
	assert.Equal(t, agentID, usage["agent_id"])
	total := new(big.Rat)
	for _, v := range usage["operations"].(map[string]any) {
		op := v.(map[string]any)
		assert.IsType(t, float64(0), op["count"], "count is an integer")
		total.Add(total, decimal(t, op["total_cost"]))
	}
	assertDecimal(t, total.FloatString(3), spent, "usage totals")
}

// specSupport files one of each submission and reads the ticket back.
func specSupport(t *testing.T, c *specClient, agentID string) {
	fb := c.must(201, "POST", "/v1/support/feedback", map[string]any{"rating": 5, "message": "Clear answers", "category": "tools"})
	hasFields(t, fb, "id type agent_id rating message category status created_at", "feedback")
	assert.Equal(t, "feedback", fb["type"])
	assert.Equal(t, "received", fb["status"])
	tk := c.must(201, "POST", "/v1/support/ticket", map[string]string{"subject": "Balance question",
		"description": "Where did my deposit go?", "priority": "low", "category": "billing"})
	hasFields(t, tk, "id ticket_id type agent_id subject description priority category status created_at updated_at", "ticket")
	assert.Equal(t, "open", tk["status"])
	assert.Equal(t, agentID, tk["agent_id"])
	sg := c.must(201, "POST", "/v1/support/suggestion", map[string]string{"title": "More indicators",
		"description": "Add Keltner channels", "use_case": "Volatility breakouts", "priority_for_agent": "nice_to_have"})
	assert.Equal(t, "suggestion", sg["type"])
	assert.Equal(t, "received", sg["status"])
	ent := c.must(201, "POST", "/v1/support/enterprise", map[string]any{"organization_name": "Acme Capital",
		"contact_email": "ops@acme.example", "description": "Fleet of agents", "requirements": []string{"SSO"},
		"timeline": "Q3", "budget_range": "10k-50k"})
	assert.Equal(t, "Acme Capital", ent["organization_name"], "the confirmation echoes the fields")
	status, _ := c.call("POST", "/v1/support/bug", map[string]string{"title": "Slow", "description": "Slow answers",
		"steps_to_reproduce": "Call it", "expected_behavior": "Fast", "actual_behavior": "Slow"}, nil)
	assert.Equal(t, 201, status)

	list := c.must(200, "GET", "/v1/support/tickets?status=open", nil)
	assert.EqualValues(t, 1, list["count"])
	assert.NotContains(t, list["tickets"].([]any)[0], "description", "lists omit description")
	got := c.must(200, "GET", "/v1/support/ticket/"+tk["ticket_id"].(string), nil)
	assert.Equal(t, "Where did my deposit go?", got["description"])
	status, _ = c.call("GET", "/v1/support/ticket/TKT-does-not-exist", nil, nil)
	assert.Equal(t, http.StatusNotFound, status, "spec: 404 when the ticket is not found")
}

// specGuardian files a report (no key) and reads events, alerts and
// metrics with the admin key.
func specGuardian(t *testing.T, c *specClient, agentID string) {
	key := c.key
	c.key = ""
	defer func() { c.key = key }()
	rep := c.must(200, "POST", "/v1/guardian/report", map[string]any{"agent_id": agentID, "report_type": "error",
		"description": "A tool timed out", "details": map[string]any{"tool": "run_monte_carlo"}})
	assert.NotEmpty(t, rep["event_id"])
	assert.Equal(t, "recorded", rep["status"])
	admin := map[string]string{"X-Admin-Key": testAdminKey}
	status, events := c.call("GET", "/v1/guardian/events?limit=10", nil, admin)
	require.Equal(t, 200, status, events)
	hasFields(t, events, "events count filters", "events")
	hasFields(t, events["filters"].(map[string]any), "category severity limit", "events filters")
	found := false
	for _, e := range events["events"].([]any) {
		ev := e.(map[string]any)
		hasFields(t, ev, "event_id type severity description agent_id timestamp", "security event")
		found = found || ev["event_id"] == rep["event_id"]
	}
	assert.True(t, found, "the report is listed")
	status, alerts := c.call("GET", "/v1/guardian/alerts?limit=50", nil, admin)
	require.Equal(t, 200, status, alerts)
	hasFields(t, alerts, "alerts count", "alerts")
	status, metrics := c.call("GET", "/v1/guardian/metrics", nil, admin)
	require.Equal(t, 200, status, metrics)
	hasFields(t, metrics, "uptime_seconds total_events error_rate latency_p50_ms latency_p95_ms latency_p99_ms active_agents total_tool_calls_24h", "metrics")
	status, _ = c.call("GET", "/v1/guardian/metrics", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, status, "admin endpoints need X-Admin-Key")
}
