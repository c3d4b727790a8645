package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDrawdownHandCase(t *testing.T) {
	// start 100 → 110 (peak) → 99 → 121 (recovered, new peak) → 96.8 → 108.9
	eq := []float64{110, 99, 121, 96.8, 108.9}
	got, err := AnalyzeDrawdown(eq, 100, nil)
	require.NoError(t, err)
	relEq(t, 20, float64(got.MaxDrawdownPct))   // 121 → 96.8
	relEq(t, 24.2, float64(got.MaxDrawdownUSD)) // 121 − 96.8
	relEq(t, (121-108.9)/121, float64(got.CurrentDrawdown))
	assert.Equal(t, 2, got.DrawdownCount)
	relEq(t, (0.10+0.20)/2, float64(got.AvgDrawdown))
	assert.Equal(t, 2, got.LongestDuration) // 1→3 recovered, 3→5 open
	relEq(t, 3.0/5, float64(got.TimeInDrawdown))
	relEq(t, 8.9/24.2, float64(*got.RecoveryFactor))
	dd := []float64{0, 10, 0, 20, (121 - 108.9) / 121 * 100}
	var ss float64
	for _, d := range dd {
		ss += d * d
	}
	relEq(t, math.Sqrt(ss/5), float64(got.UlcerIndex))
	require.Len(t, got.DrawdownPeriods, 2)
	p0 := got.DrawdownPeriods[0]
	assert.Equal(t, 1, p0.PeakIndex)
	assert.Equal(t, 2, p0.ValleyIndex)
	assert.Equal(t, 3, *p0.RecoveryIndex)
	assert.Equal(t, 1, *p0.RecoveryTrades)
	relEq(t, 10.0/90*100, float64(*p0.GainToRecoverPct))
	p1 := got.DrawdownPeriods[1]
	assert.False(t, p1.Recovered)
	assert.Nil(t, p1.RecoveryIndex)
	assert.Nil(t, got.RecoveryTrades) // the deepest episode is still open

	np := 50.0
	withNP, err := AnalyzeDrawdown(eq, 100, &np)
	require.NoError(t, err)
	relEq(t, 50/24.2, float64(*withNP.RecoveryFactor))
}

func TestDrawdownStartingEquityIsAPeak(t *testing.T) {
	got, err := AnalyzeDrawdown([]float64{90, 95}, 100, nil)
	require.NoError(t, err)
	relEq(t, 10, float64(got.MaxDrawdownPct))
	assert.Equal(t, 0, got.DrawdownPeriods[0].PeakIndex)

	up, err := AnalyzeDrawdown([]float64{101, 102}, 100, nil)
	require.NoError(t, err)
	assert.Equal(t, toolkit.Float(0), up.MaxDrawdownPct)
	assert.Nil(t, up.RecoveryFactor)
	assert.Empty(t, up.DrawdownPeriods)
	assert.NotNil(t, up.DrawdownPeriods) // [] in JSON, not null
}

// TestDrawdownAgainstReference compares with a direct re-implementation.
func TestDrawdownAgainstReference(t *testing.T) {
	r := benchR(500)
	eq, err := EquityFromR(r, 25000, 0.02)
	require.NoError(t, err)
	got, err := AnalyzeDrawdown(eq, 25000, nil)
	require.NoError(t, err)
	peak, maxPct, maxUSD, ss := 25000.0, 0.0, 0.0, 0.0
	for _, e := range eq {
		peak = math.Max(peak, e)
		d := 1 - e/peak
		maxPct = math.Max(maxPct, d)
		maxUSD = math.Max(maxUSD, peak-e)
		ss += d * d
	}
	relEq(t, maxPct*100, float64(got.MaxDrawdownPct))
	relEq(t, maxUSD, float64(got.MaxDrawdownUSD))
	relEq(t, math.Sqrt(ss/500)*100, float64(got.UlcerIndex))
	viaR, err := AnalyzeDrawdownR(r, 25000, ref(0.02), nil)
	require.NoError(t, err)
	assert.Equal(t, got, viaR)
}

func TestEquityFromRCompoundsAndRuins(t *testing.T) {
	eq, err := EquityFromR([]float64{1, -1, 2}, 1000, 0.1)
	require.NoError(t, err)
	relEq(t, 1100, eq[0])
	relEq(t, 990, eq[1])
	relEq(t, 1188, eq[2])
	ruined, err := EquityFromR([]float64{1, -20, 3}, 1000, 0.1)
	require.NoError(t, err)
	assert.Equal(t, []float64{1100, 0, 0}, ruined)
	dd, err := AnalyzeDrawdown(ruined, 1000, nil)
	require.NoError(t, err)
	relEq(t, 100, float64(dd.MaxDrawdownPct))
	assert.Nil(t, dd.DrawdownPeriods[0].GainToRecoverPct)
}

