package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callIndicatorTool runs a tool through the default catalog and returns its result
// as generic JSON.
func callIndicatorTool(t *testing.T, tool, args string) (map[string]any, any) {
	t.Helper()
	out, err := runTool(Default(), context.Background(), tool, Call{Arguments: json.RawMessage(args)})
	require.NoError(t, err, args)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m, out
}

func TestCalculateIndicatorsThroughCatalog(t *testing.T) {
	bars := barsArg(60, 100, 0.001, 0.01)
	cases := []struct {
		args  string
		first float64
		keys  []string
	}{
		{`{"indicator":"sma","bars":` + bars + `}`, 19, []string{"value"}},
		{`{"indicator":"ema","period":5,"bars":` + bars + `}`, 4, []string{"value"}},
		{`{"indicator":"rsi","bars":` + bars + `}`, 14, []string{"value"}},
		{`{"indicator":"atr","period":7,"bars":` + bars + `}`, 7, []string{"value"}},
		{`{"indicator":"bb","nbdev":"2.5","bars":` + bars + `}`, 19, []string{"upper", "middle", "lower"}},
		{`{"indicator":"macd","bars":` + bars + `}`, 33, []string{"macd", "signal", "histogram"}},
	}
	for _, tc := range cases {
		m, out := callIndicatorTool(t, "calculate_indicators", tc.args)
		assert.True(t, IsChargeable(out))
		assert.Equal(t, tc.first, m["first_valid_index"], tc.args)
		series := m["series"].(map[string]any)
		for _, k := range tc.keys {
			s := series[k].([]any)
			require.Len(t, s, 60)
			assert.Nil(t, s[int(tc.first)-1], "warm-up slot is null")
			assert.IsType(t, "", s[int(tc.first)], "values are decimal strings")
			assert.Equal(t, s[59], m["latest"].(map[string]any)[k])
		}
	}
}

func TestCalculateIndicatorsPeriodIsStringOrNumber(t *testing.T) {
	// "period" is an integer in the schema: a string is rejected with the field named.
	_, err := runTool(Default(), context.Background(), "calculate_indicators",
		Call{Arguments: json.RawMessage(`{"indicator":"sma","period":"x","bars":` + barsArg(30, 100, 0, 0.01) + `}`)})
	require.Error(t, err)
	assert.Contains(t, toolkit.MessageOf(err), "period")
}

func TestMarketIndicatorToolsAnswerInsufficientBars(t *testing.T) {
	cases := []struct {
		tool, args string
		provided   float64
		required   float64
	}{
		{"detect_regime", `{"bars":` + barsArg(199, 100, 0, 0.01) + `}`, 199, 200},
		{"analyze_trend_structure", `{"bars":` + barsArg(20, 100, 0, 0.01) + `}`, 20, 21},
		{"analyze_liquidity", `{"bars":` + barsArg(1, 100, 0, 0.01) + `}`, 1, 2},
		{"calculate_indicators", `{"indicator":"macd","bars":` + barsArg(33, 100, 0, 0.01) + `}`, 33, 34},
		{"calculate_indicators", `{"indicator":"rsi","period":20,"bars":` + barsArg(20, 100, 0, 0.01) + `}`, 20, 21},
		{"analyze_correlations", `{"symbols_data":[{"symbol":"A","bars":` + barsArg(12, 100, 0, 0.01) +
			`},{"symbol":"B","bars":` + barsArg(9, 100, 0, 0.01) + `}]}`, 9, 10},
	}
	for _, tc := range cases {
		m, out := callIndicatorTool(t, tc.tool, tc.args)
		assert.False(t, IsChargeable(out), tc.tool)
		assert.Equal(t, "insufficient_bars", m["error"], tc.tool)
		assert.Equal(t, tc.provided, m["bars_provided"], tc.tool)
		assert.Equal(t, tc.required, m["bars_required"], tc.tool)
		assert.NotEmpty(t, m["message"])
	}
}

