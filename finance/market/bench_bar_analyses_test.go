package market

import (
	"context"
	"testing"
)

// BenchmarkBarAnalyses5000 runs the seven bar analyses (detect_regime,
// analyze_trend_structure, analyze_liquidity, analyze_correlations of two
// symbols, detect_patterns, detect_structural_break and
// analyze_price_structure) one after the other on 5,000 bars. The goal is
// under 2 ms for all of them on one core.
func BenchmarkBarAnalyses5000(b *testing.B) {
	ctx := context.Background()
	bars := randomBars(77, 5000, 0.012)
	syms := []SymbolBars{{Symbol: "A", Bars: bars}, {Symbol: "B", Bars: randomBars(78, 5000, 0.02)}}
	loopCPU(b, func() {
		_, _ = DetectRegime(ctx, bars)
		_, _ = AnalyzeTrendStructure(ctx, bars)
		_, _ = AnalyzeLiquidity(ctx, bars, nil)
		_, _ = AnalyzeCorrelations(ctx, syms)
		_, _ = DetectPatterns(ctx, bars, PatternOptions{})
		_, _ = DetectStructuralBreak(ctx, bars, BreakOptions{})
		_, _ = AnalyzePriceStructure(ctx, bars, PriceStructureOptions{})
	})
}
