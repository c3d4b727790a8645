package market

import (
	"context"
	"testing"
)

// BenchmarkAnalyzeTrendStructure5000 is analyze_trend_structure alone on
// 5,000 bars, so a change to its steps shows apart from the other analyses.
func BenchmarkAnalyzeTrendStructure5000(b *testing.B) {
	ctx := context.Background()
	bars := randomBars(77, 5000, 0.012)
	loopCPU(b, func() {
		if _, err := AnalyzeTrendStructure(ctx, bars); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkAnalyzeLiquidity5000 is analyze_liquidity alone on 5,000 bars.
func BenchmarkAnalyzeLiquidity5000(b *testing.B) {
	ctx := context.Background()
	bars := randomBars(77, 5000, 0.012)
	loopCPU(b, func() {
		if _, err := AnalyzeLiquidity(ctx, bars, nil); err != nil {
			b.Fatal(err)
		}
	})
}
