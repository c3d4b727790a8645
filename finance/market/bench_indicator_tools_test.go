package market

import (
	"context"
	"testing"
)

// BenchmarkIndicatorAnalyses5000 runs the bar analyses of the indicator
// family on 5,000 bars (detect_regime, analyze_trend_structure,
// analyze_liquidity and analyze_correlations over two symbols), one
// sub-benchmark each plus all together. The goal is all bar analyses (with detect_patterns,
// detect_structural_break, analyze_price_structure) under 2 ms.
func BenchmarkIndicatorAnalyses5000(b *testing.B) {
	bars := synthBars(8, 5000, 100, 0.0002, 0.01)
	other := synthBars(9, 5000, 50, 0, 0.02)
	syms := []SymbolBars{{Symbol: "A", Bars: bars}, {Symbol: "B", Bars: other}}
	steps := map[string]func(){
		"regime":       func() { _, _ = result(DetectRegime(context.Background(), bars)) },
		"trend":        func() { _, _ = result(AnalyzeTrendStructure(context.Background(), bars)) },
		"liquidity":    func() { _, _ = result(AnalyzeLiquidity(context.Background(), bars, ref(20))) },
		"correlations": func() { _, _ = result(AnalyzeCorrelations(context.Background(), syms)) },
	}
	for _, name := range []string{"regime", "trend", "liquidity", "correlations"} {
		b.Run(name, func(b *testing.B) { loopCPU(b, steps[name]) })
	}
	b.Run("all", func(b *testing.B) {
		loopCPU(b, func() {
			for _, f := range steps {
				f()
			}
		})
	})
}
