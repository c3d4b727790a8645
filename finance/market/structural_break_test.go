package market

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barsFromReturns builds bars whose closes have the log returns r,
// starting at 100 (high/low 0.1 % around the body).
func barsFromReturns(r []float64) []Bar {
	bars := make([]Bar, len(r)+1)
	p := 100.0
	bars[0] = Bar{Open: 100, High: 100.1, Low: 99.9, Close: 100, Volume: 1}
	for i, x := range r {
		o := p
		p *= math.Exp(x)
		bars[i+1] = Bar{Open: toolkit.Float(o), High: toolkit.Float(max(o, p) * 1.001),
			Low: toolkit.Float(min(o, p) * 0.999), Close: toolkit.Float(p), Volume: 1}
	}
	return bars
}

// rejectionRates runs sims simulations of 221 bars (220 N(0, 1 %) log
// returns, plus shift·1 % from return index 109 on, i.e. from bar 110) on
// parallel goroutines. Simulation s uses PCG(seed, s), so the result does
// not depend on scheduling. It returns the sup-F and CUSUM rejection rates
// at 5 % and the share of sup-F locations within 10 bars of bar 110.
func rejectionRates(t *testing.T, sims int, shift float64, seed uint64) (supF, cusum, located float64) {
	t.Helper()
	counts := make([][3]int, sims)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := make([]float64, 220)
			for s := w; s < sims; s += workers {
				rng := rand.New(rand.NewPCG(seed, uint64(s)))
				for i := range r {
					r[i] = 0.01 * rng.NormFloat64()
					if i >= 109 {
						r[i] += shift * 0.01
					}
				}
				rep, err := result(DetectStructuralBreak(context.Background(), barsFromReturns(r), BreakOptions{}))
				if err != nil {
					panic(err)
				}
				if rep.SupF.Reject {
					counts[s][0] = 1
				}
				if rep.Cusum.Reject {
					counts[s][1] = 1
				}
				if rep.BreakIndex >= 100 && rep.BreakIndex <= 120 {
					counts[s][2] = 1
				}
			}
		}(w)
	}
	wg.Wait()
	var sum [3]int
	for _, c := range counts {
		for j := range sum {
			sum[j] += c[j]
		}
	}
	return float64(sum[0]) / float64(sims), float64(sum[1]) / float64(sims), float64(sum[2]) / float64(sims)
}

// TestBreakTestSizeUnderNull: with iid returns both tests reject 4-6 % of
// 2,000 simulations at alpha 5 %. Measured with this seed: sup-F 5.85 %,
// OLS-CUSUM 5.65 %; over 50,000 simulations (5 other seeds) the sizes
// are 4.86 % and 4.94 %.
func TestBreakTestSizeUnderNull(t *testing.T) {
	supF, cusum, _ := rejectionRates(t, 2000, 0, 20260101)
	t.Logf("size at 5%%: sup-F %.4f, OLS-CUSUM %.4f", supF, cusum)
	assert.InDelta(t, 0.05, supF, 0.01, "sup-F size")
	assert.InDelta(t, 0.05, cusum, 0.01, "OLS-CUSUM size")
}

// TestBreakTestPower: a 1σ mean shift in the returns from bar 110 of 221
// is detected in at least 90 % of 2,000 simulations (measured 100 %), and
// located within 10 bars most of the time; a 0.5σ shift, the harder case,
// is pinned too (measured: sup-F 89.15 %, CUSUM 92.65 %; location within
// ±10 bars for the 1σ shift: 92.55 %).
func TestBreakTestPower(t *testing.T) {
	supF, cusum, located := rejectionRates(t, 2000, 1, 20260202)
	t.Logf("power, 1σ shift: sup-F %.4f, OLS-CUSUM %.4f, located ±10 bars %.4f", supF, cusum, located)
	assert.GreaterOrEqual(t, supF, 0.99)
	assert.GreaterOrEqual(t, cusum, 0.99)
	assert.GreaterOrEqual(t, located, 0.90)
	half, halfC, _ := rejectionRates(t, 2000, 0.5, 20260303)
	t.Logf("power, 0.5σ shift: sup-F %.4f, OLS-CUSUM %.4f", half, halfC)
	assert.InDelta(t, 0.8915, half, 0.03)
	assert.InDelta(t, 0.9265, halfC, 0.03)
}

