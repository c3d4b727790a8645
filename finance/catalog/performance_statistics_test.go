package catalog

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const statisticsGoldenFile = "testdata/performance_statistics.json"

// statisticsR is a 40-trade chronological R series used by the golden vectors.
const statisticsR = `["1.5","-1.0","2.3","-0.5","1.8","-1.0","3.2","0.8","-1.2","0.4","2.0","-1.0","-0.3","1.1","-1.0",` +
	`"4.5","-0.8","0.0","1.6","-1.0","0.9","-1.1","2.7","-0.6","1.3","-1.0","0.2","3.1","-1.0","-0.9",` +
	`"1.4","0.6","-1.3","2.2","-1.0","0.7","1.9","-0.4","-1.0","2.6"]`

// statisticsGoldenCalls are the inputs of the golden vectors, one or more per tool.
var statisticsGoldenCalls = []struct{ name, tool, args string }{
	{"confidence", "analyze_confidence", `{"r_multiples":` + statisticsR + `,"seed":12345}`},
	{"confidence_90", "analyze_confidence", `{"r_multiples":` + statisticsR + `,"seed":7,"confidence":"0.9","bootstrap_samples":2000}`},
	{"consistency", "analyze_consistency", `{"r_multiples":` + statisticsR + `,"window_size":8}`},
	{"consistency_dates", "analyze_consistency", `{"r_multiples":["1","-1","2","0.5","-0.5","3"],` +
		`"dates":["2024-02-01","2024-01-31T23:30:00-05:00","2024-01-02","2024-12-30","2025-01-03T09:00:00Z","2024-02-15"]}`},
	{"correlation", "analyze_correlation", `{"r_multiples":` + statisticsR + `}`},
	{"distribution", "analyze_distribution", `{"r_multiples":` + statisticsR + `}`},
	{"distribution_3", "analyze_distribution", `{"r_multiples":` + statisticsR + `,"bucket_count":3}`},
	{"risk_adjusted", "analyze_risk_adjusted", `{"r_multiples":` + statisticsR + `,"target_r":"0.1","trades_per_year":120}`},
	{"execution", "analyze_execution_quality", `{"r_multiples":["1.5","-1.0","2.3","0","-1.2"],` +
		`"mae_values":["-0.2","1.0","0.4","0.3","1.3"],"mfe_values":["2.0","0.3","2.5","0.5","0"],"hold_times_hours":[4,1,10,2,3]}`},
	{"segment_symbol", "segment_trades", `{"trades":[` +
		`{"pnl_r":"1.5","pnl_usd":"150.10","symbol":"MSFT","day_of_week":4,"strategy_id":"breakout","regime":"TRENDING_UP"},` +
		`{"pnl_r":"-1","pnl_usd":"-100.05","symbol":"AAPL","day_of_week":0,"strategy_id":"breakout"},` +
		`{"pnl_r":"2.3","pnl_usd":"230.00","symbol":"AAPL","day_of_week":0,"strategy_id":"pullback","regime":"RANGING"},` +
		`{"pnl_r":"0","pnl_usd":"0","day_of_week":6,"strategy_id":"pullback","regime":"RANGING"}]}`},
	{"segment_regime", "segment_trades", `{"segment_by":"regime","trades":[` +
		`{"pnl_r":"1.5","pnl_usd":"150.10","regime":"TRENDING_UP"},{"pnl_r":"-1","pnl_usd":"-100.05"},` +
		`{"pnl_r":"2.3","pnl_usd":"230.00","regime":"RANGING"},{"pnl_r":"-0.4","pnl_usd":"-40.00","regime":"RANGING"}]}`},
	{"pnl_long", "calculate_pnl", `{"entry_price":"100.50","exit_price":"103.25","quantity":100,"direction":"LONG","stop_price":"99.00","fees":"2.10"}`},
	{"pnl_short", "calculate_pnl", `{"entry_price":"50","exit_price":"51.5","quantity":10,"direction":"short","stop_price":"52"}`},
	{"ev_parameters", "calculate_expected_value", `{"win_rate":"0.45","avg_win":"2.1","avg_loss":"-1"}`},
	{"ev_r", "calculate_expected_value", `{"r_multiples":` + statisticsR + `}`},
	{"trade_outcome", "analyze_trade_outcome", `{"realized_pnl":"250","realized_r":"2.5","mfe":"400","one_r_dollars":"100","expected_value_r":"0.4"}`},
	{"score_signal", "score_signal", `{"conditions_met":4,"total_conditions":5,"regime_aligned":true,"indicator_confluence":2,"volume_confirmed":false,"risk_reward_ratio":"2.5"}`},
}

