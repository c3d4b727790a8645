package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ohlcvJSON returns n deterministic OHLCV bars as a JSON array.
func ohlcvJSON(n int, start float64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	p := start
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		o := p
		c := o * math.Exp(0.001+0.01*math.Sin(float64(i)*1.7)+0.003*math.Cos(float64(i)*0.31))
		h, l := math.Max(o, c)*1.005, math.Min(o, c)*0.995
		fmt.Fprintf(&sb, `{"open":"%.4f","high":"%.4f","low":"%.4f","close":"%.4f","volume":"%d"}`, o, h, l, c, 1000+(i*7919)%5000)
		p = c
	}
	sb.WriteByte(']')
	return sb.String()
}

const sampleR = `["1.5","-1","2.3","-0.5","1.8","-1","3.2","0.8","-0.7","1.1"]`

// toolArguments holds valid arguments for every tool of the full catalog;
// a tool missing here fails the test, so a new tool must add its own.
func toolArguments() map[string]string {
	bars := ohlcvJSON(230, 100)
	return map[string]string{
		"calculate_position_size":   `{"equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long"}`,
		"check_trade_risk":          `{"symbol":"AAPL","direction":"long","entry_price":"185","stop_price":"180","quantity":"50","equity":"100000"}`,
		"evaluate_performance":      `{"r_multiples":` + sampleR + `}`,
		"pre_trade_gate":            `{"symbol":"AAPL","direction":"long","entry_price":"185","stop_price":"180","equity":"100000"}`,
		"assess_trading_system":     `{"r_multiples":` + sampleR + `,"seed":7}`,
		"run_monte_carlo":           `{"r_multiples":` + sampleR + `,"starting_equity":"10000","num_simulations":100,"seed":7}`,
		"calculate_kelly":           `{"r_multiples":` + sampleR + `}`,
		"analyze_drawdown":          `{"r_multiples":` + sampleR + `,"starting_equity":"10000"}`,
		"find_variance_killers":     `{"r_multiples":` + sampleR + `}`,
		"analyze_win_loss":          `{"r_multiples":` + sampleR + `}`,
		"run_what_if":               `{"r_multiples":` + sampleR + `}`,
		"calculate_rolling_g":       `{"r_multiples":` + sampleR + `,"window_size":3}`,
		"calculate_equity_curve":    `{"r_multiples":` + sampleR + `}`,
		"calculate_system_score":    `{"r_multiples":` + sampleR + `}`,
		"detect_peak_valley":        `{"equity_values":["100","110","105","120","90"],"starting_equity":"100"}`,
		"analyze_recovery":          `{"r_multiples":` + sampleR + `}`,
		"analyze_confidence":        `{"r_multiples":` + sampleR + `,"bootstrap_samples":200,"seed":7}`,
		"analyze_consistency":       `{"r_multiples":` + sampleR + `}`,
		"analyze_correlation":       `{"r_multiples":` + sampleR + `}`,
		"analyze_distribution":      `{"r_multiples":` + sampleR + `}`,
		"analyze_risk_adjusted":     `{"r_multiples":` + sampleR + `}`,
		"analyze_execution_quality": `{"r_multiples":["1.5","-1","2.3"],"mfe_values":["2","0.3","2.5"],"mae_values":["0.2","1","0.4"]}`,
		"segment_trades":            `{"trades":[{"pnl_r":"1.5","pnl_usd":"150","symbol":"MSFT"},{"pnl_r":"-1","pnl_usd":"-100","symbol":"AAPL"}]}`,
		"calculate_pnl":             `{"entry_price":"100.50","exit_price":"103.25","quantity":100,"direction":"long","stop_price":"99"}`,
		"calculate_expected_value":  `{"win_rate":"0.45","avg_win":"2.1","avg_loss":"-1"}`,
		"analyze_trade_outcome":     `{"realized_pnl":"250","realized_r":"2.5","mfe":"400","one_r_dollars":"100"}`,
		"score_signal":              `{"conditions_met":4,"total_conditions":5}`,
		"calculate_indicators":      `{"bars":` + bars + `,"indicator":"rsi"}`,
		"detect_regime":             `{"bars":` + bars + `}`,
		"analyze_trend_structure":   `{"bars":` + bars + `}`,
		"analyze_liquidity":         `{"bars":` + bars + `}`,
		"analyze_correlations":      `{"symbols_data":[{"symbol":"A","bars":` + ohlcvJSON(12, 50) + `},{"symbol":"B","bars":` + ohlcvJSON(12, 80) + `}]}`,
		"detect_patterns":           `{"bars":` + bars + `}`,
		"detect_structural_break":   `{"bars":` + bars + `}`,
		"analyze_price_structure":   `{"bars":` + bars + `}`,
		"size_options_position":     `{"mode":"equity_risk","equity":"100000","risk_pct":"0.02","entry_premium":"5.35"}`,
		"size_futures_position":     `{"mode":"margin_based","available_margin":"100000","initial_margin_per_contract":"12000"}`,
		"analyze_greeks": `{"underlying_price":"185.50","as_of":"2024-02-15","chain":[{"symbol":"AAPL240315C00185000","strike":"185",` +
			`"expiration":"2024-03-15","option_type":"CALL","implied_volatility":"0.25"}]}`,
		"analyze_futures_curve": `{"contracts":[{"symbol":"CLG5","expiry":"2025-02-20","price":"75.50"},{"symbol":"CLF5","expiry":"2025-01-20","price":"75"}]}`,
		"calculate_margin": `{"account_equity":"30000","positions":[{"symbol":"ESH5","quantity":-2,"price":"5000","multiplier":"50",` +
			`"initial_margin_per_contract":"12650","maintenance_margin_per_contract":"11500"}]}`,
		"check_compliance":     `{"equity":"100000","positions":[{"symbol":"AAPL","quantity":"100","price":"185.50"}]}`,
		"store_memory":         `{"content":"Scale out a third at 2R","category":"rules"}`,
		"search_memory":        `{"query":"scale out"}`,
		"record_trade_journal": `{"symbol":"AAPL","direction":"long","entry_price":"100","exit_price":"110","stop_price":"95","quantity":"10"}`,
		"get_trading_biases":   `{"trades":[{"r_multiple":"1"},{"r_multiple":"-1"},{"r_multiple":"2"}]}`,
	}
}

