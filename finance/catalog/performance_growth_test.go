package catalog

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const growthR = `["1.5","-1.0","2.3","-0.5","1.8","-1.0","3.2","0.8","-1.2","0.4","-0.7","2.0"]`

// callGrowthTool runs a tool through the default catalog and decodes the JSON
// of its result into a map.
func callGrowthTool(t *testing.T, name, args string) (map[string]any, error) {
	t.Helper()
	return callJSON(t, name, finance.AgentLimits{}, args)
}

func TestPerformanceGrowthToolsJSON(t *testing.T) {
	cases := []struct {
		tool, args string
		keys       []string
		check      func(t *testing.T, m map[string]any)
	}{
		{"run_monte_carlo", `{"r_multiples":` + growthR + `,"starting_equity":"100000","num_simulations":500,"trades_per_simulation":50,"seed":42}`,
			[]string{"probability_of_profit", "probability_20pct_gain", "probability_20pct_drawdown", "probability_50pct_drawdown", "median_final_equity", "mean_final_equity", "p5_final_equity", "p95_final_equity", "best_case", "worst_case", "median_max_drawdown"},
			func(t *testing.T, m map[string]any) {
				assert.EqualValues(t, 42, m["seed"])
				assert.EqualValues(t, 500, m["num_simulations"])
				assert.EqualValues(t, 50, m["trades_per_simulation"])
			}},
		{"calculate_kelly", `{"r_multiples":` + growthR + `}`,
			[]string{"full_kelly", "half_kelly", "quarter_kelly", "risk_of_ruin", "kelly_fraction"}, nil},
		{"analyze_drawdown", `{"equity_values":["101000","99000","102000","98000","97000"],"starting_equity":"100000","net_profit":"-3000"}`,
			[]string{"max_drawdown_pct", "max_drawdown_usd", "current_drawdown", "avg_drawdown", "drawdown_count", "longest_duration", "time_in_drawdown", "recovery_factor", "ulcer_index", "drawdown_periods", "recovery_trades"},
			func(t *testing.T, m map[string]any) {
				assert.Equal(t, "5000", m["max_drawdown_usd"])
				assert.EqualValues(t, 2, m["drawdown_count"])
				assert.Equal(t, "-0.6", m["recovery_factor"])
			}},
		{"analyze_drawdown", `{"r_multiples":` + growthR + `,"starting_equity":100000,"risk_per_trade":"0.02"}`,
			[]string{"max_drawdown_pct", "drawdown_periods"}, nil},
		{"find_variance_killers", `{"r_multiples":["1","-1","-6","1.2"],"trade_ids":["a","b","c","d"],"symbols":["X","Y","Z","W"]}`,
			[]string{"killers", "g"},
			func(t *testing.T, m map[string]any) {
				k := m["killers"].([]any)[0].(map[string]any)
				assert.EqualValues(t, 2, k["index"])
				assert.Equal(t, "c", k["trade_id"])
				assert.Equal(t, "Z", k["symbol"])
				assert.Equal(t, "-6", k["r_multiple"])
				assert.Contains(t, k, "g_impact")
			}},
		{"analyze_win_loss", `{"r_multiples":["1","-1","0","2"],"pnl_values":["100.50","-99.50","0","201"]}`,
			[]string{"win_rate", "average_win_r", "average_loss_r", "payoff_ratio", "profit_factor", "expectancy", "longest_winning_streak", "longest_losing_streak", "breakeven_rule", "pnl"},
			func(t *testing.T, m map[string]any) {
				assert.Equal(t, "0.5", m["win_rate"])
				assert.Equal(t, "202.00", m["pnl"].(map[string]any)["total_pnl"])
			}},
		{"run_what_if", `{"r_multiples":` + growthR + `,"remove_count":2,"skip_after_losses":1}`,
			[]string{"baseline", "scenarios", "parameters", "best_scenario"},
			func(t *testing.T, m map[string]any) {
				assert.Len(t, m["scenarios"], 5)
				assert.EqualValues(t, 2, m["parameters"].(map[string]any)["remove_count"])
			}},
		{"calculate_rolling_g", `{"r_multiples":` + growthR + `,"window_size":4}`,
			[]string{"rolling_g", "trend", "trend_rule", "block_g"},
			func(t *testing.T, m map[string]any) { assert.Len(t, m["rolling_g"], 9) }},
		{"calculate_equity_curve", `{"r_multiples":["1","-1"],"starting_equity":"1000","risk_per_trade":"0.1","trades_per_year":"2"}`,
			[]string{"total_return", "max_drawdown_pct", "equity_curve", "cagr"},
			func(t *testing.T, m map[string]any) {
				assert.Equal(t, []any{"1000", "1100", "990"}, m["equity_curve"])
				cagr, err := strconv.ParseFloat(m["cagr"].(string), 64)
				require.NoError(t, err)
				assert.InDelta(t, -0.01, cagr, 1e-15) // (990/1000)^(2/2) - 1
			}},
		{"calculate_system_score", `{"r_multiples":` + growthR + `}`,
			[]string{"system_r_score", "grade", "components"}, nil},
		{"detect_peak_valley", `{"equity_values":["101","99","98"],"starting_equity":"100"}`,
			[]string{"state", "peaks", "valleys", "distance_from_peak_pct"},
			func(t *testing.T, m map[string]any) { assert.Equal(t, "AT_VALLEY", m["state"]) }},
		{"analyze_recovery", `{"r_multiples":` + growthR + `}`,
			[]string{"drawdowns", "average_recovery_trades", "longest_recovery_trades", "recovery_factor"},
			func(t *testing.T, m map[string]any) { assert.Equal(t, "100000", m["initial_equity"]) }},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			m, err := callGrowthTool(t, c.tool, c.args)
			require.NoError(t, err)
			for _, k := range c.keys {
				assert.Contains(t, m, k)
			}
			if c.check != nil {
				c.check(t, m)
			}
		})
	}
}

