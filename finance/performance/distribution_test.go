package performance

import (
	"math"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// type7Quantile is an independent type-7 quantile: numpy's
// x[j] + g·(x[j+1] - x[j]) with h = 1 + (n-1)p in 1-based terms.
func type7Quantile(x []float64, p float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	h := 1 + float64(len(s)-1)*p
	j := math.Floor(h)
	g := h - j
	if int(j) >= len(s) {
		return s[len(s)-1]
	}
	return s[int(j)-1] + g*(s[int(j)]-s[int(j)-1])
}

func TestDistributionClosedForms(t *testing.T) {
	for _, r := range [][]float64{publishedR, normalR(31, 200, 0.3, 1.5), normalR(32, 1001, -0.1, 0.7)} {
		res, err := AnalyzeDistribution(r, nil)
		require.NoError(t, err)
		n := float64(len(r))
		assertRel(t, stat.Mean(r, nil), float64(res.Mean), 1e-12)
		assertRel(t, math.Sqrt(stat.Variance(r, nil)), float64(res.StdDev), 1e-12)
		// gonum's Skew and ExKurtosis are the bias-adjusted G1 and G2.
		assertRel(t, stat.Skew(r, nil), float64(*res.Skewness), 1e-12)
		assertRel(t, stat.ExKurtosis(r, nil), float64(*res.ExcessKurtosis), 1e-12)
		// Jarque–Bera from the moment estimators g1, g2, derived back from G1, G2.
		G1, G2 := stat.Skew(r, nil), stat.ExKurtosis(r, nil)
		g1 := G1 * (n - 2) / math.Sqrt(n*(n-1))
		g2 := (G2*(n-2)*(n-3)/(n-1) - 6) / (n + 1)
		jb := n / 6 * (g1*g1 + g2*g2/4)
		assertRel(t, jb, float64(*res.JarqueBera), 1e-12)
		assertRel(t, math.Exp(-jb/2), float64(*res.JarqueBeraPValue), 1e-12)
		for p, got := range map[float64]toolkit.Float{
			0.01: res.Quantiles.P1, 0.05: res.Quantiles.P5, 0.1: res.Quantiles.P10, 0.25: res.Quantiles.P25,
			0.5: res.Quantiles.P50, 0.75: res.Quantiles.P75, 0.9: res.Quantiles.P90, 0.95: res.Quantiles.P95,
			0.99: res.Quantiles.P99,
		} {
			assertRel(t, type7Quantile(r, p), float64(got), 1e-12, "p=%v", p)
		}
		assert.Equal(t, res.Quantiles.P50, res.Median)
		total := 0
		for _, b := range res.Histogram {
			total += b.Count
		}
		assert.Equal(t, len(r), total)
		assert.Len(t, res.Histogram, DefaultBucketCount)
	}
}

func TestDistributionPublishedExample(t *testing.T) {
	res, err := AnalyzeDistribution(publishedR, ref(4))
	require.NoError(t, err)
	// Range -1..3.2, width 1.05: [-1, 0.05) holds -1, -1, -0.5; [0.05, 1.1)
	// holds 0.8; [1.1, 2.15) holds 1.5, 1.8; [2.15, 3.2] holds 2.3, 3.2.
	counts := []int{}
	for _, b := range res.Histogram {
		counts = append(counts, b.Count)
	}
	assert.Equal(t, []int{3, 1, 2, 2}, counts)
	assert.Equal(t, toolkit.Float(1.15), res.Median)
	assertRel(t, 2.885, float64(*res.TailRatio), 1e-12) // |p95| / |p5| = 2.885/1
	assert.Equal(t, toolkit.Float(-1), res.ExpectedShortfall5Pct)
	assert.Equal(t, toolkit.Float(3.2), res.ExpectedUpside5Pct)
}

func TestHistogramMembershipMatchesEdges(t *testing.T) {
	r := normalR(33, 5000, 0, 1)
	r = append(r, 0.1, 0.2, 0.3) // values likely to sit on computed edges
	for _, k := range []int{1, 3, 7, 10, 64} {
		res, err := AnalyzeDistribution(r, ref(k))
		require.NoError(t, err)
		for i, b := range res.Histogram {
			want := 0
			for _, x := range r {
				in := x >= float64(b.Lower) && x < float64(b.Upper)
				if i == k-1 {
					in = x >= float64(b.Lower) && x <= float64(b.Upper)
				}
				if in {
					want++
				}
			}
			assert.Equal(t, want, b.Count, "k=%d bucket %d", k, i)
		}
	}
}

func TestDistributionDegenerate(t *testing.T) {
	res, err := AnalyzeDistribution([]float64{2, 2, 2}, ref(5))
	require.NoError(t, err)
	assert.Nil(t, res.Skewness)
	assert.Nil(t, res.ExcessKurtosis)
	assert.Nil(t, res.JarqueBera)
	assert.False(t, res.NormalAt5Pct)
	assert.Equal(t, 3, res.Histogram[0].Count)
	res, err = AnalyzeDistribution([]float64{1, 2, 4}, ref(1))
	require.NoError(t, err)
	assert.NotNil(t, res.Skewness)
	assert.Nil(t, res.ExcessKurtosis) // needs n >= 4
	res, err = AnalyzeDistribution([]float64{0, 0, 0, 0, 5}, nil)
	require.NoError(t, err)
	assert.Nil(t, res.TailRatio) // p5 = 0
}

func TestDistributionNormalityOnNormalAndSkewedData(t *testing.T) {
	res, err := AnalyzeDistribution(normalR(34, 2000, 0, 1), nil)
	require.NoError(t, err)
	assert.True(t, res.NormalAt5Pct)
	skewed := make([]float64, 2000)
	exp := distuv.Exponential{Rate: 1}
	for i := range skewed {
		skewed[i] = exp.Quantile((float64(i) + 0.5) / 2000)
	}
	res, err = AnalyzeDistribution(skewed, nil)
	require.NoError(t, err)
	assert.False(t, res.NormalAt5Pct)
	assert.InDelta(t, 2, float64(*res.Skewness), 0.3)
}

func TestDistributionBadInput(t *testing.T) {
	for _, c := range []struct {
		r   []float64
		k   int
		msg string
	}{
		{[]float64{1}, 10, "r_multiples: needs at least 2"},
		{[]float64{1, math.Inf(-1)}, 10, "r_multiples: item 1"},
		{[]float64{1, 2}, -1, "bucket_count: must be between 1 and 1000"},
		{[]float64{1, 2}, 1001, "bucket_count: must be between 1 and 1000"},
	} {
		_, err := AnalyzeDistribution(c.r, ref(c.k))
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
