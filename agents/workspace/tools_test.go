package workspace_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run calls a workspace tool as the catalog does and returns its JSON.
func run(t *testing.T, b *bench, agentID, name, args string) (map[string]any, error) {
	t.Helper()
	c, err := catalog.New(b.svc.Tools()...)
	require.NoError(t, err)
	tool, ok := c.Lookup(name)
	require.True(t, ok, name)
	res, err := tool.Run(ctx, catalog.Call{AgentID: agentID, Arguments: json.RawMessage(args)})
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m, nil
}

func TestToolsRoundTrip(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_tools", "o")
	m, err := run(t, b, a, "store_memory", `{"content":"Prefer pullbacks to breakouts in ranging markets","category":"lessons",
		"metadata":{"source":"review","week":12}}`)
	require.NoError(t, err)
	assert.Equal(t, "lessons", m["category"])
	assert.Regexp(t, `^mem_`, m["memory_id"])

	m, err = run(t, b, a, "search_memory", `{"query":"pullbacks ranging","limit":5}`)
	require.NoError(t, err)
	require.EqualValues(t, 1, m["count"])
	hit := m["memories"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"source": "review", "week": float64(12)}, hit["metadata"])
	assert.IsType(t, "", hit["similarity_score"], "scores are decimal strings")

	// The published record_trade_outcome arguments.
	m, err = run(t, b, a, "record_trade_journal", `{"symbol":"AAPL","direction":"long","entry_price":"185.50","exit_price":"192.00",
		"stop_price":"180.00","quantity":"100","r_multiple":"1.18","pnl":"650.00","trade_date":"2026-03-09","notes":"Clean breakout"}`)
	require.NoError(t, err)
	assert.Equal(t, "1.18", m["r_multiple"])
	assert.Equal(t, "given", m["r_source"])
	assert.Equal(t, "650.00", m["pnl"])
	assert.Equal(t, "2026-03-09T00:00:00Z", m["closed_at"])
	assert.Equal(t, "Clean breakout", m["notes"])

	m, err = run(t, b, a, "get_trading_biases", `{"trades":[{"r_multiple":"1","hold_time_hours":2},{"r_multiple":-1,"hold_time_hours":"5"}]}`)
	require.NoError(t, err)
	assert.Equal(t, "trades", m["source"])
	assert.Len(t, m["checks"], 5)
	assert.Empty(t, m["biases"])
}

func TestToolsNeedAnAgentAndGoodArguments(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_args", "o")
	for _, name := range []string{"store_memory", "search_memory", "record_trade_journal", "get_trading_biases"} {
		_, err := run(t, b, "", name, `{}`)
		require.Error(t, err)
		if name == "get_trading_biases" {
			assert.True(t, toolkit.IsKind(err, toolkit.Unauthenticated), "%s: %v", name, err)
		}
	}
	cases := []struct {
		tool, args, msg string
	}{
		{"store_memory", `{}`, "content"},
		{"store_memory", `{"content":"x","metadata":[1]}`, "metadata"},
		{"store_memory", `{"content":"x","colour":"red"}`, "colour"},
		{"store_memory", `{"content":"` + strings.Repeat("x", 10_001) + `"}`, "content: must be at most 10000 characters"},
		{"search_memory", `{"query":"x","limit":0}`, "limit"},
		{"search_memory", `{"query":"x","limit":51}`, "limit"},
		{"record_trade_journal", `{"symbol":"A","direction":"long","entry_price":"1","exit_price":"2","quantity":"1","r_multiple":"1","entry_time":"yesterday"}`,
			"entry_time: must be an RFC 3339 time"},
		{"record_trade_journal", `{"symbol":"A","direction":"sideways","entry_price":"1","exit_price":"2","quantity":"1"}`, "direction"},
		{"record_trade_journal", `{"symbol":"A","direction":"long","entry_price":"-1","exit_price":"2","quantity":"1","r_multiple":1}`, "entry_price"},
		{"get_trading_biases", `{"trades":[{"r_multiple":1}]}`, "trades"},
		{"get_trading_biases", `{"trades":[{"r_multiple":1},{"r_multiple":1,"exit_time":"soon"}]}`, "trades: item 1: exit_time"},
		{"get_trading_biases", `{"lookback_count":1}`, "lookback_count"},
	}
	for _, tc := range cases {
		_, err := run(t, b, a, tc.tool, tc.args)
		require.Error(t, err, "%s %s", tc.tool, tc.args)
		assert.True(t, toolkit.IsKind(err, toolkit.Invalid), "%s: %v", tc.tool, err)
		assert.Contains(t, err.Error(), tc.msg)
	}
	assert.Empty(t, b.rec.memories)
	assert.Empty(t, b.rec.trades)
}

