package performance

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/canceltest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeavyLoopsStopWhenTheContextEnds: each loop whose work grows with
// its input returns the context's error when the context is already done,
// and when it ends after one check (so the loop checks as it goes, not
// only at the start); it makes no further check after stopping beyond one
// per worker.
func TestHeavyLoopsStopWhenTheContextEnds(t *testing.T) {
	r := normalR(3, 50_000, 0.1, 1)
	trades := make([]SegmentTrade, 100_000)
	for i := range trades {
		trades[i] = SegmentTrade{PnLR: r[i%len(r)], PnLUSD: toolkit.AmountFromInt(int64(i % 7)), Symbol: fmt.Sprint("S", i%13)}
	}
	cases := map[string]func(ctx context.Context) error{
		"run_monte_carlo": func(ctx context.Context) error {
			_, err := RunMonteCarlo(ctx, r[:500], MonteCarloOptions{StartingEquity: 1000, NumSimulations: ref(MaxSimulations),
				TradesPerSimulation: ref(MaxTradesPerSimulation), Seed: ref(uint64(1)), Workers: 2})
			return err
		},
		"analyze_confidence": func(ctx context.Context) error {
			_, err := AnalyzeConfidence(ctx, r, ConfidenceOptions{Samples: ref(DefaultBootstrapSamples)})
			return err
		},
		"analyze_consistency": func(ctx context.Context) error {
			_, err := AnalyzeConsistency(ctx, r, ConsistencyOptions{WindowSize: ref(MaxConsistencyWindow)})
			return err
		},
		"segment_trades": func(ctx context.Context) error {
			_, err := SegmentTrades(ctx, trades, SegmentBySymbol)
			return err
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			done, cancel := context.WithCancel(context.Background())
			cancel()
			assert.ErrorIs(t, run(done), context.Canceled, "a context ended before the call")

			ctx := canceltest.AfterChecks(1)
			require.ErrorIs(t, run(ctx), context.Canceled, "a context ending during the loop")
			assert.LessOrEqual(t, ctx.Checks(), 1+2, "no chunk starts after the context ended (one check per worker)")
		})
	}
}
