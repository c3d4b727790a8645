package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syntheticBars returns n deterministic OHLCV bars (a trend with waves) as
// JSON.
func syntheticBars(n int, drift float64) string {
	bars := make([]string, n)
	for i := range n {
		mid := 100 + drift*float64(i) + 8*math.Sin(float64(i)/7) + 3*math.Sin(float64(i)/2.3)
		open, closing := mid-0.4*math.Cos(float64(i)), mid+0.4*math.Sin(float64(i)*1.3)
		high, low := math.Max(open, closing)+1.1, math.Min(open, closing)-1.2
		bars[i] = fmt.Sprintf(`{"open":"%.4f","high":"%.4f","low":"%.4f","close":"%.4f","volume":"%d"}`,
			open, high, low, closing, 1000+(i*37)%900)
	}
	return "[" + strings.Join(bars, ",") + "]"
}

// toolCallsForEveryTool are valid arguments for every built-in tool, some
// tools several times (their answer shapes differ): each answer must match
// the tool's documented result.
func toolCallsForEveryTool() map[string][]string {
	r := `["1.5","-1","2.2","-0.5","0.8","-1","3","0.4","-0.7","1.1","-1","2","0.3","-0.2","1.7","-1","0.9","-0.4","2.4","-1","1.2","0.6","-0.8","1.4","-1"]`
	bars := syntheticBars(260, 0.15)
	return map[string][]string{
		"calculate_position_size": {`{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`},
		"check_trade_risk": {`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180","quantity":"100","equity":"100000"}`,
			`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180","quantity":"0","equity":"100000","daily_pnl":"-5000"}`},
		"evaluate_performance": {`{"r_multiples":` + r + `}`, `{"r_multiples":` + r + `,"tier":"full"}`, `{"r_multiples":` + r + `,"tier":"comprehensive"}`},
		"pre_trade_gate": {`{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180","equity":"100000"}`,
			`{"symbol":"AAPL","direction":"short","entry_price":"185.50","stop_price":"190","equity":"100000","r_multiples":` + r + `}`},
		"assess_trading_system": {`{"r_multiples":` + r + `}`},
		"run_monte_carlo":       {`{"r_multiples":` + r + `,"starting_equity":"100000","num_simulations":200,"trades_per_simulation":30,"seed":42}`},
		"calculate_kelly":       {`{"r_multiples":` + r + `}`},
		"analyze_drawdown": {`{"equity_values":["101000","99000","102000","98000","97000"],"starting_equity":"100000"}`,
			`{"r_multiples":` + r + `,"starting_equity":100000,"risk_per_trade":"0.02"}`},
		"find_variance_killers": {`{"r_multiples":["1","-1","-6","1.2"],"trade_ids":["a","b","c","d"],"symbols":["X","Y","Z","W"]}`, `{"r_multiples":["1","2"]}`},
		"analyze_win_loss":      {`{"r_multiples":["1","-1","0","2"],"pnl_values":["100.50","-99.50","0","201"]}`, `{"r_multiples":["1","2"]}`},
		"run_what_if":           {`{"r_multiples":` + r + `,"remove_count":2,"skip_after_losses":1}`},
		"calculate_rolling_g":   {`{"r_multiples":` + r + `,"window_size":4}`},
		"calculate_equity_curve": {`{"r_multiples":["1","-1"],"starting_equity":"1000","risk_per_trade":"0.1","trades_per_year":"2"}`,
			`{"r_multiples":` + r + `}`},
		"calculate_system_score": {`{"r_multiples":` + r + `}`},
		"detect_peak_valley":     {`{"equity_values":["101","99","98"],"starting_equity":"100"}`, `{"equity_values":["101","102"],"starting_equity":"100"}`},
		"analyze_recovery":       {`{"r_multiples":` + r + `}`, `{"r_multiples":["1","2"]}`},
		"analyze_confidence":     {`{"r_multiples":` + r + `,"seed":12345,"bootstrap_samples":1000}`},
		"analyze_consistency": {`{"r_multiples":` + r + `,"window_size":8}`,
			`{"r_multiples":["1","-1","2","0.5","-0.5","3"],"dates":["2024-01-02","2024-01-09","2024-02-01","2024-02-15","2024-03-01","2024-03-20"]}`},
		"analyze_correlation":       {`{"r_multiples":` + r + `}`},
		"analyze_distribution":      {`{"r_multiples":` + r + `}`, `{"r_multiples":["1","1","1"]}`},
		"analyze_risk_adjusted":     {`{"r_multiples":` + r + `,"target_r":"0.1","trades_per_year":120}`, `{"r_multiples":["1","2","3"]}`},
		"analyze_execution_quality": {`{"r_multiples":["1.5","-1.0","2.3","0","-1.2"],"mae_values":["-0.2","1.0","0.4","0.3","1.3"],"mfe_values":["2.0","0.3","2.5","0.5","0"],"hold_times_hours":[4,1,10,2,3]}`, `{"r_multiples":["1","-1"]}`},
		"segment_trades": {`{"trades":[{"pnl_r":"1.5","pnl_usd":"150.10","symbol":"MSFT","day_of_week":4,"strategy_id":"breakout","regime":"TRENDING_UP"},{"pnl_r":"-1","pnl_usd":"-100.05","symbol":"AAPL","day_of_week":0}]}`,
			`{"segment_by":"regime","trades":[{"pnl_r":"1.5","pnl_usd":"150.10","regime":"TRENDING_UP"},{"pnl_r":"-1","pnl_usd":"-100.05"}]}`},
		"calculate_pnl": {`{"entry_price":"100.50","exit_price":"103.25","quantity":100,"direction":"LONG","stop_price":"99.00","fees":"2.10"}`,
			`{"entry_price":"50","exit_price":"51.5","quantity":10,"direction":"short"}`},
		"calculate_expected_value": {`{"win_rate":"0.45","avg_win":"2.1","avg_loss":"-1"}`, `{"r_multiples":` + r + `}`},
		"analyze_trade_outcome":    {`{"realized_pnl":"250","realized_r":"2.5","mfe":"400","one_r_dollars":"100","expected_value_r":"0.4"}`},
		"score_signal":             {`{"conditions_met":4,"total_conditions":5,"regime_aligned":true,"indicator_confluence":2,"volume_confirmed":false,"risk_reward_ratio":"2.5"}`, `{"conditions_met":0,"total_conditions":5}`},
		"calculate_indicators": {`{"bars":` + bars + `,"indicator":"rsi"}`, `{"bars":` + bars + `,"indicator":"macd"}`,
			`{"bars":` + bars + `,"indicator":"bb"}`, `{"bars":` + syntheticBars(3, 0) + `,"indicator":"sma"}`},
		"detect_regime":           {`{"bars":` + bars + `}`, `{"bars":` + syntheticBars(10, 0) + `}`},
		"analyze_trend_structure": {`{"bars":` + bars + `}`},
		"analyze_liquidity":       {`{"bars":` + bars + `}`},
		"analyze_correlations": {`{"symbols_data":[{"symbol":"A","bars":` + syntheticBars(60, 0.1) + `},{"symbol":"B","bars":` + syntheticBars(60, -0.2) + `}]}`,
			`{"symbols_data":[{"symbol":"A","bars":` + syntheticBars(3, 0.1) + `},{"symbol":"B","bars":` + syntheticBars(60, -0.2) + `}]}`},
		"detect_patterns":         {`{"bars":` + bars + `}`},
		"detect_structural_break": {`{"bars":` + bars + `}`},
		"analyze_price_structure": {`{"bars":` + bars + `}`},
		"size_options_position": {`{"mode":"equity_risk","equity":"100000","risk_pct":"0.02","entry_premium":"5.35"}`,
			`{"mode":"spread","equity":25000,"risk_pct":0.02,"spread_width":5,"credit_received":"1.50"}`},
		"size_futures_position": {`{"mode":"tick_value","equity":"100000","risk_pct":"0.01","entry_price":"5000.00","stop_price":"4990.00","tick_size":"0.25","tick_value":"12.50"}`,
			`{"mode":"margin_based","available_margin":"100000","initial_margin_per_contract":"12000"}`},
		"analyze_greeks": {`{"underlying_price":"185.50","as_of":"2024-02-15","chain":[{"symbol":"AAPL240315C00185000","underlying_symbol":"AAPL","strike":"185","expiration":"2024-03-15",` +
			`"option_type":"CALL","bid":"5.20","ask":"5.50","last":"5.35","volume":1000,"open_interest":5000,"implied_volatility":"0.25"}]}`},
		"analyze_futures_curve": {`{"contracts":[{"symbol":"CLG5","expiry":"2025-02-20","price":"75.50"},{"symbol":"CLF5","expiry":"2025-01-20","price":75}],"spot":"74.60"}`},
		"calculate_margin":      {`{"account_equity":"30000","positions":[{"symbol":"ESH5","quantity":-2,"price":"5000","multiplier":"50","initial_margin_per_contract":"12650","maintenance_margin_per_contract":"11500"}]}`},
		"check_compliance":      {`{"equity":"100000","positions":[{"symbol":"AAPL","quantity":"100","price":"185.50"}],"proposed_trade":{"symbol":"tsla","quantity":"10","price":"200"}}`},
	}
}

