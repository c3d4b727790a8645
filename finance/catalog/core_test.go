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
	out, err := runTool(Default(), context.Background(), tool, Call{AgentID: "agent-1", Limits: limits, Arguments: json.RawMessage(args)})
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
	assert.Equal(t, "0.00", m["daily_pnl"])
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
		{"calculate_position_size", `{` + sizeOK + `,"direction":"up"}`, "direction: must be one of"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":"abc"}`, `risk_percent: "abc" is not a number like`},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":1.5}`, "risk_percent: must be at most"},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","risk_percent":"1.5"}`, `risk_percent: must be at most 1, got "1.5"`},
		{"calculate_position_size", `{` + sizeOK + `,"direction":"long","extra":1}`, "Unknown argument: extra"},
		{"calculate_position_size", `{"equity":"0","entry_price":"100","stop_price":"95","direction":"long"}`, "equity: must be greater than 0"},
		{"calculate_position_size", `{"equity":-5,"entry_price":"100","stop_price":"95","direction":"long"}`, "equity: must be greater than"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"100","direction":"long"}`, "stop_price: must differ from entry_price"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"105","direction":"long"}`, "stop_price: for a long position the stop must be below"},
		{"calculate_position_size", `{"equity":"10000","entry_price":"100","stop_price":"95","direction":"short"}`, "stop_price: for a short position the stop must be above"},
		{"check_trade_risk", `{` + riskOK + `}`, "Missing required argument: quantity"},
		{"check_trade_risk", `{` + riskOK + `,"quantity":"-1"}`, `quantity: must be at least 0, got "-1"`},
		{"check_trade_risk", `{` + riskOK + `,"quantity":-1}`, "quantity: must be at least"},
		{"check_trade_risk", `{"symbol":"","direction":"long","entry_price":"100","stop_price":"95","equity":"10000","quantity":"1"}`, "symbol: must not be empty"},
		{"check_trade_risk", `{` + riskOK + `,"quantity":"1","daily_pnl":"NaN"}`, `daily_pnl: "NaN" is not a number like`},
		{"pre_trade_gate", `{"direction":"long","entry_price":"100","stop_price":"95","equity":"10000"}`, "Missing required argument: symbol"},
		{"pre_trade_gate", `{` + riskOK + `,"r_multiples":["1","x"]}`, `r_multiples[1]: "x" is not a number like`},
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

func TestEvaluationToolTiersJSON(t *testing.T) {
	const r = `["1.5","-1.0","2.3","-0.5","1.8","-1.0",3.2,0.8,"-1","0.6","1.1","-0.4"]`
	m, err := callJSON(t, "evaluate_performance", finance.AgentLimits{}, `{"r_multiples":`+r+`}`)
	require.NoError(t, err)
	assert.Equal(t, "basic", m["tier"])
	assert.Equal(t, m["g"], m["g_score"])
	assert.Equal(t, float64(12), m["trade_count"])
	for _, k := range []string{"verdict", "expected_r", "win_rate", "expectancy", "sqn", "log_growth"} {
		assert.Contains(t, m, k)
	}
	assert.NotContains(t, m, "rolling_g")

	m, err = callJSON(t, "evaluate_performance", finance.AgentLimits{}, `{"r_multiples":`+r+`,"tier":"full","window_size":4}`)
	require.NoError(t, err)
	assert.Len(t, m["rolling_g"], 9)
	assert.Contains(t, []any{"IMPROVING", "STABLE", "DECLINING"}, m["rolling_g_trend"])
	score := m["system_r_score"].(map[string]any)
	assert.Contains(t, score, "grade")
	assert.Contains(t, score, "components")
	assert.NotContains(t, m, "impact")

	m, err = callJSON(t, "evaluate_performance", finance.AgentLimits{}, `{"r_multiples":`+r+`,"tier":"comprehensive"}`)
	require.NoError(t, err)
	impact := m["impact"].(map[string]any)
	for _, k := range []string{"variance_killers", "what_if", "levers", "summary"} {
		assert.Contains(t, impact, k)
	}
}

func TestAssessToolJSON(t *testing.T) {
	args := `{"r_multiples":["1.5","-1","2.3","-0.5","1.8","-1","3.2","0.8"],"starting_equity":"50000","seed":123}`
	m, err := callJSON(t, "assess_trading_system", finance.AgentLimits{}, args)
	require.NoError(t, err)
	assert.Contains(t, []any{"STRONG_SYSTEM", "VIABLE_SYSTEM", "MARGINAL_SYSTEM", "FAILING_SYSTEM"}, m["verdict"])
	assert.Equal(t, float64(123), m["seed"])
	g := m["g_metrics"].(map[string]any)
	for _, k := range []string{"g", "expected_r", "trade_count"} {
		assert.Contains(t, g, k)
	}
	assert.Contains(t, m["kelly"].(map[string]any), "kelly_fraction")
	assert.Contains(t, m["kelly"].(map[string]any), "half_kelly")
	assert.Contains(t, m["monte_carlo"].(map[string]any), "median_final_equity")
	assert.Contains(t, m["drawdown"].(map[string]any), "max_drawdown_pct")
	assert.Contains(t, m["drawdown"].(map[string]any), "recovery_trades")
	for _, k := range []string{"win_loss", "what_if", "variance_killers"} {
		assert.Contains(t, m, k)
	}
	again, err := callJSON(t, "assess_trading_system", finance.AgentLimits{}, args)
	require.NoError(t, err)
	assert.Equal(t, m, again, "seeded: identical output")
}