func TestMarketIndicatorToolsThroughCatalog(t *testing.T) {
	m, _ := callIndicatorTool(t, "detect_regime", `{"bars":`+barsArg(300, 100, 0.004, 0.004)+`}`)
	assert.Contains(t, []any{"TRENDING_UP", "TRENDING_DOWN", "RANGING", "LOW_VOLATILITY", "VOLATILE"}, m["regime"])
	assert.Contains(t, m["evidence"], "adx")
	assert.IsType(t, "", m["confidence"])

	m, _ = callIndicatorTool(t, "analyze_trend_structure", `{"bars":`+barsArg(80, 100, 0.001, 0.01)+`}`)
	assert.Contains(t, []any{"EXPANSION", "COMPRESSION", "TRANSITION"}, m["phase"])
	assert.Contains(t, []any{"NONE", "FORMING", "ACTIVE", "FIRING"}, m["squeeze"])
	assert.Contains(t, []any{"ACCELERATING", "DECELERATING", "STEADY"}, m["momentum"])

	m, _ = callIndicatorTool(t, "analyze_liquidity", `{"period":10,"bars":`+barsArg(80, 100, 0.001, 0.01)+`}`)
	assert.Contains(t, []any{"NORMAL", "THINNING", "STRESSED", "SPIKE"}, m["state"])
	assert.Equal(t, float64(10), m["period"])

	m, _ = callIndicatorTool(t, "analyze_correlations", `{"symbols_data":[{"symbol":"A","bars":`+barsArg(40, 100, 0.001, 0.01)+
		`},{"symbol":"B","bars":`+barsArg(30, 50, 0.002, 0.02)+`}]}`)
	assert.Equal(t, []any{"A", "B"}, m["symbols"])
	assert.Len(t, m["pairs"], 1)
	assert.Equal(t, float64(29), m["pairs"].([]any)[0].(map[string]any)["n"])
}

func TestMarketIndicatorToolsRejectBadInput(t *testing.T) {
	good := barsArg(30, 100, 0, 0.01)
	cases := []struct{ tool, args, want string }{
		{"calculate_indicators", `{"bars":` + good + `}`, "Missing required argument: indicator"},
		{"calculate_indicators", `{"indicator":"vwap","bars":` + good + `}`, "indicator: must be one of"},
		{"calculate_indicators", `{"indicator":"sma","period":1,"bars":` + good + `}`, "period: must be at least"},
		{"calculate_indicators", `{"indicator":"macd","fast_period":26,"slow_period":12,"bars":` + good + `}`, "fast_period: must be less than slow_period"},
		{"calculate_indicators", `{"indicator":"bb","nbdev":"0","bars":` + good + `}`, "nbdev: must be greater than 0"},
		{"calculate_indicators", `{"indicator":"sma","bars":[]}`, "bars: at least"},
		{"calculate_indicators", `{"indicator":"sma","bars":[{"open":"1","high":"1","low":"1","close":"1"}]}`, "volume"},
		{"calculate_indicators", `{"indicator":"sma","bars":[{"open":"1","high":"1","low":"1","close":"x","volume":"1"}]}`, `"x" is not a number like`},
		{"calculate_indicators", `{"indicator":"sma","bars":[{"open":"1","high":"1","low":"1","close":"1","volume":"1","vwap":"1"}]}`, "vwap"},
		{"detect_regime", `{"bars":[{"open":"1","high":"0.5","low":"1","close":"1","volume":"1"}]}`, "bars[0]: high 0.5 is below low 1"},
		{"detect_regime", `{"bars":[{"open":"1","high":"1","low":"1","close":"1","volume":"1"},{"open":"0","high":"1","low":"1","close":"1","volume":"1"}]}`, "bars[1]: prices must be positive"},
		{"analyze_liquidity", `{"bars":[{"open":"1","high":"1","low":"1","close":"1","volume":"-1"},{"open":"1","high":"1","low":"1","close":"1","volume":"1"}]}`, "bars[0]: volume must not be negative"},
		{"analyze_liquidity", `{"period":1,"bars":` + good + `}`, "period: must be at least"},
		{"analyze_trend_structure", `{}`, "Missing required argument: bars"},
		{"analyze_correlations", `{"symbols_data":[{"symbol":"A","bars":` + good + `}]}`, "symbols_data: at least"},
		{"analyze_correlations", `{"symbols_data":[{"symbol":"A","bars":` + good + `},{"symbol":"A","bars":` + good + `}]}`, `symbol "A" is repeated`},
		{"analyze_correlations", `{"symbols_data":[{"symbol":"","bars":` + good + `},{"symbol":"B","bars":` + good + `}]}`, "symbol"},
		{"analyze_correlations", `{"symbols_data":[{"symbol":"A","bars":[{"open":"1","high":"1","low":"2","close":"1","volume":"1"}]},{"symbol":"B","bars":` + good + `}]}`, "symbols_data[0].bars[0]: high 1 is below low 2"},
	}
	for _, tc := range cases {
		_, err := runTool(Default(), context.Background(), tc.tool, Call{Arguments: json.RawMessage(tc.args)})
		require.Error(t, err, tc.args)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), tc.args)
		assert.Contains(t, toolkit.MessageOf(err), tc.want, tc.args)
	}
}
