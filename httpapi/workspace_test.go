package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// call runs a tool through POST /v1/tools/call and returns its result.
func (e *env) call(k, tool, args string) (int, map[string]any) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"`+tool+`","arguments":`+args+`}`)
	if status != http.StatusOK {
		return status, m
	}
	return status, m["result"].(map[string]any)
}

// sibling registers another agent of the owner of key k.
func (e *env) sibling(k, owner string) (string, string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/agents/register", key(k), `{"owner_id":"`+owner+`","agent_name":"twin","agent_type":"trading"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	return m["agent_id"].(string), m["api_key"].(string)
}

const tradeBody = `{"symbol":"AAPL","direction":"long","entry_price":"185.50","exit_price":"192.00","stop_price":"180.00",
	"quantity":"100","exit_time":"2026-03-09T20:00:00Z","strategy":"breakout","notes":"held through lunch"}`

func TestJournalEndToEnd(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	id, k := e.register("acme")
	e.fund(k, "1")

	status, m := e.do("POST", "/v1/journal/record", key(k), tradeBody)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "1.18181818182", m["r_multiple"], "(192 - 185.5)/(185.5 - 180) to 12 significant digits")
	assert.Equal(t, "derived", m["r_source"])
	assert.Equal(t, "650.00", m["pnl"])
	assert.Equal(t, "held through lunch", m["notes"])
	assert.Equal(t, "0.997", e.balance(k), "record_trade_journal costs 0.003")

	// The published SDK name, through /v1/tools/call.
	status, res := e.call(k, "record_trade_outcome", `{"symbol":"msft","direction":"short","entry_price":"410","exit_price":"415",
		"quantity":"10","r_multiple":"-1","trade_date":"2026-03-10"}`)
	require.Equal(t, http.StatusOK, status, res)
	assert.Equal(t, "-50.00", res["pnl"])
	assert.Equal(t, "0.994", e.balance(k))

	for i := range 3 {
		status, m = e.do("POST", "/v1/journal/record", key(k), fmt.Sprintf(`{"symbol":"AAPL","direction":"long","entry_price":"100",
			"exit_price":"%d","quantity":"1","r_multiple":"%d","trade_date":"2026-03-1%d","strategy":"Breakout"}`, 100+i, i, i+1))
		require.Equal(t, http.StatusOK, status, m)
	}
	assert.Equal(t, "0.985", e.balance(k))

	status, m = e.do("GET", "/v1/journal/trades?limit=2", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 2, m["count"])
	assert.Equal(t, true, m["has_more"])
	first := m["trades"].([]any)[0].(map[string]any)
	assert.Equal(t, "2026-03-13T00:00:00Z", first["closed_at"], "newest first by closing time")
	seen := 2
	cursor := m["next_cursor"].(string)
	for cursor != "" {
		status, m = e.do("GET", "/v1/journal/trades?limit=2&cursor="+cursor, key(k), "")
		require.Equal(t, http.StatusOK, status, m)
		seen += int(m["count"].(float64))
		cursor = ""
		if c, ok := m["next_cursor"].(string); ok {
			cursor = c
		}
	}
	assert.Equal(t, 5, seen)

	status, m = e.do("GET", "/v1/journal/trades?symbol=aapl&strategy=BREAKOUT&from=2026-03-10&to=2026-03-13", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 2, m["count"])

	status, m = e.do("GET", "/v1/journal/stats", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, id, m["agent_id"])
	assert.EqualValues(t, 5, m["trade_count"])
	assert.Equal(t, "0.6", m["win_rate"], "three wins in five: R 1.18, 1 and 2 (0 is a breakeven)")
	assert.Equal(t, "603.00", m["total_pnl"])
	require.NotNil(t, m["win_loss"])

	status, m = e.do("GET", "/v1/journal/r-multiples?limit=3", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, []any{"0", "1", "2"}, m["r_multiples"], "the latest three, oldest first")

	status, m = e.do("GET", "/v1/journal/stats?symbol=MSFT", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 1, m["trade_count"])
	assert.Equal(t, "0.985", e.balance(k), "journal reads are free")

	status, res = e.call(k, "get_trading_biases", `{}`)
	require.Equal(t, http.StatusOK, status, res)
	assert.Equal(t, "journal", res["source"])
	assert.EqualValues(t, 5, res["trade_count"])
	assert.Equal(t, "0.985", e.balance(k), "get_trading_biases is free")
}

