package performance

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestChiSquaredCheckValue(t *testing.T) {
	// finance-methods.md §4.9: survival of χ²₅ at 10 = 0.0752.
	assert.InDelta(t, 0.0752, distuv.ChiSquared{K: 5}.Survival(10), 5e-5)
}

func TestSerialCorrelationClosedForms(t *testing.T) {
	r := normalR(21, 60, 0.1, 1)
	res, err := AnalyzeSerialCorrelation(r, nil)
	require.NoError(t, err)
	h := 10 // min(10, 60/4)
	require.Equal(t, h, res.LjungBox.Lags)
	require.Len(t, res.Autocorrelations, h)
	// Independent ACF: gonum's centred sums.
	n := len(r)
	mean := stat.Mean(r, nil)
	var den float64
	for _, x := range r {
		den += (x - mean) * (x - mean)
	}
	var q float64
	for k := 1; k <= h; k++ {
		var num float64
		for t := 0; t+k < n; t++ {
			num += (r[t] - mean) * (r[t+k] - mean)
		}
		rho := num / den
		assertRel(t, rho, res.Autocorrelations[k-1], 1e-12, "lag %d", k)
		q += rho * rho / float64(n-k)
	}
	q *= float64(n * (n + 2))
	assertRel(t, q, float64(*res.LjungBox.Q), 1e-12)
	assertRel(t, distuv.ChiSquared{K: float64(h)}.Survival(q), float64(*res.LjungBox.PValue), 1e-12)
	assertRel(t, res.Autocorrelations[0], float64(*res.AutocorrelationLag1), 0)
}

func TestRunsTestByHand(t *testing.T) {
	// W W L W L L W W W L: wins 6, non-wins 4, runs 6.
	r := []float64{1, 2, -1, 1, 0, -1, 3, 1, 1, -2}
	res, err := AnalyzeSerialCorrelation(r, ref(1))
	require.NoError(t, err)
	rt := res.RunsTest
	assert.Equal(t, 6, rt.Runs)
	assert.Equal(t, 6, rt.Wins)
	assert.Equal(t, 4, rt.NonWins)
	mu := 2.0*6*4/10 + 1                          // 5.8
	v := 2.0 * 6 * 4 * (2*6*4 - 10) / (100 * 9.0) // 2.0266...
	assertRel(t, mu, float64(*rt.ExpectedRuns), 1e-15)
	assertRel(t, math.Sqrt(v), float64(*rt.StdDev), 1e-12)
	z := (6 - mu) / math.Sqrt(v)
	assertRel(t, z, float64(*rt.Z), 1e-12)
	assertRel(t, math.Erfc(math.Abs(z)/math.Sqrt2), float64(*rt.PValue), 1e-12)
	assert.Equal(t, DependenceRandom, rt.Dependence)
}

func TestRunsTestStreakyAndAlternating(t *testing.T) {
	streaky := make([]float64, 40)
	alt := make([]float64, 40)
	for i := range streaky {
		streaky[i] = -1
		if i < 20 {
			streaky[i] = 1
		}
		alt[i] = float64(2*(i%2) - 1)
	}
	res, err := AnalyzeSerialCorrelation(streaky, nil)
	require.NoError(t, err)
	assert.Equal(t, DependenceStreaky, res.RunsTest.Dependence)
	assert.True(t, res.SerialDependence)
	res, err = AnalyzeSerialCorrelation(alt, nil)
	require.NoError(t, err)
	assert.Equal(t, DependenceAlternating, res.RunsTest.Dependence)
	assert.InDelta(t, -1, float64(*res.AutocorrelationLag1), 0.05)
}

func TestSerialCorrelationDegenerate(t *testing.T) {
	res, err := AnalyzeSerialCorrelation([]float64{1, 1, 1, 1}, nil)
	require.NoError(t, err)
	assert.Nil(t, res.AutocorrelationLag1)
	assert.Nil(t, res.LjungBox.Q)
	assert.Empty(t, res.Autocorrelations)
	assert.Equal(t, DependenceUndefined, res.RunsTest.Dependence)
	assert.Nil(t, res.RunsTest.Z)
	assert.False(t, res.SerialDependence)
}

// TestSerialTestsSize: under i.i.d. N(0, 1) outcomes (n = 200, so win/loss
// is a fair coin), Ljung–Box (10 lags) and the runs test must each reject
// in 4–6 % of 2,000 simulations at α = 5 % (finance-methods.md §9.2 C6).
func TestSerialTestsSize(t *testing.T) {
	const sims, n = 2000, 200
	rng := rand.New(rand.NewPCG(2024, 5))
	r := make([]float64, n)
	lb, runs := 0, 0
	for s := 0; s < sims; s++ {
		for i := range r {
			r[i] = rng.NormFloat64()
		}
		res, err := AnalyzeSerialCorrelation(r, nil)
		require.NoError(t, err)
		if res.LjungBox.Significant {
			lb++
		}
		if res.RunsTest.Significant {
			runs++
		}
	}
	sizeLB, sizeRuns := float64(lb)/sims, float64(runs)/sims
	t.Logf("size at alpha 5%%: Ljung-Box %.4f, runs test %.4f (2000 simulations, n = 200)", sizeLB, sizeRuns)
	for name, size := range map[string]float64{"ljung-box": sizeLB, "runs": sizeRuns} {
		assert.GreaterOrEqual(t, size, 0.04, name)
		assert.LessOrEqual(t, size, 0.06, name)
	}
}

func TestSerialCorrelationBadInput(t *testing.T) {
	cases := []struct {
		name string
		r    []float64
		lags int
		msg  string
	}{
		{"too few", []float64{1, 2}, 0, "r_multiples: needs at least 3"},
		{"nan", []float64{1, 2, math.NaN()}, 0, "r_multiples: item 2"},
		{"lags too big", []float64{1, 2, 3}, 3, "lags: must be between 1 and 2"},
		{"lags negative", []float64{1, 2, 3}, -1, "lags:"},
		{"lags zero", []float64{1, 2, 3}, 0, "lags: must be between 1 and 2"},
	}
	for _, c := range cases {
		_, err := AnalyzeSerialCorrelation(c.r, ref(c.lags))
		require.Error(t, err, c.name)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), c.name)
		assert.Contains(t, toolkit.MessageOf(err), c.msg, c.name)
	}
}
