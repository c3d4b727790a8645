package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barsJSON renders n deterministic wavy bars as a JSON array of decimal
// strings.
func barsJSON(n int) string {
	var sb strings.Builder
	sb.WriteByte('[')
	p := 100.0
	for i := 0; i < n; i++ {
		o := p
		p *= 1 + 0.01*math.Sin(float64(i)*0.37) + 0.004*math.Cos(float64(i)*1.7)
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"open":"%.4f","high":"%.4f","low":"%.4f","close":"%.4f","volume":"1000"}`,
			o, math.Max(o, p)*1.003, math.Min(o, p)*0.997, p)
	}
	sb.WriteByte(']')
	return sb.String()
}

// callPatternTool runs tool name with the raw arguments and returns the result as
// a generic JSON object.
func callPatternTool(t *testing.T, name, args string) (map[string]any, any, error) {
	t.Helper()
	out, err := runTool(Default(), context.Background(), name, Call{Arguments: json.RawMessage(args)})
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m, out, nil
}

func TestMarketPatternToolsAnswerThroughTheCatalog(t *testing.T) {
	c := Default()
	for _, name := range []string{"detect_patterns", "detect_structural_break", "analyze_price_structure"} {
		tool, ok := c.Lookup(name)
		require.True(t, ok, name)
		assert.Equal(t, "market", tool.Category)
		assert.Equal(t, name, tool.Operation)
		assert.Contains(t, tool.InputSchema.Required, "bars")
	}

	m, out, err := callPatternTool(t, "detect_patterns", `{"bars":`+barsJSON(120)+`,"breakout_period":15}`)
	require.NoError(t, err)
	assert.True(t, IsChargeable(out))
	assert.EqualValues(t, 120, m["bars_analyzed"])
	assert.EqualValues(t, 15, m["breakout_period"])
	ps := m["patterns"].([]any)
	require.NotEmpty(t, ps)
	p := ps[0].(map[string]any)
	for _, k := range []string{"index", "start_index", "name", "type", "direction", "strength"} {
		assert.Contains(t, p, k)
	}
	assert.Contains(t, m["summary"], "recent_bias")

	m, _, err = callPatternTool(t, "detect_structural_break", `{"bars":`+barsJSON(260)+`,"alpha":"0.01","trim":0.2}`)
	require.NoError(t, err)
	assert.Equal(t, "0.01", m["alpha"])
	assert.Equal(t, "0.2", m["trim"])
	for _, k := range []string{"break_detected", "break_index", "sup_f", "cusum", "before", "after", "mean_shift", "volatility_ratio"} {
		assert.Contains(t, m, k)
	}
	supF := m["sup_f"].(map[string]any)
	assert.IsType(t, "", supF["p_value"], "statistics travel as decimal strings")

	m, _, err = callPatternTool(t, "analyze_price_structure", `{"bars":`+barsJSON(80)+`,"swing_window":3,"consolidation_window":6}`)
	require.NoError(t, err)
	assert.EqualValues(t, 3, m["swing_window"])
	for _, k := range []string{"swing_highs", "swing_lows", "sequence", "structure", "support", "resistance",
		"consolidation_zones", "pivots", "break_of_structure", "last_swing_high", "last_swing_low"} {
		assert.Contains(t, m, k)
	}
}

func TestMarketPatternToolsInsufficientBars(t *testing.T) {
	cases := []struct {
		name     string
		required int
	}{{"detect_patterns", 35}, {"detect_structural_break", 221}, {"analyze_price_structure", 21}}
	for _, tc := range cases {
		for _, n := range []int{0, 1, tc.required - 1} {
			m, out, err := callPatternTool(t, tc.name, `{"bars":`+barsJSON(n)+`}`)
			require.NoError(t, err, "%s with %d bars", tc.name, n)
			assert.False(t, IsChargeable(out), "an insufficient_bars answer is never charged")
			assert.Equal(t, "insufficient_bars", m["error"])
			assert.EqualValues(t, n, m["bars_provided"])
			assert.EqualValues(t, tc.required, m["bars_required"])
			assert.Contains(t, m["message"], tc.name)
		}
		_, out, err := callPatternTool(t, tc.name, `{"bars":`+barsJSON(tc.required)+`}`)
		require.NoError(t, err)
		assert.True(t, IsChargeable(out), "%s answers at exactly its minimum", tc.name)
	}
}

func TestMarketPatternToolsBadInput(t *testing.T) {
	good := barsJSON(40)
	withBar := func(i int, bar string) string {
		var bars []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(good), &bars))
		bars[i] = json.RawMessage(bar)
		b, err := json.Marshal(bars)
		require.NoError(t, err)
		return string(b)
	}
	cases := []struct {
		tool, args, want string
	}{
		{"detect_patterns", `{}`, "Missing required argument: bars"},
		{"detect_patterns", `{"bars":"x"}`, "bars: expected"},
		{"detect_patterns", `{"bars":` + good + `,"extra":1}`, "Unknown argument: extra"},
		{"detect_patterns", `{"bars":` + withBar(3, `{"open":"1","high":"0.5","low":"0.9","close":"1","volume":"1"}`) + `}`, "bars[3]: high 0.5 is below low 0.9"},
		{"detect_patterns", `{"bars":` + withBar(2, `{"open":"0","high":"1","low":"0.5","close":"1","volume":"1"}`) + `}`, "bars[2]: prices must be positive"},
		{"detect_patterns", `{"bars":` + withBar(5, `{"open":"1","high":"1","low":"1","close":"1","volume":"-3"}`) + `}`, "bars[5]: volume must not be negative"},
		{"detect_patterns", `{"bars":` + withBar(1, `{"open":"1","high":"1","low":"1","close":"1"}`) + `}`, "Missing required argument: bars[1].volume"},
		{"detect_patterns", `{"bars":` + withBar(1, `{"open":"1","high":"1","low":"1","close":"abc","volume":"1"}`) + `}`, `bars[1].close: "abc" is not a number like`},
		{"detect_patterns", `{"bars":` + withBar(1, `{"open":"1","high":"1","low":"1","close":"1","volume":"1","vwap":"1"}`) + `}`, "Unknown argument: bars[1].vwap"},
		{"detect_patterns", `{"bars":` + good + `,"breakout_period":3}`, "breakout_period: must be at least"},
		{"detect_patterns", `{"bars":` + good + `,"breakout_period":101}`, "breakout_period: must be at most"},
		{"detect_patterns", `{"bars":` + good + `,"breakout_period":"20"}`, "breakout_period: expected"},
		{"detect_structural_break", `{"bars":` + barsJSON(230) + `,"alpha":"0.5"}`, "alpha: must be between 0.001 and 0.2"},
		{"detect_structural_break", `{"bars":` + barsJSON(230) + `,"trim":"0.45"}`, "trim: must be between 0.05 and 0.3"},
		{"detect_structural_break", `{"bars":` + barsJSON(230) + `,"trim":"0.1x"}`, `trim: "0.1x" is not a number like`},
		{"detect_structural_break", `{"bars":` + withBar(0, `{"open":"1","high":"0.5","low":"0.9","close":"1","volume":"1"}`) + `}`, "bars[0]: high 0.5 is below low 0.9"},
		{"analyze_price_structure", `{"bars":` + good + `,"swing_window":0}`, "swing_window: must be at least"},
		{"analyze_price_structure", `{"bars":` + good + `,"swing_window":11}`, "swing_window: must be at most"},
		{"analyze_price_structure", `{"bars":` + good + `,"consolidation_window":4}`, "consolidation_window: must be at least"},
		{"analyze_price_structure", `{"bars":` + good + `,"consolidation_window":51}`, "consolidation_window: must be at most"},
		{"analyze_price_structure", `[1]`, "arguments must be a JSON object"},
	}
	for _, tc := range cases {
		_, _, err := callPatternTool(t, tc.tool, tc.args)
		require.Error(t, err, "%s %s", tc.tool, tc.want)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), tc.want)
		assert.Contains(t, toolkit.MessageOf(err), tc.want)
	}
}
