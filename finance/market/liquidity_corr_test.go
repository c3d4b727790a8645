package market

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func withVolumes(bars []Bar, vol func(i int) float64) []Bar {
	out := append([]Bar(nil), bars...)
	for i := range out {
		out[i].Volume = toolkit.Float(vol(i))
	}
	return out
}

func TestAnalyzeLiquidityStates(t *testing.T) {
	base := plantedBars(5, 100, segment{n: 120, vol: 0.01, meanRevert: 0.1})
	r := rand.New(rand.NewPCG(9, 9))
	noisy := func(int) float64 { return 1000 * math.Exp(0.2*r.NormFloat64()) }

	normal := withVolumes(base, noisy)
	res, err := result(AnalyzeLiquidity(context.Background(), normal, nil))
	require.NoError(t, err)
	assert.Equal(t, LiquidityNormal, res.State)
	assert.Equal(t, 20, res.Period)
	assert.Equal(t, 20, res.BaselineBars)
	require.NotNil(t, res.VolumeZScore)
	require.NotNil(t, res.AmihudPercentile)

	spike := withVolumes(base, noisy)
	spike[len(spike)-1].Volume *= 8
	res, err = result(AnalyzeLiquidity(context.Background(), spike, ref(20)))
	require.NoError(t, err)
	assert.Equal(t, LiquiditySpike, res.State)
	assert.GreaterOrEqual(t, float64(*res.VolumeZScore), 3.0)

	thin := withVolumes(base, func(i int) float64 {
		if i >= len(base)-5 {
			return 300 * math.Exp(0.1*r.NormFloat64())
		}
		return noisy(i)
	})
	res, err = result(AnalyzeLiquidity(context.Background(), thin, ref(20)))
	require.NoError(t, err)
	assert.Equal(t, LiquidityThinning, res.State)
	assert.Less(t, float64(res.VolumeTrendRatio), 0.6)

	// Stress: a wide-range bar with a big move on low volume.
	stress := withVolumes(base, noisy)
	last := len(stress) - 1
	prev := float64(stress[last-1].Close)
	stress[last] = Bar{Open: toolkit.Float(prev), High: toolkit.Float(prev * 1.06), Low: toolkit.Float(prev * 0.94),
		Close: toolkit.Float(prev * 0.95), Volume: 700}
	res, err = result(AnalyzeLiquidity(context.Background(), stress, ref(20)))
	require.NoError(t, err)
	assert.Equal(t, LiquidityStressed, res.State)
	assert.GreaterOrEqual(t, float64(*res.RangeExpansion), 1.5)

	// Two bars: the baseline is one bar; no z-score (sd undefined), no stress ranking.
	res, err = result(AnalyzeLiquidity(context.Background(), normal[:2], ref(20)))
	require.NoError(t, err)
	assert.Equal(t, 1, res.BaselineBars)
	assert.Nil(t, res.VolumeZScore)
	assert.Nil(t, res.AmihudPercentile)

	// Zero volumes are counted and skipped.
	zero := withVolumes(base, func(i int) float64 { return float64(i % 2 * 1000) })
	res, err = result(AnalyzeLiquidity(context.Background(), zero, ref(20)))
	require.NoError(t, err)
	assert.Equal(t, len(base)/2, res.ZeroVolumeBars)

	short, err := AnalyzeLiquidity(context.Background(), normal[:1], ref(20))
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "one bar is an insufficient_bars answer")
	_, err = result(AnalyzeLiquidity(context.Background(), normal, ref(1)))
	require.Error(t, err)
	assert.Contains(t, toolkit.MessageOf(err), "period")
}

func TestAnalyzeCorrelations(t *testing.T) {
	n := 300
	r := rand.New(rand.NewPCG(3, 4))
	a, b, c := make([]float64, n), make([]float64, n), make([]float64, n)
	pa, pb, pc := 100.0, 50.0, 20.0
	for i := range a {
		common, own := 0.01*r.NormFloat64(), 0.01*r.NormFloat64()
		pa *= math.Exp(common)
		pb *= math.Exp(0.9*common + 0.3*own)
		pc *= math.Exp(0.01 * r.NormFloat64())
		a[i], b[i], c[i] = pa, pb, pc
	}
	data := []SymbolBars{{"A", closesBars(a, 0.001)}, {"B", closesBars(b[50:], 0.001)}, {"C", closesBars(c, 0.001)}}
	res, err := result(AnalyzeCorrelations(context.Background(), data))
	require.NoError(t, err)
	require.Len(t, res.Pairs, 3)
	assert.Equal(t, "A", res.MostCorrelated.SymbolA)
	assert.Equal(t, "B", res.MostCorrelated.SymbolB)
	assert.Greater(t, float64(*res.MostCorrelated.Correlation), 0.9)
	assert.Equal(t, 249, res.Pairs[0].N) // aligned at the latest bar: min(300, 250) - 1 returns
	assert.Less(t, math.Abs(float64(*res.LeastCorrelated.Correlation)), 0.2)
	assert.Equal(t, toolkit.Float(1), *res.Matrix[0][0])
	assert.Equal(t, *res.Matrix[0][1], *res.Matrix[1][0])

	// Independent re-implementation of r on the aligned log returns.
	ra, rb := logReturns(a[50:]), logReturns(b[50:])
	assert.InDelta(t, pearson(ra, rb), float64(*res.Pairs[0].Correlation), 1e-12)
	assert.Less(t, float64(*res.Pairs[0].PValue), 1e-6)
	assert.Less(t, float64(*res.Pairs[0].CI95Low), float64(*res.Pairs[0].Correlation))

	// A constant-return series has no correlation (null), not NaN.
	flat := make([]float64, 20)
	for i := range flat {
		flat[i] = 10
	}
	res, err = result(AnalyzeCorrelations(context.Background(), []SymbolBars{{"A", closesBars(a[:20], 0.001)}, {"F", closesBars(flat, 0.001)}}))
	require.NoError(t, err)
	assert.Nil(t, res.Pairs[0].Correlation)
	assert.Nil(t, res.MostCorrelated)

	bad := map[string][]SymbolBars{
		"at least 2 symbols":       {{"A", closesBars(a[:20], 0.001)}},
		"repeated":                 {{"A", closesBars(a[:20], 0.001)}, {"A", closesBars(c[:20], 0.001)}},
		"symbol must not be empty": {{"", closesBars(a[:20], 0.001)}, {"C", closesBars(c[:20], 0.001)}},
	}
	for want, d := range bad {
		_, err := result(AnalyzeCorrelations(context.Background(), d))
		require.Error(t, err, want)
		assert.Contains(t, toolkit.MessageOf(err), want)
	}
}

func logReturns(p []float64) []float64 {
	r := make([]float64, len(p)-1)
	for i := range r {
		r[i] = math.Log(p[i+1] / p[i])
	}
	return r
}

func pearson(x, y []float64) float64 {
	mx, my := meanOf(x), meanOf(y)
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}