// TestSupFApproximationMatchesAndrews: Hansen's approximation gives about
// Andrews' (1993) levels at his critical values for one restriction and
// 15 % trimming, the critical value inverts the p-value, and the p-value
// is non-increasing in x within [0, 1].
func TestSupFApproximationMatchesAndrews(t *testing.T) {
	for _, c := range []struct{ cv, level float64 }{{7.12, 0.10}, {8.68, 0.05}, {12.16, 0.01}} {
		assert.InDelta(t, c.level, supFPValue(c.cv, 0.15), 0.004, "p at %v", c.cv)
	}
	for _, tau := range []float64{0.005, 0.05, 0.15, 0.2345, 0.30, 0.495} {
		for _, alpha := range []float64{0.001, 0.01, 0.05, 0.2} {
			assert.InDelta(t, alpha, supFPValue(supFCritical(alpha, tau), tau), 1e-9, "tau %v alpha %v", tau, alpha)
		}
		prev := 1.0
		for x := 0.0; x < 40; x += 0.05 {
			p := supFPValue(x, tau)
			require.LessOrEqual(t, p, prev+1e-12, "x=%v", x)
			require.GreaterOrEqual(t, p, 0.0)
			prev = p
		}
	}
	assert.InDelta(t, 8.68, supFCritical(0.05, 0.15), 0.1, "Andrews' 5 %% value")
	// Kolmogorov distribution: the classic critical values
	for _, c := range []struct{ cv, level float64 }{{1.224, 0.10}, {1.358, 0.05}, {1.628, 0.01}} {
		assert.InDelta(t, c.level, 1-kolmogorovCDF(c.cv), 0.001, "Kolmogorov at %v", c.cv)
	}
	// the two series forms agree around the switch point x = 1
	for x := 0.7; x <= 1.5; x += 0.05 {
		assert.InDelta(t, kolmogorovTheta(x), kolmogorovAlternating(x), 1e-14, "x=%v", x)
	}
}

// strucchangeGolden is testdata/strucchange.json, written by
// testdata/gen/strucchange.R from R strucchange.
type strucchangeGolden struct {
	Generator string `json:"generator"`
	PValues   []struct {
		Returns    int            `json:"returns"`
		Trim       toolkit.Float  `json:"trim"`
		From       int            `json:"from"`
		Lambda     toolkit.Float  `json:"lambda"`
		Statistics toolkit.Floats `json:"statistics"`
		PValues    toolkit.Floats `json:"p_values"`
	} `json:"p_values"`
	Series []struct {
		Name       string         `json:"name"`
		Trim       toolkit.Float  `json:"trim"`
		From       int            `json:"from"`
		Lambda     toolkit.Float  `json:"lambda"`
		SupF       toolkit.Float  `json:"sup_f"`
		PValue     toolkit.Float  `json:"p_value"`
		Breakpoint int            `json:"breakpoint"`
		Closes     toolkit.Floats `json:"closes"`
	} `json:"series"`
}

func readStrucchange(t *testing.T) strucchangeGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/strucchange.json")
	require.NoError(t, err)
	var g strucchangeGolden
	require.NoError(t, json.Unmarshal(b, &g))
	require.NotEmpty(t, g.PValues)
	require.NotEmpty(t, g.Series)
	return g
}

// TestSupFPValuesMatchStrucchange: over 1,428 statistics at six trimmings
// and two sample sizes, the sup-F p-values equal R strucchange's
// pvalue.Fstats (Hansen 1997) to 1e-9 (the goal is 0.005 for p in
// [0.01, 0.5]); the search start is strucchange's ⌊trim·n⌋.
func TestSupFPValuesMatchStrucchange(t *testing.T) {
	g := readStrucchange(t)
	worst := 0.0
	for _, grid := range g.PValues {
		n, trim := grid.Returns, float64(grid.Trim)
		require.Equal(t, grid.From, supFFrom(n, trim), "from at n=%d trim=%v", n, trim)
		tau := float64(supFFrom(n, trim)) / float64(n)
		require.InDelta(t, 1/(1+math.Sqrt(float64(grid.Lambda))), tau, 1e-12, "strucchange's tau")
		require.Len(t, grid.PValues, len(grid.Statistics))
		for i, x := range grid.Statistics {
			want := grid.PValues[i]
			got := supFPValue(x, tau)
			worst = max(worst, math.Abs(got-want))
			assert.InDelta(t, want, got, 1e-9, "n=%d trim=%v F=%v", n, trim, x)
		}
	}
	t.Logf("largest |p − strucchange p| over the grid: %.3g", worst)
}

// TestStructuralBreakMatchesStrucchange: on seeded series the whole test
// (statistic, location, p-value) equals R strucchange's
// sctest(Fstats(r ~ 1, from = trim), type = "supF").
func TestStructuralBreakMatchesStrucchange(t *testing.T) {
	for _, c := range readStrucchange(t).Series {
		bars := make([]Bar, len(c.Closes))
		for i, p := range c.Closes {
			bars[i] = Bar{Open: toolkit.Float(p), High: toolkit.Float(p), Low: toolkit.Float(p), Close: toolkit.Float(p), Volume: 1}
		}
		trim := float64(c.Trim)
		rep, err := result(DetectStructuralBreak(context.Background(), bars, BreakOptions{Trim: &trim}))
		require.NoError(t, err, c.Name)
		got := rep
		assert.InEpsilon(t, float64(c.SupF), float64(got.SupF.Statistic), 1e-10, c.Name)
		assert.InDelta(t, float64(c.PValue), float64(got.SupF.PValue), 1e-9, c.Name)
		assert.Equal(t, c.Breakpoint+1, got.SupF.BreakIndex, "%s: strucchange's breakpoint is the last return before the break", c.Name)
	}
}