// callTool runs tool through the default catalog with raw JSON arguments and
// returns the JSON of the result.
func callTool(t *testing.T, tool, args string) (json.RawMessage, error) {
	t.Helper()
	out, err := runTool(Default(), context.Background(), tool, Call{Arguments: json.RawMessage(args)})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	require.NoError(t, err, tool)
	return b, nil
}

func TestPerformanceStatisticsGolden(t *testing.T) {
	got := map[string]json.RawMessage{}
	for _, c := range statisticsGoldenCalls {
		out, err := callTool(t, c.tool, c.args)
		require.NoError(t, err, c.name)
		got[c.name] = out
	}
	golden.Check(t, statisticsGoldenFile, got)
}

func TestPerformanceStatisticsToolsAreRegistered(t *testing.T) {
	c := Default()
	for _, name := range []string{
		"analyze_confidence", "analyze_consistency", "analyze_correlation", "analyze_distribution",
		"analyze_risk_adjusted", "analyze_execution_quality", "segment_trades", "calculate_pnl",
		"calculate_expected_value", "analyze_trade_outcome", "score_signal",
	} {
		tool, ok := c.Lookup(name)
		require.True(t, ok, name)
		assert.Equal(t, "performance", tool.Category, name)
		assert.NotEmpty(t, tool.Description, name)
	}
}

