package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callJSON runs a tool of the default catalog with raw JSON arguments and
// returns the result re-decoded as a generic JSON object.
func callJSON(t *testing.T, tool string, limits finance.AgentLimits, args string) (map[string]any, error) {
	t.Helper()
	out, err := Default().Call(context.Background(), tool, Call{AgentID: "agent-1", Limits: limits, Arguments: json.RawMessage(args)})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m, nil
}

func TestCoreToolsAreRegisteredFirstWithOperations(t *testing.T) {
	tools := Default().Tools()
	want := []struct{ name, op, category string }{
		{"calculate_position_size", OpPositionSizing, "core"},
		{"check_trade_risk", OpRiskCheck, "core"},
		{"evaluate_performance", OpBasicEval, "core"},
		{"pre_trade_gate", OpPreTradeGate, "compound"},
		{"assess_trading_system", OpAssessTradingSystem, "compound"},
	}
	require.GreaterOrEqual(t, len(tools), len(want))
	for i, w := range want {
		assert.Equal(t, w.name, tools[i].Name)
		assert.Equal(t, w.op, tools[i].Operation)
		assert.Equal(t, w.category, tools[i].Category)
		assert.NotEmpty(t, tools[i].Description)
	}
}

func TestSizingToolJSON(t *testing.T) {
	m, err := callJSON(t, "calculate_position_size", finance.AgentLimits{},
		`{"equity":"25000","entry_price":10.30,"stop_price":"10.20","direction":"Long","risk_percent":"0.02","instrument":"XYZ"}`)
	require.NoError(t, err)
	assert.Equal(t, float64(5000), m["shares"])
	assert.Equal(t, "500.00", m["risk_amount"])
	assert.Equal(t, "0.02", m["risk_percent"])
	assert.Equal(t, "51500.00", m["notional"])
	assert.Equal(t, "500.00", m["one_r_dollars"])
	assert.Equal(t, "0.10", m["risk_per_share"])
	assert.Equal(t, "long", m["direction"])
	assert.Equal(t, "XYZ", m["instrument"])
	assert.Equal(t, []any{}, m["warnings"])
}

func TestRiskToolUsesAgentLimits(t *testing.T) {
	ten := toolkit.MustParseAmount("10")
	args := `{"symbol":"aapl","direction":"long","entry_price":"185.50","stop_price":"180","quantity":"363","equity":"100000"}`
	m, err := callJSON(t, "check_trade_risk", finance.AgentLimits{MaxPositionSizePct: &ten, AuthorizedInstruments: []string{"AAPL"}}, args)
	require.NoError(t, err)
	assert.Equal(t, false, m["approved"])
	assert.Equal(t, "agent", m["position_limit_source"])
	assert.Equal(t, "0.019965", m["risk_percent"])
	assert.Equal(t, "0", m["daily_pnl"])
	errs := m["errors"].([]any)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "max_position_size_pct 10")
	assert.Equal(t, float64(50), m["score"]) // -10 risk above 1 %, -40 position over the limit

	m, err = callJSON(t, "check_trade_risk", finance.AgentLimits{}, args)
	require.NoError(t, err)
	assert.Equal(t, true, m["approved"])
	assert.Equal(t, float64(90), m["score"])
}

func TestGateToolJSON(t *testing.T) {
	m, err := callJSON(t, "pre_trade_gate", finance.AgentLimits{},
		`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180.00","equity":"100000","daily_pnl":"0"}`)
	require.NoError(t, err)
	assert.Equal(t, true, m["gate_passed"])
	assert.Nil(t, m["system_health"])
	assert.Contains(t, m, "system_health")
	assert.Equal(t, float64(363), m["sizing"].(map[string]any)["shares"])
	assert.Equal(t, "1996.50", m["risk"].(map[string]any)["risk_amount"])

	m, err = callJSON(t, "pre_trade_gate", finance.AgentLimits{AuthorizedInstruments: []string{"MSFT"}},
		`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180.00","equity":"100000"}`)
	require.NoError(t, err)
	assert.Equal(t, false, m["gate_passed"])
	assert.Len(t, m["reasons"], 1)
}