func TestToolsAreTheFourWorkspaceTools(t *testing.T) {
	b := newBench(t)
	var names, ops []string
	var effects []catalog.Effect
	for _, tool := range b.svc.Tools() {
		names = append(names, tool.Name)
		ops = append(ops, tool.Operation)
		effects = append(effects, tool.Effect)
		assert.NotEmpty(t, tool.Description)
	}
	assert.Equal(t, []string{"store_memory", "search_memory", "record_trade_journal", "get_trading_biases"}, names)
	assert.Equal(t, []string{workspace.OpStoreMemory, workspace.OpSearchMemory, workspace.OpRecordTradeJournal, ""}, ops)
	assert.Equal(t, []catalog.Effect{catalog.Appends, catalog.ReadOnly, catalog.Appends, catalog.ReadOnly}, effects,
		"the two writes append a record; search and biases only read")
	c := catalog.Default()
	for _, tool := range b.svc.Tools() {
		require.NoError(t, c.Register(tool))
	}
	assert.Len(t, c.Tools(), 45)
	tool, ok := c.Resolve("record_trade_outcome")
	require.True(t, ok)
	assert.Equal(t, "record_trade_journal", tool.Name, "the published SDK name records a trade")
}

// TestToolsAreDescribed checks each workspace tool's Spec gives it a
// title, its reference text and its price (the writes and the search are
// priced, the bias analysis is free), and that Categories describes the
// categories the tools use.
func TestToolsAreDescribed(t *testing.T) {
	b := newBench(t)
	categories := map[string]catalog.Category{}
	for _, cat := range workspace.Categories() {
		categories[cat.Name] = cat
		assert.NotEmpty(t, cat.Title)
		assert.NotEmpty(t, cat.Docs, cat.Name)
	}
	priced := map[string]bool{}
	for _, tool := range b.svc.Tools() {
		assert.NotEmpty(t, tool.Title, tool.Name)
		assert.NotEmpty(t, tool.Docs, tool.Name)
		assert.Contains(t, categories, tool.Category, tool.Name)
		for op, price := range tool.Prices {
			assert.Equal(t, tool.Operation, op, tool.Name)
			assert.Positive(t, price.Sign(), tool.Name)
			priced[tool.Name] = true
		}
	}
	assert.Equal(t, map[string]bool{"store_memory": true, "search_memory": true, "record_trade_journal": true}, priced)
}

// TestEveryToolArgumentIsDescribed: every argument of the workspace tools
// has a description and an example (see catalog.ArgumentGaps).
func TestEveryToolArgumentIsDescribed(t *testing.T) {
	b := newBench(t)
	for _, tool := range b.svc.Tools() {
		assert.Empty(t, catalog.ArgumentGaps(tool.InputSchema), tool.Name)
	}
}

func TestWriteToolsRegisterTheirUndo(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_undo", "o")
	c, err := catalog.New(b.svc.Tools()...)
	require.NoError(t, err)
	undo := &catalog.Compensation{}
	for _, call := range []struct{ tool, args string }{
		{"store_memory", `{"content":"pullbacks beat breakouts"}`},
		{"record_trade_journal", `{"symbol":"AAPL","direction":"long","entry_price":"100","exit_price":"110","quantity":"1","r_multiple":"1"}`},
	} {
		tool, ok := c.Lookup(call.tool)
		require.True(t, ok, call.tool)
		_, err := tool.Run(ctx, catalog.Call{AgentID: a, Arguments: json.RawMessage(call.args), Undo: undo})
		require.NoError(t, err, call.tool)
	}
	require.True(t, undo.Pending())
	require.NoError(t, undo.Run(ctx))

	m, err := run(t, b, a, "search_memory", `{"query":"pullbacks"}`)
	require.NoError(t, err)
	assert.EqualValues(t, 0, m["count"], "the memory is gone")
	trades, err := b.svc.Trades(ctx, a, workspace.TradeFilter{}, toolkit.PageInput{})
	require.NoError(t, err)
	assert.Empty(t, trades.Trades, "the trade is gone")
}