// TestSupFMatchesBruteForceChow compares the O(n) statistic with an
// independent two-pass Chow F computed at every admissible split.
func TestSupFMatchesBruteForceChow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := make([]float64, 300)
	for i := range r {
		r[i] = 0.02*rng.NormFloat64() + 0.001
		if i > 200 {
			r[i] += 0.01
		}
	}
	got, m, _, _ := breakStatistics(r, 0.15)
	rss := func(x []float64) float64 {
		mu := 0.0
		for _, v := range x {
			mu += v
		}
		mu /= float64(len(x))
		s := 0.0
		for _, v := range x {
			s += (v - mu) * (v - mu)
		}
		return s
	}
	n := len(r)
	lo := int(math.Floor(0.15 * float64(n)))
	best, bestM := -1.0, 0
	for t := lo; t <= n-lo; t++ {
		r1, r2 := rss(r[:t]), rss(r[t:])
		f := (rss(r) - r1 - r2) / ((r1 + r2) / float64(n-2))
		if f > best {
			best, bestM = f, t
		}
	}
	assert.InDelta(t, best, got, 1e-9*best)
	assert.Equal(t, bestM, m)
}

// TestStructuralBreakReport checks the report on a planted break and the
// segment statistics against direct computation.
func TestStructuralBreakReport(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	r := make([]float64, 300)
	for i := range r {
		r[i] = 0.01 * rng.NormFloat64()
		if i >= 149 {
			r[i] = 0.01*rng.NormFloat64() + 0.012
		}
	}
	rep, err := result(DetectStructuralBreak(context.Background(), barsFromReturns(r), BreakOptions{}))
	require.NoError(t, err)
	assert.True(t, rep.BreakDetected)
	assert.InDelta(t, 150, rep.BreakIndex, 8)
	assert.Equal(t, 301, rep.BarsAnalyzed)
	assert.Equal(t, 300, rep.Returns)
	assert.Equal(t, rep.Before.Returns+rep.After.Returns, 300)
	assert.Equal(t, 1, rep.Before.StartIndex)
	assert.Equal(t, rep.BreakIndex-1, rep.Before.EndIndex)
	assert.Equal(t, rep.BreakIndex, rep.After.StartIndex)
	assert.Equal(t, 300, rep.After.EndIndex)
	m := rep.BreakIndex - 1
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	assert.InDelta(t, mean(r[:m]), float64(rep.Before.MeanReturn), 1e-12)
	assert.InDelta(t, mean(r[m:]), float64(rep.After.MeanReturn), 1e-12)
	assert.InDelta(t, 0.012, float64(rep.MeanShift), 0.005)
	require.NotNil(t, rep.VolatilityRatio)
	assert.InDelta(t, 1, float64(*rep.VolatilityRatio), 0.3)
	assert.Less(t, float64(rep.SupF.PValue), 0.001)
	assert.Greater(t, float64(rep.SupF.Statistic), float64(rep.SupF.CriticalValue))
}

// TestStructuralBreakEdgeCases: flat prices, a perfect step in the
// returns, options and too few bars.
func TestStructuralBreakEdgeCases(t *testing.T) {
	flat := barsFromReturns(make([]float64, 230))
	rep, err := result(DetectStructuralBreak(context.Background(), flat, BreakOptions{}))
	require.NoError(t, err)
	assert.False(t, rep.BreakDetected)
	assert.Zero(t, float64(rep.SupF.Statistic))
	assert.Equal(t, 1.0, float64(rep.SupF.PValue))
	assert.Equal(t, 1.0, float64(rep.Cusum.PValue))
	assert.Nil(t, rep.VolatilityRatio)

	step := make([]float64, 230)
	for i := 115; i < 230; i++ {
		step[i] = 0.01
	}
	rep, err = result(DetectStructuralBreak(context.Background(), barsFromReturns(step), BreakOptions{}))
	require.NoError(t, err)
	assert.True(t, rep.BreakDetected)
	assert.Equal(t, 116, rep.BreakIndex)
	assert.LessOrEqual(t, float64(rep.SupF.Statistic), supFCap)

	short, err := DetectStructuralBreak(context.Background(), flat[:220], BreakOptions{})
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "too few bars is an answer, not an error")
	assert.Equal(t, 221, short.Insufficient.BarsRequired)
	for _, o := range []BreakOptions{{Alpha: ref(0.5)}, {Alpha: ref(-1.0)}, {Alpha: ref(0.0)}, {Trim: ref(0.01)}, {Trim: ref(0.4)}, {Alpha: ref(math.NaN())}} {
		_, err = result(DetectStructuralBreak(context.Background(), flat, o))
		require.Error(t, err, "%+v", o)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	}
	rep, err = result(DetectStructuralBreak(context.Background(), flat, BreakOptions{Alpha: ref(0.01), Trim: ref(0.10)}))
	require.NoError(t, err)
	assert.InDelta(t, 0.01, float64(rep.Alpha), 0)
	assert.InDelta(t, 1.628, float64(rep.Cusum.CriticalValue), 0.001)
}