// pricedTools are the tools that cost something, at list price; every
// other tool is free.
var pricedTools = map[string]string{
	"calculate_position_size": "0.003", "check_trade_risk": "0.004", "evaluate_performance": "0.10",
	"pre_trade_gate": "0.01", "assess_trading_system": "2.00", "run_monte_carlo": "0.008",
	"store_memory": "0.002", "search_memory": "0.001", "record_trade_journal": "0.003",
}

// TestMCPCallsAll45ToolsWithExactCharges lists the full catalog on every
// surface (REST, MCP over both transports, the server card, the agent
// card, llms.txt), then calls each of the 45 tools through the MCP SDK
// client and checks the balance moved by exactly the tool's price.
func TestMCPCallsAll45ToolsWithExactCharges(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "10")
	ctx := context.Background()

	status, list := e.do("GET", "/v1/tools/list", nil, "")
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 45, list["tool_count"])
	prices := map[string]string{}
	for _, raw := range list["tools"].([]any) {
		tool := raw.(map[string]any)
		prices[tool["name"].(string)] = tool["price"].(string)
	}
	require.Len(t, prices, 45)
	args := toolArguments()
	for name := range prices {
		require.Contains(t, args, name, "toolArguments needs arguments for %s", name)
	}
	status, card := e.do("GET", "/.well-known/mcp/server-card.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 45, card["tool_count"])
	status, agentCard := e.do("GET", "/.well-known/agent.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, agentCard["skills"], 45)
	_, llms := e.rawGet(t, "/llms.txt", "")
	for _, name := range []string{"store_memory", "search_memory", "record_trade_journal", "get_trading_biases"} {
		assert.Contains(t, llms, "- "+name+" ($")
	}

	var sessions []*mcp.ClientSession
	for _, transport := range []string{"sse", "streamable"} {
		cs, err := e.mcpConnect(t, transport, k)
		require.NoError(t, err)
		tools, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 45, transport)
		sessions = append(sessions, cs)
	}

	before := mustAmount(e.balance(k))
	total := mustAmount("0")
	for i, name := range slices.Sorted(maps.Keys(prices)) {
		want := "0"
		if p, ok := pricedTools[name]; ok {
			want = p
		}
		assert.Zero(t, mustAmount(want).Cmp(mustAmount(prices[name])), "list price of %s: %s", name, prices[name])
		var arguments map[string]any
		require.NoError(t, json.Unmarshal([]byte(args[name]), &arguments), name)
		res, err := sessions[i%2].CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
		require.NoError(t, err, name)
		require.False(t, res.IsError, "%s: %v", name, res.Content)
		after := mustAmount(e.balance(k))
		assert.Zero(t, mustAmount(want).Cmp(before.Sub(after)), "%s charged %s, exactly its price %s", name, before.Sub(after), want)
		total = total.Add(before.Sub(after))
		before = after
	}
	assert.Zero(t, mustAmount("2.131").Cmp(total), "the nine priced tools, once each: %s", total)
	assert.Equal(t, "7.869", e.balance(k))
}