func TestPerformanceGrowthToolsBadInput(t *testing.T) {
	big := "[" + strings.Repeat(`"1",`, limits.MaxItems) + `"1"]`
	cases := []struct {
		tool, args, msg string
		kind            toolkit.Kind
	}{
		{"run_monte_carlo", `{"r_multiples":["1"],"starting_equity":"1"}`, "r_multiples: at least", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","NaN"],"starting_equity":"1"}`, "r_multiples[1]", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","-1"],"starting_equity":"1","num_simulations":10001}`, "num_simulations: must be at most", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","-1"],"starting_equity":"1","trades_per_simulation":1001}`, "trades_per_simulation: must be at most", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","-1"],"starting_equity":"0"}`, "starting_equity: must be", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","-1"],"starting_equity":"1","risk_per_trade":"0"}`, "risk_per_trade: must be greater than 0", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":["1","-1"],"starting_equity":""}`, "starting_equity", toolkit.Invalid},
		{"run_monte_carlo", `{"r_multiples":` + big + `,"starting_equity":"1"}`, "at most 100000", toolkit.TooLarge},
		{"calculate_kelly", `{"r_multiples":["1"]}`, "r_multiples: at least", toolkit.Invalid},
		{"analyze_drawdown", `{"starting_equity":"1"}`, "equity_values", toolkit.Invalid},
		{"analyze_drawdown", `{"equity_values":["1"],"r_multiples":["1"],"starting_equity":"1"}`, "either equity_values or r_multiples", toolkit.Invalid},
		{"analyze_drawdown", `{"equity_values":["-1"],"starting_equity":"1"}`, "equity_values: item 0 must be >= 0", toolkit.Invalid},
		{"analyze_drawdown", `{"equity_values":[],"starting_equity":"1"}`, "equity_values: at least", toolkit.Invalid},
		{"find_variance_killers", `{"r_multiples":["1","2"],"trade_ids":["a"]}`, "trade_ids: must have the same length", toolkit.Invalid},
		{"find_variance_killers", `{"r_multiples":["1","2"],"symbols":["a","b","c"]}`, "symbols: must have the same length", toolkit.Invalid},
		{"find_variance_killers", `{"r_multiples":["1","2"],"symbols":["a",""]}`, "symbols[1]: must not be empty", toolkit.Invalid},
		{"find_variance_killers", `{"r_multiples":["1"]}`, "r_multiples: at least", toolkit.Invalid},
		{"analyze_win_loss", `{"r_multiples":["1","2"],"pnl_values":["1"]}`, "pnl_values: must have the same length", toolkit.Invalid},
		{"analyze_win_loss", `{"r_multiples":[]}`, "r_multiples: at least", toolkit.Invalid},
		{"run_what_if", `{"r_multiples":["1","2"],"remove_count":2}`, "remove_count: must be between 1 and 1", toolkit.Invalid},
		{"run_what_if", `{"r_multiples":["1","2"],"winner_scale":"0"}`, "winner_scale: must be greater than 0", toolkit.Invalid},
		{"run_what_if", `{"r_multiples":["1"]}`, "r_multiples: at least", toolkit.Invalid},
		{"calculate_rolling_g", `{"r_multiples":["1","2","3"],"window_size":4}`, "window_size: must not exceed the number of r_multiples", toolkit.Invalid},
		{"calculate_rolling_g", `{"r_multiples":["1","2","3"],"window_size":1}`, "window_size: must be at least", toolkit.Invalid},
		{"calculate_equity_curve", `{"r_multiples":["1"],"risk_per_trade":"1.5"}`, "risk_per_trade: must be a fraction", toolkit.Invalid},
		{"calculate_equity_curve", `{"r_multiples":["1"],"trades_per_year":"0"}`, "trades_per_year: must be greater than 0", toolkit.Invalid},
		{"calculate_system_score", `{"r_multiples":["1"]}`, "r_multiples: at least", toolkit.Invalid},
		{"detect_peak_valley", `{"equity_values":["1"],"starting_equity":"-5"}`, "starting_equity: must be", toolkit.Invalid},
		{"detect_peak_valley", `{"equity_values":["1"]}`, "Missing required argument: starting_equity", toolkit.Invalid},
		{"analyze_recovery", `{"r_multiples":["1"],"initial_equity":"0"}`, "initial_equity: must be greater than 0", toolkit.Invalid},
		{"analyze_recovery", `{"r_multiples":["1"],"risk_per_trade":"0"}`, "risk_per_trade: must be greater than 0", toolkit.Invalid},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.msg, func(t *testing.T) {
			_, err := callGrowthTool(t, c.tool, c.args)
			require.Error(t, err)
			assert.Equal(t, c.kind, toolkit.KindOf(err), toolkit.MessageOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.msg)
		})
	}
}

