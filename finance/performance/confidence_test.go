package performance

import (
	"context"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

var publishedR = []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8}

// assertRel asserts |got - want| <= tol·max(1, |want|).
func assertRel(t *testing.T, want, got float64, tol float64, msg ...any) {
	t.Helper()
	assert.InDelta(t, want, got, tol*math.Max(1, math.Abs(want)), msg...)
}

func TestConfidenceClosedForms(t *testing.T) {
	res, err := AnalyzeConfidence(context.Background(), publishedR, ConfidenceOptions{Seed: 1, Samples: ref(1000)})
	require.NoError(t, err)
	n := float64(len(publishedR))
	mean := stat.Mean(publishedR, nil)
	sd := math.Sqrt(stat.Variance(publishedR, nil))
	assertRel(t, mean, float64(res.MeanR), 1e-12)
	assertRel(t, sd, float64(res.StdDevR), 1e-12)
	// t(0.975, 7) = 2.364624251592785 (tables: 2.3646)
	assertRel(t, 2.364624251592785, float64(res.TCritical), 1e-9)
	se := sd / math.Sqrt(n)
	assertRel(t, mean-2.364624251592785*se, float64(res.MeanRTInterval.Lower), 1e-9)
	assertRel(t, mean+2.364624251592785*se, float64(res.MeanRTInterval.Upper), 1e-9)
	assertRel(t, 5.0/8, float64(res.WinRate), 1e-15)
	assertRel(t, mean/se, float64(*res.TStatistic), 1e-12)
	// Wilson interval, written out independently.
	p, z := 5.0/8, 1.959963984540054
	c := (p + z*z/(2*n)) / (1 + z*z/n)
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / (1 + z*z/n)
	assertRel(t, c-h, float64(res.WinRateWilsonCI.Lower), 1e-12)
	assertRel(t, c+h, float64(res.WinRateWilsonCI.Upper), 1e-12)
	assert.Len(t, res.Warnings, 1)
}

func TestConfidenceTCriticalCheckValue(t *testing.T) {
	r := normalR(3, 30, 0.2, 1)
	res, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Samples: ref(100)})
	require.NoError(t, err)
	assert.InDelta(t, 2.0452, float64(res.TCritical), 5e-5) // t(0.975, 29)
	assert.Empty(t, res.Warnings)
}

// TestBootstrapMatchesIndependentLoop re-implements the documented
// resampling (stream per resample, two 32-bit indices per draw) naively.
func TestBootstrapMatchesIndependentLoop(t *testing.T) {
	r := normalR(5, 37, 0.1, 1.2) // odd n exercises the trailing draw
	const samples, seed = 500, 99
	means := make([]float64, samples)
	wins := make([]int32, samples)
	require.NoError(t, bootstrapMeans(context.Background(), r, seed, means, wins))
	for i := 0; i < samples; i++ {
		mix := func(z uint64) uint64 {
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
			z = (z ^ (z >> 27)) * 0x94d049bb133111eb
			return z ^ (z >> 31)
		}
		state := mix(seed^0x6a09e667f3bcc909) ^ mix(uint64(i)+0x9e3779b97f4a7c15)
		var idx []uint64
		for len(idx) < len(r) {
			state += 0x9e3779b97f4a7c15
			z := mix(state)
			idx = append(idx, (z&0xffffffff)*uint64(len(r))>>32, (z>>32)*uint64(len(r))>>32)
		}
		var sum float64
		var w int32
		for _, j := range idx[:len(r)] {
			sum += r[j]
			if r[j] > 0 {
				w++
			}
		}
		require.Equal(t, sum/float64(len(r)), means[i], "resample %d", i)
		require.Equal(t, w, wins[i], "resample %d", i)
	}
}

func TestConfidenceIdenticalAcrossGOMAXPROCS(t *testing.T) {
	r := normalR(8, 200, 0.2, 1.3)
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	one, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Seed: 42})
	require.NoError(t, err)
	runtime.GOMAXPROCS(4)
	four, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Seed: 42})
	require.NoError(t, err)
	assert.Equal(t, one, four)
	other, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Seed: 43})
	require.NoError(t, err)
	assert.NotEqual(t, one.MeanRBootstrapCI, other.MeanRBootstrapCI)
}

