package performance

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/require"
)

// goldenR is the published eight-trade example plus four more trades.
var goldenR = []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8, -1.2, 0.4, -0.7, 2.0}

// goldenCases computes every tool of this file family on fixed inputs.
func goldenCases(t *testing.T) map[string]any {
	t.Helper()
	seed := uint64(20261122)
	eq, err := EquityFromR(goldenR, 100000, 0.02)
	require.NoError(t, err)
	must := func(v any, err error) any {
		require.NoError(t, err)
		return v
	}
	pnl := make([]toolkit.Amount, len(goldenR))
	for i, x := range goldenR {
		pnl[i] = toolkit.AmountFromMicros(int64(x * 500e6))
	}
	return map[string]any{
		"run_monte_carlo":        must(RunMonteCarlo(context.Background(), goldenR, MonteCarloOptions{StartingEquity: 100000, NumSimulations: ref(2000), TradesPerSimulation: ref(100), Seed: &seed})),
		"calculate_kelly":        must(CalculateKelly(goldenR, KellyOptions{})),
		"analyze_drawdown":       must(AnalyzeDrawdown(eq, 100000, nil)),
		"find_variance_killers":  must(FindVarianceKillers(goldenR, KillerOptions{})),
		"analyze_win_loss":       must(AnalyzeWinLoss(goldenR, pnl)),
		"run_what_if":            must(RunWhatIf(goldenR, WhatIfOptions{})),
		"calculate_rolling_g":    must(CalculateRollingG(goldenR, ref(4))),
		"calculate_equity_curve": must(CalculateEquityCurve(goldenR, ref(100000.0), ref(0.02), ref(100.0))),
		"calculate_system_score": must(CalculateSystemScore(goldenR)),
		"detect_peak_valley":     must(DetectPeakValley(eq, 100000)),
		"analyze_recovery":       must(AnalyzeRecovery(goldenR, nil, ref(0.02))),
	}
}

// TestGrowthToolsGolden compares every tool's JSON with
// testdata/growth_tools.json (decimal strings within 1e-10 relative, to allow
// for FMA on other architectures; everything else exactly).
func TestGrowthToolsGolden(t *testing.T) {
	golden.Check(t, "testdata/growth_tools.json", goldenCases(t))
}