// TestMonteCarloToolDerivesAndEchoesSeed: without a seed the tool derives
// one from its canonical arguments, so the same question in another
// number form gets the same answer, and says so; sending that seed back
// reproduces the run.
func TestMonteCarloToolDerivesAndEchoesSeed(t *testing.T) {
	args := `{"r_multiples":["1","-1","0.5"],"starting_equity":"1000","num_simulations":50,"trades_per_simulation":10}`
	m, err := callGrowthTool(t, "run_monte_carlo", args)
	require.NoError(t, err)
	assert.Equal(t, "derived", m["seed_from"])
	assert.Contains(t, m["method"], "derived from the canonical arguments")
	seed := m["seed"].(float64)
	assert.LessOrEqual(t, seed, float64(1<<53-1))
	same, err := callGrowthTool(t, "run_monte_carlo",
		`{"trades_per_simulation":10,"r_multiples":[1.0,"-1.00",5e-1],"starting_equity":1e3,"num_simulations":50,"risk_per_trade":"0.01"}`)
	require.NoError(t, err)
	assert.Equal(t, m, same, "the same arguments in other forms, the default written out")
	again, err := callGrowthTool(t, "run_monte_carlo", strings.TrimSuffix(args, "}")+`,"seed":`+strconv.FormatUint(uint64(seed), 10)+`}`)
	require.NoError(t, err)
	assert.Equal(t, "given", again["seed_from"])
	again["seed_from"] = "derived"
	assert.Equal(t, m, again)
}