func TestEvalAndAssessRejectBadInput(t *testing.T) {
	const r5 = `["1","-1","2","-1","1"]`
	cases := []struct{ tool, args, want string }{
		{"evaluate_performance", `{}`, "Missing required argument: r_multiples"},
		{"evaluate_performance", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"evaluate_performance", `{"r_multiples":["1","NaN"]}`, `r_multiples[1]: "NaN" is not a number like`},
		{"evaluate_performance", `{"r_multiples":["1","2"],"tier":"gold"}`, "tier: must be one of"},
		{"evaluate_performance", `{"r_multiples":["1","2"],"tier":"full","window_size":1}`, "window_size: must be at least"},
		{"evaluate_performance", `{"r_multiples":["1","2"],"tier":"full","window_size":3}`, "window_size: must not exceed"},
		{"evaluate_performance", `{"r_multiples":["1","2"],"window_size":"ten"}`, "window_size"},
		{"assess_trading_system", `{"r_multiples":["1","-1","2","-1"]}`, "r_multiples: at least"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"starting_equity":"0"}`, "starting_equity: must be greater than 0"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"starting_equity":-1}`, "starting_equity: must be greater than"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"pnl_values":["1","2"]}`, "pnl_values: must have the same length"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"pnl_values":["1","x","1","1","1"]}`, `pnl_values[1]: "x" is not a number like`},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"seed":-1}`, "seed: must be at least"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"seed":9007199254740992}`, "seed: must be at most"},
		{"assess_trading_system", `{"r_multiples":` + r5 + `,"seed":1.5}`, "seed"},
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

func TestGateToolHealth(t *testing.T) {
	m, err := callJSON(t, "pre_trade_gate", finance.AgentLimits{},
		`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180.00","equity":"100000","r_multiples":["-1","-1","-1","0.5"]}`)
	require.NoError(t, err)
	assert.Equal(t, true, m["gate_passed"])
	h := m["system_health"].(map[string]any)
	assert.Equal(t, "INSUFFICIENT_DATA", h["verdict"])
	assert.Equal(t, float64(4), h["trade_count"])
	assert.Equal(t, "-0.625", h["expected_r"])
}

func TestOperationFor(t *testing.T) {
	c := Default()
	eval, _ := c.Lookup("evaluate_performance")
	cases := map[string]string{
		`{"r_multiples":["1","2"]}`:                        OpBasicEval,
		`{"r_multiples":["1","2"],"tier":"basic"}`:         OpBasicEval,
		`{"r_multiples":["1","2"],"tier":"full"}`:          OpFullEval,
		`{"r_multiples":["1","2"],"tier":"comprehensive"}`: OpComprehensiveEval,
		`{"tier":"nope"}`:                                  OpBasicEval,
		`{"tier":5}`:                                       OpBasicEval,
		`not json`:                                         OpBasicEval,
		``:                                                 OpBasicEval,
	}
	for args, want := range cases {
		assert.Equal(t, want, eval.BilledOperation(json.RawMessage(args)), args)
	}
	sizing, _ := c.Lookup("calculate_position_size")
	assert.Equal(t, OpPositionSizing, sizing.BilledOperation(json.RawMessage(`{"tier":"full"}`)))
	assert.Equal(t, OpFullEval, EvaluationOperation("full"))
	assert.Equal(t, "", EvaluationOperation("FULL"))
}

func TestWithTier(t *testing.T) {
	got, err := WithTier(json.RawMessage(`{"r_multiples":["1","2","3"],"window_size":2}`), "full")
	require.NoError(t, err)
	m, err := callJSON(t, "evaluate_performance", finance.AgentLimits{}, string(got))
	require.NoError(t, err)
	assert.Equal(t, "full", m["tier"])
	assert.Equal(t, float64(2), m["window_size"])

	got, err = WithTier(nil, "basic")
	require.NoError(t, err)
	assert.JSONEq(t, `{"tier":"basic"}`, string(got))
	got, err = WithTier(json.RawMessage(`{"tier":"comprehensive"}`), "comprehensive")
	require.NoError(t, err)
	assert.JSONEq(t, `{"tier":"comprehensive"}`, string(got))

	for _, bad := range []struct{ body, tier, want string }{
		{`{"tier":"basic"}`, "full", "tier: this endpoint evaluates tier full"},
		{`[1]`, "full", "arguments must be a JSON object"},
		{`{}`, "gold", "tier: must be basic, full or comprehensive"},
		{`{}`, "", "tier: must be basic, full or comprehensive"},
	} {
		_, err := WithTier(json.RawMessage(bad.body), bad.tier)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), bad.want)
	}
}