func TestDrawdownBadInput(t *testing.T) {
	cases := []struct {
		name string
		run  func() error
		msg  string
		kind toolkit.Kind
	}{
		{"empty", func() error { _, err := AnalyzeDrawdown(nil, 1, nil); return err }, "equity_values: needs at least 1", toolkit.Invalid},
		{"negative equity", func() error { _, err := AnalyzeDrawdown([]float64{-1}, 1, nil); return err }, "equity_values: item 0 must be >= 0", toolkit.Invalid},
		{"zero start", func() error { _, err := AnalyzeDrawdown([]float64{1}, 0, nil); return err }, "starting_equity", toolkit.Invalid},
		{"inf", func() error { _, err := AnalyzeDrawdown([]float64{math.Inf(1)}, 1, nil); return err }, "equity_values: item 0 must be a finite", toolkit.Invalid},
		{"nan net profit", func() error { np := math.NaN(); _, err := AnalyzeDrawdown([]float64{1}, 1, &np); return err }, "net_profit", toolkit.Invalid},
		{"risk", func() error { _, err := AnalyzeDrawdownR([]float64{1}, 1, ref(0.0), nil); return err }, "risk_per_trade", toolkit.Invalid},
		{"too large", func() error { _, err := AnalyzeDrawdown(make([]float64, limits.MaxItems+1), 1, nil); return err }, "equity_values: at most", toolkit.TooLarge},
		{"peak-valley start", func() error { _, err := DetectPeakValley([]float64{1}, -1); return err }, "starting_equity", toolkit.Invalid},
		{"peak-valley empty", func() error { _, err := DetectPeakValley(nil, 1); return err }, "equity_values: needs at least 1", toolkit.Invalid},
		{"recovery empty", func() error { _, err := AnalyzeRecovery(nil, nil, nil); return err }, "r_multiples: needs at least 1", toolkit.Invalid},
		{"recovery equity", func() error { _, err := AnalyzeRecovery([]float64{1}, ref(-5.0), nil); return err }, "initial_equity: must be", toolkit.Invalid},
		{"curve trades per year", func() error { _, err := CalculateEquityCurve([]float64{1}, ref(1.0), nil, ref(-1.0)); return err }, "trades_per_year", toolkit.Invalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			require.Error(t, err)
			assert.Equal(t, c.kind, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.msg)
		})
	}
}

func TestPeakValleyStates(t *testing.T) {
	cases := []struct {
		name  string
		eq    []float64
		state string
	}{
		{"new high", []float64{101, 105}, AtPeak},
		{"flat at start", []float64{100}, AtPeak},
		{"back to the peak", []float64{110, 100, 110}, AtPeak},
		{"falling", []float64{110, 100, 95}, AtValley},
		{"bounced", []float64{110, 95, 100}, Between},
		{"retested low", []float64{110, 95, 100, 95}, AtValley},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DetectPeakValley(c.eq, 100)
			require.NoError(t, err)
			assert.Equal(t, c.state, got.State)
		})
	}
	got, err := DetectPeakValley([]float64{110, 95, 100}, 100)
	require.NoError(t, err)
	assert.Equal(t, 1, got.PeakIndex)
	assert.Equal(t, 2, got.ValleyIndex)
	relEq(t, 10.0/110*100, float64(got.DistanceFromPeakPct))
	relEq(t, 10, float64(got.DistanceFromPeakUSD))
	relEq(t, 5.0/95*100, float64(*got.DistanceFromValleyPct))
	relEq(t, 10, float64(*got.GainToRecoverPct))
	assert.Equal(t, []PeakPoint{{Index: 1, Equity: 110}}, got.Peaks)
	require.Len(t, got.Valleys, 1)
	relEq(t, 15.0/110*100, float64(got.Valleys[0].DepthPct))
}

func TestRecovery(t *testing.T) {
	// at 10 % risk: 100000 → 110000 → 99000 → 89100 → 98010 → 107811 → 118592.1
	r := []float64{1, -1, -1, 1, 1, 1, -0.5}
	got, err := AnalyzeRecovery(r, ref(100000.0), ref(0.1))
	require.NoError(t, err)
	require.Len(t, got.Drawdowns, 2)
	assert.Equal(t, 1, got.RecoveredCount)
	assert.Equal(t, 3, *got.Drawdowns[0].RecoveryTrades) // valley at 3, recovered at 6
	assert.Equal(t, 5, got.Drawdowns[0].Duration)
	relEq(t, 3, float64(*got.AverageRecoveryTrades))
	assert.Equal(t, 3, got.LongestRecoveryTrades)
	assert.True(t, got.CurrentlyInDrawdown)
	relEq(t, (1/0.95-1)*100, float64(*got.CurrentGainToRecoverPct))
	relEq(t, 19.0, float64(got.MaxDrawdownPct))
	def, err := AnalyzeRecovery(r, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, toolkit.Float(100000), def.InitialEquity)
	assert.Equal(t, toolkit.Float(0.01), def.RiskPerTrade)
}

func TestEquityCurve(t *testing.T) {
	r := benchR(300)
	got, err := CalculateEquityCurve(r, ref(50000.0), ref(0.02), ref(250.0))
	require.NoError(t, err)
	e, peak, mdd, sum := 50000.0, 50000.0, 0.0, 0.0
	for i, x := range r {
		e *= 1 + 0.02*x
		sum += x
		peak = math.Max(peak, e)
		mdd = math.Max(mdd, (peak-e)/peak)
		relEq(t, e, got.EquityCurve[i+1])
		relEq(t, sum, got.CumulativeR[i+1])
	}
	require.Len(t, got.EquityCurve, 301)
	relEq(t, e/50000-1, float64(got.TotalReturn))
	relEq(t, mdd*100, float64(got.MaxDrawdownPct))
	relEq(t, math.Pow(e/50000, 250.0/300)-1, float64(*got.CAGR))
	noCAGR, err := CalculateEquityCurve(r, ref(50000.0), nil, nil)
	require.NoError(t, err)
	assert.Nil(t, noCAGR.CAGR)
	assert.Equal(t, toolkit.Float(0.01), noCAGR.RiskPerTrade)
}
