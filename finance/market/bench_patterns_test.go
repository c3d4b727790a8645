package market

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/require"
)

// The bar-analysis speed goal is for every analysis together on 5,000 bars
// (≤ 2 ms); these are this family's three shares of it.

func BenchmarkDetectPatterns5000(b *testing.B) {
	bars := randomBars(77, 5000, 0.012)
	loopCPU(b, func() {
		if _, err := result(DetectPatterns(context.Background(), bars, PatternOptions{})); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkDetectStructuralBreak5000(b *testing.B) {
	bars := randomBars(77, 5000, 0.012)
	loopCPU(b, func() {
		if _, err := result(DetectStructuralBreak(context.Background(), bars, BreakOptions{})); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkAnalyzePriceStructure5000(b *testing.B) {
	bars := randomBars(77, 5000, 0.012)
	loopCPU(b, func() {
		if _, err := result(AnalyzePriceStructure(context.Background(), bars, PriceStructureOptions{})); err != nil {
			b.Fatal(err)
		}
	})
}

// TestBarToolsRejectTooManyBars: more than limits.MaxItems bars is
// TooLarge for each analysis.
func TestBarToolsRejectTooManyBars(t *testing.T) {
	bars := make([]Bar, limits.MaxItems+1)
	for i := range bars {
		bars[i] = Bar{Open: 1, High: 1, Low: 1, Close: 1}
	}
	_, err := result(DetectPatterns(context.Background(), bars, PatternOptions{}))
	require.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	_, err = result(DetectStructuralBreak(context.Background(), bars, BreakOptions{}))
	require.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	_, err = result(AnalyzePriceStructure(context.Background(), bars, PriceStructureOptions{}))
	require.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
}