// TestEveryToolAnswersItsDocumentedResult calls every built-in tool through
// POST /v1/tools/call: the contract check validates each answer against
// the tool's result schema in /v1/openapi.json (no undocumented field, no
// null where none is documented, decimals as strings).
func TestEveryToolAnswersItsDocumentedResult(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("results")
	e.fund(k, "100")
	calls := toolCallsForEveryTool()
	_, list := e.do("GET", "/v1/tools/list", nil, "")
	for _, tool := range list["tools"].([]any) {
		name := tool.(map[string]any)["name"].(string)
		args, ok := calls[name]
		require.True(t, ok, "no arguments for %s", name)
		for _, a := range args {
			require.True(t, json.Valid([]byte(a)), "%s: %s", name, a)
			status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"`+name+`","arguments":`+a+`}`)
			require.Equal(t, http.StatusOK, status, "%s: %v", name, m)
			assert.Equal(t, name, m["tool_name"])
		}
		delete(calls, name)
	}
	assert.Empty(t, calls, "arguments for tools that are not in the catalog")
}

// TestToolResultsAreValidatedDeeply proves the per-tool check can fail: a
// result with a missing field, an extra field, a null or a number where
// the document says otherwise is refused.
func TestToolResultsAreValidatedDeeply(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("deep")
	e.fund(k, "1")
	sizing := `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`
	status, good := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"calculate_position_size","arguments":`+sizing+`}`)
	require.Equal(t, http.StatusOK, status)
	req, err := http.NewRequest("POST", e.srv.URL+"/v1/tools/call", nil)
	require.NoError(t, err)
	validate := func(body map[string]any) error {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		return e.contract.validate(t, req, http.StatusOK, b)
	}
	require.NoError(t, validate(good))
	mutate := func(f func(result map[string]any)) map[string]any {
		var c map[string]any
		b, _ := json.Marshal(good)
		require.NoError(t, json.Unmarshal(b, &c))
		f(c["result"].(map[string]any))
		return c
	}
	assert.Error(t, validate(mutate(func(r map[string]any) { delete(r, "shares") })), "missing field")
	assert.Error(t, validate(mutate(func(r map[string]any) { r["bonus"] = 1 })), "undocumented field")
	assert.Error(t, validate(mutate(func(r map[string]any) { r["warnings"] = nil })), "null array")
	assert.Error(t, validate(mutate(func(r map[string]any) { r["notional"] = 1.5 })), "number for a decimal")
	wrongTool := mutate(func(map[string]any) {})
	wrongTool["tool_name"] = "check_trade_risk"
	assert.Error(t, validate(wrongTool), "the result must be the named tool's")
}