func TestMemoriesThroughTheAPIAreIsolatedPerAgent(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, alice := e.register("acme")
	_, bob := e.sibling(alice, "acme")
	e.fund(alice, "1")
	e.fund(bob, "1")
	status, m := e.call(alice, "store_memory", `{"content":"The secret word is quetzal","category":"notes","metadata":{"k":"v"}}`)
	require.Equal(t, http.StatusOK, status, m)
	aliceMemory := m["memory_id"].(string)
	assert.Equal(t, "0.998", e.balance(alice), "store_memory costs 0.002")
	status, m = e.call(bob, "store_memory", `{"content":"quetzal quetzal quetzal"}`)
	require.Equal(t, http.StatusOK, status, m)

	status, m = e.call(alice, "search_memory", `{"query":"quetzal"}`)
	require.Equal(t, http.StatusOK, status, m)
	require.EqualValues(t, 1, m["count"], "only alice's own memory")
	hit := m["memories"].([]any)[0].(map[string]any)
	assert.Equal(t, aliceMemory, hit["memory_id"])
	assert.Equal(t, "The secret word is quetzal", hit["content"])
	assert.Equal(t, map[string]any{"k": "v"}, hit["metadata"])
	assert.Equal(t, "0.997", e.balance(alice), "search_memory costs 0.001")

	status, m = e.do("DELETE", "/v1/memory/"+aliceMemory, key(bob), "")
	assert.Equal(t, http.StatusNotFound, status, "bob cannot delete alice's memory")
	assert.NotContains(t, m["detail"], "acme")
	status, m = e.do("DELETE", "/v1/memory/"+aliceMemory, key(alice), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, true, m["deleted"])
	status, m = e.call(alice, "search_memory", `{"query":"quetzal"}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 0, m["count"])
}

func TestMemoryQuotasThroughTheAPI(t *testing.T) {
	e := newEnv(t, withFullCatalog, func(c *envConfig) { c.workspace = workspace.Config{MaxMemories: 1, MaxMemoryBytes: 50} })
	_, k := e.register("acme")
	e.fund(k, "1")
	status, m := e.call(k, "store_memory", `{"content":"`+strings.Repeat("x", 60)+`"}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, status, m)
	assert.Contains(t, m["detail"], "Memory storage limit reached")
	status, m = e.call(k, "store_memory", `{"content":"fits"}`)
	require.Equal(t, http.StatusOK, status, m)
	status, m = e.call(k, "store_memory", `{"content":"one more"}`)
	assert.Equal(t, http.StatusConflict, status, m)
	assert.Contains(t, m["detail"], "at most 1 memories")
	assert.Equal(t, "0.998", e.balance(k), "refused stores are not charged")
}

func TestJournalBadInputWritesAndChargesNothing(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "1")
	bodies := []struct {
		body   string
		detail string
		status int
	}{
		{`{}`, "symbol", 400},
		{`{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1"}`, "r_multiple: required when stop_price is not given", 400},
		{`{"symbol":"A","direction":"up","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":1}`, "direction", 400},
		{`{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":1,"notes":"` + strings.Repeat("n", 5001) + `"}`, "notes", 400},
		{`{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":1,"tags":[` + strings.Repeat(`"t",`, 16) + `"t"]}`, "tags", 413},
		{`{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":1,"exit_time":"tomorrow"}`, "exit_time", 400},
		{`{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":1,"colour":"red"}`, "colour", 400},
		{`[1]`, "arguments must be a JSON object", 400},
		{`{"symbol":"` + strings.Repeat("s", 100<<10) + `"}`, "too large", 413},
	}
	for _, tc := range bodies {
		status, m := e.do("POST", "/v1/journal/record", key(k), tc.body)
		assert.Equal(t, tc.status, status, "%.80s: %v", tc.body, m)
		assert.Contains(t, m["detail"], tc.detail)
	}
	queries := []struct{ query, detail string }{
		{"?limit=0", "limit"},
		{"?limit=1001", "limit"},
		{"?cursor=nope", "cursor"},
		{"?from=yesterday", "from"},
		{"?from=2026-03-10&to=2026-03-01", "to: must be after from"},
		{"?symbol=" + strings.Repeat("s", 33), "symbol"},
		{"?sort=asc", "Unknown query parameter"},
		{"?limit=1&limit=2", "limit"},
	}
	for _, q := range queries {
		status, m := e.do("GET", "/v1/journal/trades"+q.query, key(k), "")
		assert.Equal(t, http.StatusBadRequest, status, "%s: %v", q.query, m)
		assert.Contains(t, m["detail"], q.detail, q.query)
	}
	status, m := e.do("GET", "/v1/journal/r-multiples?limit=10001", key(k), "")
	assert.Equal(t, http.StatusBadRequest, status, m)
	status, m = e.do("GET", "/v1/journal/stats?cursor=x", key(k), "")
	assert.Equal(t, http.StatusBadRequest, status, m)
	status, m = e.do("DELETE", "/v1/memory/mem_doesnotexist00", key(k), "")
	assert.Equal(t, http.StatusNotFound, status, m)

	status, m = e.do("GET", "/v1/journal/stats", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 0, m["trade_count"], "nothing was written")
	assert.Equal(t, "1.00", e.balance(k), "nothing was charged")
	status, _ = e.do("GET", "/v1/journal/trades", nil, "")
	assert.Equal(t, http.StatusUnauthorized, status)
}

