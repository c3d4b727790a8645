package market

import (
	"context"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// findPattern returns the patterns called name.
func findPattern(r *PatternReport, name string) []Pattern {
	var out []Pattern
	for _, p := range r.Patterns {
		if p.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// rangeThen returns n closes oscillating 100 ± 1 followed by tail.
func rangeThen(n int, tail ...float64) []float64 {
	c := make([]float64, 0, n+len(tail))
	for i := 0; i < n; i++ {
		c = append(c, 100+float64(i%2*2-1)*0.5)
	}
	return append(c, tail...)
}

func TestChartPatternTextbookCases(t *testing.T) {
	t.Run("breakout and breakdown", func(t *testing.T) {
		up, err := result(DetectPatterns(context.Background(), pathBars(rangeThen(40, 103, 104), 0.25), PatternOptions{}))
		require.NoError(t, err)
		ps := findPattern(up, "breakout")
		require.Len(t, ps, 1, "only the first bar beyond the range is a breakout")
		assert.Equal(t, 40, ps[0].Index)
		assert.Equal(t, 20, ps[0].StartIndex)
		assert.InDelta(t, 100.75, float64(ps[0].Level), 1e-12) // highest high of the 20 prior bars
		assert.Equal(t, PatternBullish, ps[0].Direction)
		assert.Equal(t, 100, ps[0].Strength) // 2.25 beyond the level is > 1 ATR
		down, err := result(DetectPatterns(context.Background(), pathBars(rangeThen(40, 99.1), 0.25), PatternOptions{}))
		require.NoError(t, err)
		ps = findPattern(down, "breakdown")
		require.Len(t, ps, 1)
		assert.Equal(t, 40, ps[0].Index)
		assert.InDelta(t, 99.25, float64(ps[0].Level), 1e-12)
		// 0.15 below the level with ATR ~1.5 -> 50 + 50·0.15/ATR
		atr := rangeScale(new(scratch), Columns(pathBars(rangeThen(40, 99.1), 0.25)))[40]
		assert.Equal(t, patternStrength(50+50*0.15/atr), ps[0].Strength)
		// a shorter breakout period sees the same break
		short, err := result(DetectPatterns(context.Background(), pathBars(rangeThen(40, 103), 0.25), PatternOptions{BreakoutPeriod: ref(5)}))
		require.NoError(t, err)
		assert.Equal(t, 5, short.BreakoutPeriod)
		require.Len(t, findPattern(short, "breakout"), 1)
	})
	t.Run("gaps", func(t *testing.T) {
		closes := rangeThen(40)
		bars := pathBars(closes, 0.25)
		bars = append(bars, Bar{Open: 102, High: 103, Low: 101.8, Close: 102.5, Volume: 1},
			Bar{Open: 98, High: 98.5, Low: 97, Close: 97.5, Volume: 1})
		r, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
		require.NoError(t, err)
		up, down := findPattern(r, "gap_up"), findPattern(r, "gap_down")
		require.Len(t, up, 1)
		require.Len(t, down, 1)
		assert.Equal(t, 40, up[0].Index)
		assert.Equal(t, 41, down[0].Index)
		assert.InDelta(t, float64(bars[39].High), float64(up[0].Level), 0)
		assert.InDelta(t, 101.8, float64(down[0].Level), 0)
		assert.Equal(t, patternStrength(100*(101.8-float64(bars[39].High))/rangeScale(new(scratch), Columns(bars))[39]), up[0].Strength)
	})
	t.Run("moving-average crossover", func(t *testing.T) {
		closes := linePath([2]float64{0, 120}, [2]float64{40, 100}, [2]float64{70, 115})
		r, err := result(DetectPatterns(context.Background(), pathBars(closes, 0.2), PatternOptions{}))
		require.NoError(t, err)
		ps := findPattern(r, "bullish_ma_crossover")
		require.Len(t, ps, 1)
		fast, slow := bruteSMA(closes, 10), bruteSMA(closes, 30)
		want := -1
		for i := 30; i < len(closes); i++ {
			if fast[i-1] < slow[i-1] && fast[i] > slow[i] {
				want = i
				break
			}
		}
		assert.Equal(t, want, ps[0].Index)
		assert.Equal(t, 75, ps[0].Strength, "close above both averages, slow SMA still falling")
		assert.Empty(t, findPattern(r, "bearish_ma_crossover"))
	})
	t.Run("double top and bottom", func(t *testing.T) {
		top := linePath([2]float64{0, 100}, [2]float64{20, 110}, [2]float64{28, 104}, [2]float64{36, 110}, [2]float64{48, 101})
		r, err := result(DetectPatterns(context.Background(), pathBars(top, 0.2), PatternOptions{}))
		require.NoError(t, err)
		ps := findPattern(r, "double_top")
		require.Len(t, ps, 1)
		assert.Equal(t, 20, ps[0].StartIndex)
		assert.InDelta(t, 103.8, float64(ps[0].Level), 1e-9) // the trough's low is the neckline
		assert.Less(t, top[ps[0].Index], 103.8)
		assert.GreaterOrEqual(t, top[ps[0].Index-1], 103.8, "reported at the first close below the neckline")
		assert.Equal(t, PatternBearish, ps[0].Direction)
		assert.GreaterOrEqual(t, ps[0].Strength, 60)

		bottom := linePath([2]float64{0, 110}, [2]float64{20, 100}, [2]float64{28, 106}, [2]float64{36, 100}, [2]float64{48, 109})
		r, err = result(DetectPatterns(context.Background(), pathBars(bottom, 0.2), PatternOptions{}))
		require.NoError(t, err)
		ps = findPattern(r, "double_bottom")
		require.Len(t, ps, 1)
		assert.InDelta(t, 106.2, float64(ps[0].Level), 1e-9)
		assert.Equal(t, PatternBullish, ps[0].Direction)

		// unequal peaks (second 3 ATR higher) are no double top
		uneven := linePath([2]float64{0, 100}, [2]float64{20, 110}, [2]float64{28, 104}, [2]float64{36, 114}, [2]float64{50, 101})
		r, err = result(DetectPatterns(context.Background(), pathBars(uneven, 0.2), PatternOptions{}))
		require.NoError(t, err)
		assert.Empty(t, findPattern(r, "double_top"))
	})
	t.Run("RSI divergence", func(t *testing.T) {
		// a steep fall to 90, a bounce, then a slow grind to a lower low
		closes := linePath([2]float64{0, 100}, [2]float64{20, 104}, [2]float64{30, 90}, [2]float64{36, 95},
			[2]float64{52, 89}, [2]float64{60, 94})
		bars := pathBars(closes, 0.1)
		r, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
		require.NoError(t, err)
		ps := findPattern(r, "bullish_rsi_divergence")
		require.Len(t, ps, 1)
		rsi, err := RSI(closes, 14)
		require.NoError(t, err)
		r52, _ := rsi.At(52)
		r30, _ := rsi.At(30)
		assert.Equal(t, 30, ps[0].StartIndex)
		assert.Equal(t, 54, ps[0].Index, "confirmed two bars after the second low at bar 52")
		assert.Greater(t, r52, r30)
		assert.Equal(t, patternStrength(40+2*(r52-r30)), ps[0].Strength)
	})
}

func bruteSMA(x []float64, p int) []float64 {
	out := make([]float64, len(x))
	for i := p - 1; i < len(x); i++ {
		s := 0.0
		for _, v := range x[i-p+1 : i+1] {
			s += v
		}
		out[i] = s / float64(p)
	}
	return out
}

// TestCandlestickGradingAndTrendContext: a TA-Lib hit becomes a pattern
// with the raw value, the trend before it and the documented strength.
func TestCandlestickGradingAndTrendContext(t *testing.T) {
	k := candleFixture(-1, [4]float64{86, 86.3, 83.8, 84}, [4]float64{83.5, 86.8, 83.4, 86.5})
	bars := make([]Bar, 0, 40)
	for i := 0; i < 24; i++ { // a flat lead-in so the series reaches 35 bars
		bars = append(bars, Bar{Open: 100, High: 100.5, Low: 99.5, Close: 100, Volume: 1})
	}
	shift := float64(bars[0].Close) - k.o[0]
	for i := range k.c {
		bars = append(bars, Bar{Open: toolkit.Float(k.o[i] + shift), High: toolkit.Float(k.h[i] + shift),
			Low: toolkit.Float(k.l[i] + shift), Close: toolkit.Float(k.c[i] + shift), Volume: 1})
	}
	r, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
	require.NoError(t, err)
	ps := findPattern(r, "bullish_engulfing")
	require.NotEmpty(t, ps)
	p := ps[len(ps)-1]
	assert.Equal(t, len(bars)-1, p.Index)
	assert.Equal(t, len(bars)-2, p.StartIndex)
	assert.Equal(t, 100, p.TALibValue)
	assert.Equal(t, TrendContextDown, p.TrendContext)
	assert.Equal(t, 100, p.Strength, "a bullish reversal after a downtrend keeps full strength")
	assert.Equal(t, PatternBullish, r.Summary.RecentBias)
	assert.Equal(t, TrendContextNone, trendBefore(newCandleBars(new(scratch), Columns(bars)), 5), "fewer than 10 bars before")
}

// TestDetectPatternsProperties on seeded random walks: valid fields, order,
// determinism, and invariance under an exact rescaling of the prices.
func TestDetectPatternsProperties(t *testing.T) {
	names := map[string]string{}
	for _, r := range candleRecognisers {
		names[r.bullish], names[r.bearish] = PatternCandlestick, PatternCandlestick
	}
	for _, seed := range []uint64{1, 2, 3} {
		bars := randomBars(seed, 1500, 0.012)
		r, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
		require.NoError(t, err)
		require.NotEmpty(t, r.Patterns)
		assert.True(t, slices.IsSortedFunc(r.Patterns, func(a, b Pattern) int { return comparePatterns(&a, &b) }),
			"the integer sort keys order the patterns as comparePatterns does")
		seen := map[string]bool{}
		for j, p := range r.Patterns {
			assert.True(t, p.Index >= 0 && p.Index < len(bars), "index %d", p.Index)
			assert.LessOrEqual(t, p.StartIndex, p.Index)
			assert.True(t, p.Strength >= 0 && p.Strength <= 100, "strength %d", p.Strength)
			assert.Contains(t, []string{PatternBullish, PatternBearish, PatternNeutral}, p.Direction)
			if p.Type == PatternCandlestick {
				assert.Equal(t, PatternCandlestick, names[p.Name], p.Name)
				assert.Contains(t, []int{100, -100, 80, -80}, p.TALibValue)
				assert.Zero(t, p.Level)
			} else {
				assert.Equal(t, PatternChart, p.Type)
				assert.Positive(t, float64(p.Level), p.Name)
				assert.Zero(t, p.TALibValue)
			}
			if j > 0 {
				q := r.Patterns[j-1]
				assert.True(t, q.Index < p.Index || q.Index == p.Index && (q.Type < p.Type || q.Type == p.Type && q.Name <= p.Name))
			}
			seen[p.Name] = true
		}
		for _, name := range []string{"breakout", "breakdown", "bullish_ma_crossover", "bearish_ma_crossover", "doji",
			"bullish_engulfing", "bearish_engulfing"} {
			assert.True(t, seen[name], "seed %d: %s never found", seed, name)
		}
		total := r.Summary.Bullish + r.Summary.Bearish + r.Summary.Neutral
		assert.Equal(t, len(r.Patterns), total)
		assert.Equal(t, total, r.Summary.Candlestick+r.Summary.Chart)

		again, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
		require.NoError(t, err)
		assert.Equal(t, r, again)

		scaled := make([]Bar, len(bars))
		for i, b := range bars {
			scaled[i] = Bar{Open: b.Open * 4, High: b.High * 4, Low: b.Low * 4, Close: b.Close * 4, Volume: b.Volume}
		}
		rs, err := result(DetectPatterns(context.Background(), scaled, PatternOptions{}))
		require.NoError(t, err)
		require.Len(t, rs.Patterns, len(r.Patterns))
		for j := range r.Patterns {
			a, b := r.Patterns[j], rs.Patterns[j]
			assert.Equal(t, [4]any{a.Index, a.Name, a.Strength, a.TrendContext}, [4]any{b.Index, b.Name, b.Strength, b.TrendContext})
			assert.Equal(t, a.Level*4, b.Level)
		}
	}
}

func TestDetectPatternsValidation(t *testing.T) {
	bars := randomBars(5, 40, 0.01)
	short, err := DetectPatterns(context.Background(), bars[:34], PatternOptions{})
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "too few bars is an answer, not an error")
	assert.Equal(t, 35, short.Insufficient.BarsRequired)
	for _, p := range []int{4, 101, -1, 0} {
		_, err = result(DetectPatterns(context.Background(), bars, PatternOptions{BreakoutPeriod: ref(p)}))
		require.Error(t, err)
		assert.Contains(t, toolkit.MessageOf(err), "breakout_period")
	}
	bad := append([]Bar(nil), bars...)
	bad[7].Low = bad[7].High + 1
	_, err = result(DetectPatterns(context.Background(), bad, PatternOptions{}))
	require.Error(t, err)
	assert.Contains(t, toolkit.MessageOf(err), "bars[7]")
}

func TestDetectPatternsGolden(t *testing.T) {
	r, err := result(DetectPatterns(context.Background(), randomBars(42, 400, 0.015), PatternOptions{}))
	require.NoError(t, err)
	golden.Check(t, "testdata/patterns.json", r)
}
