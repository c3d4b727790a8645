package performance

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The -update flag may also be declared by another test file of this
// package; declare it only once and read it by name.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

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
		"run_monte_carlo":        must(RunMonteCarlo(goldenR, MonteCarloOptions{StartingEquity: 100000, NumSimulations: 2000, TradesPerSimulation: 100, Seed: &seed})),
		"calculate_kelly":        must(CalculateKelly(goldenR, KellyOptions{})),
		"analyze_drawdown":       must(AnalyzeDrawdown(eq, 100000, nil)),
		"find_variance_killers":  must(FindVarianceKillers(goldenR, KillerOptions{})),
		"analyze_win_loss":       must(AnalyzeWinLoss(goldenR, pnl)),
		"run_what_if":            must(RunWhatIf(goldenR, WhatIfOptions{})),
		"calculate_rolling_g":    must(CalculateRollingG(goldenR, 4)),
		"calculate_equity_curve": must(CalculateEquityCurve(goldenR, 100000, 0.02, 100)),
		"calculate_system_score": must(CalculateSystemScore(goldenR)),
		"detect_peak_valley":     must(DetectPeakValley(eq, 100000)),
		"analyze_recovery":       must(AnalyzeRecovery(goldenR, 0, 0.02)),
	}
}

// TestGrowthToolsGolden compares every tool's JSON with testdata/growth_tools.json:
// numbers (decimal strings) within 1e-9 relative, to allow for FMA on
// other architectures; everything else exactly.
func TestGrowthToolsGolden(t *testing.T) {
	path := filepath.Join("testdata", "growth_tools.json")
	got, err := json.MarshalIndent(goldenCases(t), "", "  ")
	require.NoError(t, err)
	if updateGolden() {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	var g, w any
	require.NoError(t, json.Unmarshal(got, &g))
	require.NoError(t, json.Unmarshal(want, &w))
	compareJSON(t, "", w, g)
}

func compareJSON(t *testing.T, path string, want, got any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		require.True(t, ok, path)
		assert.Len(t, g, len(w), path)
		for k, v := range w {
			compareJSON(t, path+"."+k, v, g[k])
		}
	case []any:
		g, ok := got.([]any)
		require.True(t, ok, path)
		require.Len(t, g, len(w), path)
		for i := range w {
			compareJSON(t, path+"["+strconv.Itoa(i)+"]", w[i], g[i])
		}
	case string:
		wf, errW := strconv.ParseFloat(w, 64)
		gs, _ := got.(string)
		gf, errG := strconv.ParseFloat(gs, 64)
		if errW == nil && errG == nil {
			assert.InDelta(t, wf, gf, 1e-9*math.Max(1, math.Abs(wf)), path)
			return
		}
		assert.Equal(t, w, got, path)
	default:
		assert.Equal(t, w, got, path)
	}
}