func TestConfidenceBootstrapSanity(t *testing.T) {
	r := normalR(11, 200, 0.2, 1.3)
	res, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Seed: 1})
	require.NoError(t, err)
	// With n = 200 the percentile interval is close to the t interval.
	assert.InDelta(t, float64(res.MeanRTInterval.Lower), float64(res.MeanRBootstrapCI.Lower), 0.03)
	assert.InDelta(t, float64(res.MeanRTInterval.Upper), float64(res.MeanRBootstrapCI.Upper), 0.03)
	assert.InDelta(t, float64(res.WinRateWilsonCI.Lower), float64(res.WinRateBootstrapCI.Lower), 0.02)
	// P(mean > 0) from the bootstrap is close to the t-based 1 - p.
	assert.InDelta(t, 1-float64(*res.PValueOneSided), float64(res.ProbabilityEdgePositive), 0.01)
}

func TestConfidenceConstantSeries(t *testing.T) {
	res, err := AnalyzeConfidence(context.Background(), []float64{0.5, 0.5, 0.5}, ConfidenceOptions{Samples: ref(100)})
	require.NoError(t, err)
	assert.Nil(t, res.TStatistic)
	assert.Nil(t, res.PValueOneSided)
	assert.Equal(t, Interval{0.5, 0.5}, res.MeanRBootstrapCI)
	assert.Equal(t, toolkit.Float(1), res.ProbabilityEdgePositive)
}

// TestBootstrapCoverage: 2,000 replications of 50 trades from N(0.2, 1),
// 1,000 resamples each; the 95 % percentile CI of the mean must cover 0.2
// in 93.5–96.5 % of them (finance-methods.md §9.2 C6).
func TestBootstrapCoverage(t *testing.T) {
	const reps, n, mu = 2000, 50, 0.2
	var boot, tint int
	var mu2 sync.Mutex
	var wg sync.WaitGroup
	workers := 4
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			b, ti := 0, 0
			for rep := w; rep < reps; rep += workers {
				r := normalR(uint64(1000+rep), n, mu, 1)
				res, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Samples: ref(1000), Seed: uint64(rep)})
				if err != nil {
					panic(err)
				}
				if float64(res.MeanRBootstrapCI.Lower) <= mu && mu <= float64(res.MeanRBootstrapCI.Upper) {
					b++
				}
				if float64(res.MeanRTInterval.Lower) <= mu && mu <= float64(res.MeanRTInterval.Upper) {
					ti++
				}
			}
			mu2.Lock()
			boot += b
			tint += ti
			mu2.Unlock()
		})
	}
	wg.Wait()
	cb, ct := float64(boot)/reps, float64(tint)/reps
	t.Logf("bootstrap 95%% CI coverage %.4f, t-interval coverage %.4f (2000 replications)", cb, ct)
	assert.GreaterOrEqual(t, cb, 0.935)
	assert.LessOrEqual(t, cb, 0.965)
	assert.GreaterOrEqual(t, ct, 0.935)
	assert.LessOrEqual(t, ct, 0.965)
}

func TestConfidenceBadInput(t *testing.T) {
	big := make([]float64, limits.MaxItems+1)
	cases := []struct {
		name string
		r    []float64
		opt  ConfidenceOptions
		kind toolkit.Kind
		msg  string
	}{
		{"too few", []float64{1}, ConfidenceOptions{}, toolkit.Invalid, "r_multiples: needs at least 2"},
		{"nan", []float64{1, math.NaN()}, ConfidenceOptions{}, toolkit.Invalid, "r_multiples: item 1 must be a finite"},
		{"inf", []float64{math.Inf(1), 1}, ConfidenceOptions{}, toolkit.Invalid, "r_multiples: item 0"},
		{"too many", big, ConfidenceOptions{}, toolkit.TooLarge, "r_multiples: at most"},
		{"level", []float64{1, 2}, ConfidenceOptions{Level: ref(1.2)}, toolkit.Invalid, "confidence: must be between"},
		{"level nan", []float64{1, 2}, ConfidenceOptions{Level: ref(math.NaN())}, toolkit.Invalid, "confidence:"},
		{"samples high", []float64{1, 2}, ConfidenceOptions{Samples: ref(10001)}, toolkit.Invalid, "bootstrap_samples: must be between"},
		{"samples low", []float64{1, 2}, ConfidenceOptions{Samples: ref(99)}, toolkit.Invalid, "bootstrap_samples:"},
	}
	for _, c := range cases {
		_, err := AnalyzeConfidence(context.Background(), c.r, c.opt)
		require.Error(t, err, c.name)
		assert.Equal(t, c.kind, toolkit.KindOf(err), c.name)
		assert.Contains(t, toolkit.MessageOf(err), c.msg, c.name)
	}
}