// TestPerformanceStatisticsBadInput: every bad-input rule of issue 5 for these
// tools, through the catalog, names the field and the rule.
func TestPerformanceStatisticsBadInput(t *testing.T) {
	cases := []struct{ tool, args, want string }{
		// fewer items than the minimum
		{"analyze_confidence", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"analyze_consistency", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"analyze_correlation", `{"r_multiples":["1","2"]}`, "r_multiples: at least"},
		{"analyze_distribution", `{"r_multiples":[]}`, "r_multiples: at least"},
		{"analyze_risk_adjusted", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"analyze_execution_quality", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"segment_trades", `{"trades":[]}`, "trades: at least"},
		{"calculate_expected_value", `{"r_multiples":["1"]}`, "r_multiples: at least"},
		{"analyze_confidence", `{}`, "Missing required argument: r_multiples"},
		// mismatched parallel arrays
		{"analyze_execution_quality", `{"r_multiples":["1","2"],"mae_values":["1"]}`, "mae_values: must have the same length as r_multiples (2), got 1"},
		{"analyze_execution_quality", `{"r_multiples":["1","2"],"mfe_values":["1","2","3"]}`, "mfe_values: must have the same length"},
		{"analyze_execution_quality", `{"r_multiples":["1","2"],"hold_times_hours":[]}`, "hold_times_hours: must have the same length"},
		{"analyze_consistency", `{"r_multiples":["1","2"],"dates":["2024-01-01"]}`, "dates: must have the same length"},
		// NaN, Inf, empty strings
		{"analyze_confidence", `{"r_multiples":["1","NaN"]}`, `r_multiples[1]: "NaN" is not a number like`},
		{"analyze_distribution", `{"r_multiples":["1","Inf"]}`, `r_multiples[1]: "Inf" is not a number like`},
		{"analyze_risk_adjusted", `{"r_multiples":["1",""]}`, `r_multiples[1]: "" is not a number like`},
		{"analyze_consistency", `{"r_multiples":["1","2"],"dates":["2024-01-01",""]}`, `dates: item 1 ("") must be YYYY-MM-DD`},
		{"calculate_pnl", `{"entry_price":"","exit_price":"1","quantity":1,"direction":"LONG"}`, `entry_price: "" is not a number like`},
		{"segment_trades", `{"trades":[{"pnl_r":"1","pnl_usd":"1","symbol":""}]}`, "trades[0].symbol: must not be empty"},
		{"analyze_trade_outcome", `{"realized_pnl":"1","realized_r":"Infinity","mfe":"1","one_r_dollars":"1"}`, `realized_r: "Infinity" is not a number like`},
		// bucket_count < 1, window larger than the series, counts over the max
		{"analyze_distribution", `{"r_multiples":["1","2"],"bucket_count":0}`, "bucket_count: must be at least"},
		{"analyze_distribution", `{"r_multiples":["1","2"],"bucket_count":1001}`, "bucket_count: must be at most"},
		{"analyze_consistency", `{"r_multiples":["1","2","3"],"window_size":4}`, "window_size: must be between 2 and min(number of r_multiples, 1000) = 3, got 4"},
		{"analyze_correlation", `{"r_multiples":["1","2","3"],"lags":3}`, "lags: must be between 1 and 2"},
		{"analyze_confidence", `{"r_multiples":["1","2"],"bootstrap_samples":10001}`, "bootstrap_samples: must be at most"},
		{"analyze_confidence", `{"r_multiples":["1","2"],"confidence":"1.5"}`, "confidence: must be between 0.5 and 0.999"},
		{"analyze_confidence", `{"r_multiples":["1","2"],"confidence":0}`, "confidence: must be between"},
		// enums and ranges
		{"segment_trades", `{"trades":[{"pnl_r":"1","pnl_usd":"1"}],"segment_by":"hour"}`, "segment_by: must be one of"},
		{"segment_trades", `{"trades":[{"pnl_r":"1","pnl_usd":"1","day_of_week":7}]}`, "trades[0].day_of_week: must be at most"},
		{"segment_trades", `{"trades":[{"pnl_r":"1"}]}`, "Missing required argument: trades[0].pnl_usd"},
		{"calculate_pnl", `{"entry_price":"10","exit_price":"11","quantity":1,"direction":"up"}`, "direction: must be one of"},
		{"calculate_pnl", `{"entry_price":"10","exit_price":"11","quantity":0,"direction":"LONG"}`, "quantity: must be at least"},
		{"calculate_pnl", `{"entry_price":"10","exit_price":"11","quantity":1.5,"direction":"LONG"}`, "quantity: must be a whole number, got 1.5"},
		{"calculate_pnl", `{"entry_price":"10","exit_price":"11","quantity":1,"direction":"long","stop_price":"12"}`, "stop_price: must be below entry_price"},
		{"calculate_pnl", `{"entry_price":"0","exit_price":"11","quantity":1,"direction":"long"}`, "entry_price: must be greater than 0"},
		{"calculate_expected_value", `{}`, "win_rate: is required unless r_multiples is given"},
		{"calculate_expected_value", `{"win_rate":"2","avg_win":"1","avg_loss":"1"}`, "win_rate: must be a fraction"},
		{"calculate_expected_value", `{"win_rate":"0.5","avg_win":"1","avg_loss":"1","r_multiples":["1","2"]}`, "r_multiples: give either"},
		{"analyze_trade_outcome", `{"realized_pnl":"1","realized_r":"1","mfe":"1","one_r_dollars":"0"}`, "one_r_dollars: must be greater than 0"},
		{"analyze_trade_outcome", `{"realized_pnl":"1","realized_r":"1","mfe":"-1","one_r_dollars":"1"}`, "mfe: must be at least 0"},
		{"score_signal", `{"conditions_met":3,"total_conditions":2}`, "conditions_met: must be between 0 and total_conditions (2)"},
		{"score_signal", `{"conditions_met":0,"total_conditions":0}`, "total_conditions: must be at least"},
		{"score_signal", `{"conditions_met":1,"total_conditions":2,"risk_reward_ratio":"-1"}`, "risk_reward_ratio: must be a finite number >= 0"},
		{"analyze_risk_adjusted", `{"r_multiples":["1","2"],"trades_per_year":"0"}`, "trades_per_year: must be greater than 0"},
		{"analyze_execution_quality", `{"r_multiples":["1","2"],"hold_times_hours":["1","-1"]}`, "hold_times_hours: item 1 must not be negative"},
		{"analyze_correlation", `{"r_multiples":["1","2","3"],"extra":1}`, "Unknown argument: extra"},
	}
	for _, c := range cases {
		_, err := callTool(t, c.tool, c.args)
		require.Error(t, err, "%s %s", c.tool, c.args)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%s %s: %v", c.tool, c.args, err)
		assert.Contains(t, toolkit.MessageOf(err), c.want, "%s %s", c.tool, c.args)
	}
}

func TestPerformanceStatisticsTooLarge(t *testing.T) {
	big := "[" + strings.Repeat(`"1",`, limits.MaxItems) + `"1"]`
	for _, c := range []struct{ tool, args string }{
		{"analyze_confidence", `{"r_multiples":` + big + `}`},
		{"analyze_distribution", `{"r_multiples":` + big + `}`},
		{"analyze_execution_quality", `{"r_multiples":["1","2"],"mae_values":` + big + `}`},
	} {
		_, err := callTool(t, c.tool, c.args)
		require.Error(t, err, c.tool)
		assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err), "%s: %v", c.tool, err)
	}
}
