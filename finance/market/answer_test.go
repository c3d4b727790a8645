package market

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/canceltest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// result unwraps a bar analysis for tests: its Result (nil for an
// insufficient_bars answer) and its error.
func result[T any](a Answer[T], err error) (*T, error) { return a.Result, err }

// TestBarToolsAnswerInsufficientBars: one bar short of each analysis's
// minimum is the insufficient_bars answer, not an error, and it encodes
// exactly like the tool's HTTP answer; valid bars but a bad bar is still an
// Invalid error.
func TestBarToolsAnswerInsufficientBars(t *testing.T) {
	ctx := context.Background()
	bars := randomBars(5, 400, 0.01)
	sym := func(b []Bar) []SymbolBars {
		return []SymbolBars{{Symbol: "A", Bars: bars[:20]}, {Symbol: "B", Bars: b}}
	}
	type run func(bars []Bar) (any, *InsufficientBars, error)
	type barTool struct {
		tool string
		min  int
		f    run
	}
	wrap := func(tool string, min int, f run) barTool { return barTool{tool, min, f} }
	cases := []barTool{
		wrap("detect_regime", RegimeMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := DetectRegime(ctx, b)
			return a, a.Insufficient, err
		}),
		wrap("analyze_trend_structure", TrendMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := AnalyzeTrendStructure(ctx, b)
			return a, a.Insufficient, err
		}),
		wrap("analyze_liquidity", LiquidityMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := AnalyzeLiquidity(ctx, b, nil)
			return a, a.Insufficient, err
		}),
		wrap("detect_patterns", PatternsMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := DetectPatterns(ctx, b, PatternOptions{})
			return a, a.Insufficient, err
		}),
		wrap("detect_structural_break", StructuralBreakMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := DetectStructuralBreak(ctx, b, BreakOptions{})
			return a, a.Insufficient, err
		}),
		wrap("analyze_price_structure", PriceStructureMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := AnalyzePriceStructure(ctx, b, PriceStructureOptions{})
			return a, a.Insufficient, err
		}),
		wrap("calculate_indicators", 34, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := CalculateIndicators(ctx, b, IndicatorRequest{Indicator: IndicatorMACD})
			return a, a.Insufficient, err
		}),
		wrap("analyze_correlations", CorrelationMinBars, func(b []Bar) (any, *InsufficientBars, error) {
			a, err := AnalyzeCorrelations(ctx, sym(b))
			return a, a.Insufficient, err
		}),
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			a, short, err := c.f(bars[:c.min-1])
			require.NoError(t, err)
			require.NotNil(t, short)
			assert.Equal(t, "insufficient_bars", short.Error)
			assert.Equal(t, c.min-1, short.BarsProvided)
			assert.Equal(t, c.min, short.BarsRequired)
			assert.Contains(t, short.Message, c.tool)
			assert.False(t, a.(interface{ Chargeable() bool }).Chargeable(), "never charged")
			got, err := json.Marshal(a)
			require.NoError(t, err)
			want, err := json.Marshal(short)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), "the Go answer encodes as the HTTP answer")

			a, short, err = c.f(bars[:c.min])
			require.NoError(t, err)
			assert.Nil(t, short)
			assert.True(t, a.(interface{ Chargeable() bool }).Chargeable())
			b, err := json.Marshal(a)
			require.NoError(t, err)
			assert.NotContains(t, string(b), "insufficient_bars")

			bad := append([]Bar(nil), bars[:c.min-1]...)
			bad[0].Low = -1
			_, short, err = c.f(bad)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "a bad bar is an error before the count")
			assert.Nil(t, short)
		})
	}
}

// TestCorrelationsInsufficientNamesTheSymbol: the answer names the short
// symbol.
func TestCorrelationsInsufficientNamesTheSymbol(t *testing.T) {
	bars := randomBars(6, 30, 0.01)
	a, err := AnalyzeCorrelations(context.Background(), []SymbolBars{{Symbol: "AAA", Bars: bars}, {Symbol: "BBB", Bars: bars[:9]}})
	require.NoError(t, err)
	require.NotNil(t, a.Insufficient)
	assert.Nil(t, a.Result)
	assert.Contains(t, a.Insufficient.Message, `"BBB" has 9`)
}

// TestBarAnalysesStopWhenTheContextEnds: every bar analysis returns the
// context's error when the context is done before the call; the ones that
// run in stages (patterns, structural break, price structure,
// correlations) also stop when it ends after the first check.
func TestBarAnalysesStopWhenTheContextEnds(t *testing.T) {
	bars := randomBars(9, 2000, 0.01)
	syms := []SymbolBars{{Symbol: "A", Bars: bars}, {Symbol: "B", Bars: randomBars(10, 2000, 0.02)}}
	cases := []struct {
		name   string
		staged bool
		run    func(ctx context.Context) error
	}{
		{"detect_regime", false, func(ctx context.Context) error { _, err := DetectRegime(ctx, bars); return err }},
		{"analyze_trend_structure", false, func(ctx context.Context) error { _, err := AnalyzeTrendStructure(ctx, bars); return err }},
		{"analyze_liquidity", false, func(ctx context.Context) error { _, err := AnalyzeLiquidity(ctx, bars, nil); return err }},
		{"calculate_indicators", false, func(ctx context.Context) error {
			_, err := CalculateIndicators(ctx, bars, IndicatorRequest{Indicator: IndicatorRSI})
			return err
		}},
		{"analyze_correlations", true, func(ctx context.Context) error { _, err := AnalyzeCorrelations(ctx, syms); return err }},
		{"detect_patterns", true, func(ctx context.Context) error {
			_, err := DetectPatterns(ctx, bars, PatternOptions{})
			return err
		}},
		{"detect_structural_break", true, func(ctx context.Context) error {
			_, err := DetectStructuralBreak(ctx, bars, BreakOptions{})
			return err
		}},
		{"analyze_price_structure", true, func(ctx context.Context) error {
			_, err := AnalyzePriceStructure(ctx, bars, PriceStructureOptions{})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done, cancel := context.WithCancel(context.Background())
			cancel()
			assert.ErrorIs(t, c.run(done), context.Canceled)
			if c.staged {
				assert.ErrorIs(t, c.run(canceltest.AfterChecks(1)), context.Canceled)
			}
			assert.NoError(t, c.run(context.Background()))
		})
	}
}
