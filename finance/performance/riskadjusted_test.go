package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

func TestRiskAdjustedClosedForms(t *testing.T) {
	for _, tc := range []struct {
		r      []float64
		target float64
		tpy    *float64
	}{
		{publishedR, 0, nil},
		{publishedR, 0.25, ref(250.0)},
		{normalR(41, 500, 0.15, 1.2), -0.1, ref(52.0)},
	} {
		res, err := AnalyzeRiskAdjusted(tc.r, RiskAdjustedOptions{TargetR: tc.target, TradesPerYear: tc.tpy})
		require.NoError(t, err)
		mean := stat.Mean(tc.r, nil)
		sd := stat.StdDev(tc.r, nil)
		var down float64
		for _, x := range tc.r {
			down += math.Pow(math.Min(x-tc.target, 0), 2)
		}
		dd := math.Sqrt(down / float64(len(tc.r)))
		// Independent drawdown: explicit curve with a leading 0 peak.
		curve := []float64{0}
		for _, x := range tc.r {
			curve = append(curve, curve[len(curve)-1]+x)
		}
		var mdd float64
		for i := range curve {
			for j := 0; j < i; j++ {
				mdd = math.Max(mdd, curve[j]-curve[i])
			}
		}
		total := curve[len(curve)-1]
		assertRel(t, mean/sd, float64(*res.SharpeRatio), 1e-12)
		assertRel(t, dd, float64(res.DownsideDeviation), 1e-12)
		assertRel(t, (mean-tc.target)/dd, float64(*res.SortinoRatio), 1e-12)
		assertRel(t, mdd, float64(res.MaxDrawdownR), 1e-12)
		assertRel(t, total/mdd, float64(*res.CalmarRatio), 1e-12)
		if tc.tpy != nil {
			tpy := *tc.tpy
			assertRel(t, mean/sd*math.Sqrt(tpy), float64(*res.SharpeAnnualized), 1e-12)
			assertRel(t, (mean-tc.target)/dd*math.Sqrt(tpy), float64(*res.SortinoAnnualized), 1e-12)
			assertRel(t, mean*tpy/mdd, float64(*res.CalmarAnnualized), 1e-12)
		} else {
			assert.Nil(t, res.SharpeAnnualized)
			assert.Nil(t, res.TradesPerYear)
		}
	}
}

func TestRiskAdjustedPublishedExample(t *testing.T) {
	res, err := AnalyzeRiskAdjusted(publishedR, RiskAdjustedOptions{})
	require.NoError(t, err)
	// Downside: -1, -0.5, -1 over 8 trades: sqrt(2.25/8).
	assertRel(t, math.Sqrt(2.25/8), float64(res.DownsideDeviation), 1e-15)
	// Curve 0, 1.5, 0.5, 2.8, 2.3, 4.1, 3.1, 6.3, 7.1: max drawdown 1.0.
	assertRel(t, 1.0, float64(res.MaxDrawdownR), 1e-12)
	assertRel(t, 7.1, float64(*res.CalmarRatio), 1e-12)
	// The wrong Sortino variant (sd of losses only) must not be used.
	assert.NotEqual(t, toolkit.Float(0.8875/stat.StdDev([]float64{-1, -0.5, -1}, nil)), *res.SortinoRatio)
}

func TestRiskAdjustedUndefinedRatiosAreNull(t *testing.T) {
	res, err := AnalyzeRiskAdjusted([]float64{1, 2, 3}, RiskAdjustedOptions{TradesPerYear: ref(10.0)})
	require.NoError(t, err)
	assert.Nil(t, res.SortinoRatio)
	assert.Nil(t, res.CalmarRatio)
	assert.Nil(t, res.CalmarAnnualized)
	assert.NotNil(t, res.SharpeRatio)
	res, err = AnalyzeRiskAdjusted([]float64{1, 1}, RiskAdjustedOptions{})
	require.NoError(t, err)
	assert.Nil(t, res.SharpeRatio)
	assert.Len(t, res.Warnings, 4) // sharpe, sortino, calmar, small sample
}

func TestRiskAdjustedBadInput(t *testing.T) {
	for _, c := range []struct {
		r   []float64
		opt RiskAdjustedOptions
		msg string
	}{
		{[]float64{1}, RiskAdjustedOptions{}, "r_multiples: needs at least 2"},
		{[]float64{1, math.NaN()}, RiskAdjustedOptions{}, "r_multiples: item 1"},
		{[]float64{1, 2}, RiskAdjustedOptions{TargetR: math.Inf(1)}, "target_r: must be a finite"},
		{[]float64{1, 2}, RiskAdjustedOptions{TradesPerYear: ref(-1.0)}, "trades_per_year:"},
		{[]float64{1, 2}, RiskAdjustedOptions{TradesPerYear: ref(2e6)}, "trades_per_year:"},
	} {
		_, err := AnalyzeRiskAdjusted(c.r, c.opt)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