// TestCoreToolsRejectBadInput has one case per bad-input rule.
func TestCoreToolsRejectBadInput(t *testing.T) {
	const sizeOK = `"equity":"10000","entry_price":"100","stop_price":"95"`
	const riskOK = `"symbol":"AAPL","direction":"long","entry_price":"100","stop_price":"95","equity":"10000"`
	cases := []struct {
		tool, args, want string
	}{
		{"calculate_position_size", `{"entry_price":"100","stop_price":"95","direction":"long"}`, "Missing required argument: equity"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"up"}`, "direction: enum"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":"abc"}`, `risk_percent: "abc" is not a decimal number`},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":1.5}`, "risk_percent: maximum"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":"1.5"}`, "risk_percent: must be a fraction in (0, 1]"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":"1e-2"}`, "is not a decimal number"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","extra":1}`, "Unknown argument: extra"},
		{"calculate_position_size", `{"equity":"0","entry_price":"100","stop_price":"95","direction":"long"}`, "equity: must be greater than 0"},
		{"calculate_position_size", `{"equity":-5,"entry_price":"100","stop_price":"95","direction":"long"}`, "equity: exclusiveMinimum"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"100","direction":"long"}`, "stop_price: must differ from entry_price"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"105","direction":"long"}`, "stop_price: for a long position the stop must be below"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"95","direction":"short"}`, "stop_price: for a short position the stop must be above"},
		{"check_trade_risk", `{` + riskOK + `}`, "Missing required argument: quantity"},
		{"check_trade_risk", `{` + riskOK + `,"quantity":"-1"}`, "quantity: must not be negative"},
		{"check_trade_risk", `{` + riskOK + `,"quantity":-1}`, "quantity: minimum"},
		{"check_trade_risk", `{"symbol":"","direction":"long","entry_price":"100","stop_price":"95","equity":"10000","quantity":"1"}`, "symbol: minLength"},
		{"check_trade_risk", `{` + riskOK + `,"quantity":"1","daily_pnl":"NaN"}`, `daily_pnl: "NaN" is not a decimal number`},
		{"pre_trade_gate", `{"direction":"long","entry_price":"100","stop_price":"95","equity":"10000"}`, "Missing required argument: symbol"},
		{"pre_trade_gate", `{` + riskOK + `,"r_multiples":["1","x"]}`, `r_multiples[]: "x" is not a decimal number`},
		{"pre_trade_gate", `{"symbol":"AAPL","direction":"long","entry_price":"100","stop_price":"101","equity":"10000"}`, "stop_price: for a long position"},
	}
	for _, tc := range cases {
		t.Run(tc.tool+" "+tc.want, func(t *testing.T) {
			_, err := callJSON(t, tc.tool, finance.AgentLimits{}, tc.args)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), tc.want)
		})
	}
}

func TestCoreSchemasAreTightened(t *testing.T) {
	c := Default()
	schema := func(name string) string {
		tool, ok := c.Lookup(name)
		require.True(t, ok, name)
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		return string(b)
	}
	s := schema("calculate_position_size")
	assert.Contains(t, s, `"required":["equity","entry_price","stop_price","direction"]`)
	assert.Contains(t, s, `"default":"0.02"`)
	assert.Contains(t, s, `"enum":["long","short","LONG","SHORT","Long","Short"]`)
	assert.Contains(t, s, `"exclusiveMinimum":0`)
	s = schema("check_trade_risk")
	assert.Contains(t, s, `"required":["symbol","direction","entry_price","stop_price","quantity","equity"]`)
	assert.Contains(t, s, `"default":"0"`)
	s = schema("pre_trade_gate")
	assert.Contains(t, s, `"required":["symbol","direction","entry_price","stop_price","equity"]`)
}