func TestBrokerEndpoints(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	id, k := e.register("acme")

	status, m := e.do("GET", "/v1/broker/supported", nil, "")
	require.Equal(t, http.StatusOK, status, m)
	assert.EqualValues(t, 5, m["count"])
	demo := m["brokers"].([]any)[0].(map[string]any)
	assert.Equal(t, "demo", demo["id"])
	assert.Equal(t, true, demo["available"])

	status, m = e.do("POST", "/v1/broker/connect", key(k), `{"broker_type":"alpaca","connection_params":{"api_key":"k","api_secret":"s","paper":"true"}}`)
	assert.Equal(t, http.StatusForbidden, status, m)
	assert.Contains(t, m["detail"], "sandbox agents may connect only the demo broker")

	status, m = e.do("GET", "/v1/broker/account", key(k), "")
	assert.Equal(t, http.StatusNotFound, status, m)

	status, m = e.do("POST", "/v1/broker/connect", key(k), `{"broker_type":"demo"}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, true, m["connected"])
	assert.Equal(t, "100000.00", m["equity"])
	assert.Equal(t, "200000.00", m["buying_power"])
	assert.Equal(t, "Connected to demo broker.", m["message"])
	account := m["account_id"]

	status, m = e.do("GET", "/v1/broker/account", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, id, m["agent_id"])
	assert.Equal(t, account, m["account_id"])
	assert.Equal(t, "demo", m["broker"])
	assert.Equal(t, "100000.00", m["cash"])
	assert.Equal(t, "0.00", m["margin_used"])
	assert.Equal(t, []any{}, m["positions"])

	status, m = e.do("POST", "/v1/broker/disconnect", key(k), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, true, m["disconnected"])
	status, _ = e.do("POST", "/v1/broker/disconnect", key(k), "")
	assert.Equal(t, http.StatusNotFound, status)

	bad := []struct {
		body, detail string
		status       int
	}{
		{`{}`, "broker_type", 400},
		{`{"broker_type":"robinhood"}`, "broker_type", 400},
		{`{"broker_type":"demo","connection_params":{"password":"x"}}`, "unknown parameter", 400},
		{`{"broker_type":"demo","connection_params":{"starting_equity":5}}`, "connection_params", 400},
		{`{"broker_type":"demo","connection_params":{"account_label":"` + strings.Repeat("x", 513) + `"}}`, "connection_params", 400},
		{`{"broker_type":"demo","connection_params":{` + manyParams(17) + `}}`, "connection_params", 400},
	}
	for _, tc := range bad {
		status, m := e.do("POST", "/v1/broker/connect", key(k), tc.body)
		assert.Equal(t, tc.status, status, "%.80s: %v", tc.body, m)
		assert.Contains(t, m["detail"], tc.detail)
	}
	status, _ = e.do("GET", "/v1/broker/account", key(k), "")
	assert.Equal(t, http.StatusNotFound, status, "no bad connect was stored")
}

func manyParams(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"p%d":"v"`, i)
	}
	return strings.Join(parts, ",")
}
