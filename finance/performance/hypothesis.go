package performance

// Hypothesis tests used by the behavioural-bias analysis. Each returns a
// one-sided p-value; every degenerate sample (no spread at all) returns
// p = 1 for "no evidence", never NaN.

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// averageRanks returns the 1-based ranks of xs, ties sharing the average
// of their ranks, and the tie correction Σ(t³ − t) over groups of t tied
// values.
func averageRanks(xs []float64) (ranks []float64, ties float64) {
	n := len(xs)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	ranks = make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			ranks[idx[k]] = avg
		}
		if t := float64(j - i); t > 1 {
			ties += t*t*t - t
		}
		i = j
	}
	return ranks, ties
}

// mannWhitneyGreater tests H1: values of x tend to be larger than values
// of y (Mann–Whitney U, normal approximation with tie correction and a
// 0.5 continuity correction). It returns U of x and the one-sided p-value.
// Both samples must be non-empty.
func mannWhitneyGreater(x, y []float64) (u, p float64) {
	nx, ny := float64(len(x)), float64(len(y))
	ranks, ties := averageRanks(slices.Concat(x, y))
	var rx float64
	for _, r := range ranks[:len(x)] {
		rx += r
	}
	u = rx - nx*(nx+1)/2
	n := nx + ny
	variance := nx * ny / 12 * ((n + 1) - ties/(n*(n-1)))
	if variance <= 0 {
		return u, 1
	}
	z := (u - nx*ny/2 - 0.5) / math.Sqrt(variance)
	return u, distuv.UnitNormal.Survival(z)
}

// tTestGreater tests H1: the mean of x is above mu0 (one-sample Student t,
// n − 1 degrees of freedom). It returns t and the one-sided p-value; x
// needs at least two values.
func tTestGreater(x []float64, mu0 float64) (t, p float64) {
	n := float64(len(x))
	mean, sd := stat.Mean(x, nil), SampleStdDev(x)
	if sd == 0 {
		if mean > mu0 {
			return math.Inf(1), 0
		}
		return 0, 1
	}
	t = (mean - mu0) / (sd / math.Sqrt(n))
	return t, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Survival(t)
}

// spearmanLess returns Spearman's rank correlation of x and y (average
// ranks for ties) and the one-sided p-value of H1: rho < 0, from
// t = rho·√((n − 2)/(1 − rho²)) with n − 2 degrees of freedom. x and y are
// parallel with at least three values; a constant series gives rho = 0,
// p = 1.
func spearmanLess(x, y []float64) (rho, p float64) {
	rx, _ := averageRanks(x)
	ry, _ := averageRanks(y)
	if stat.Variance(rx, nil) == 0 || stat.Variance(ry, nil) == 0 {
		return 0, 1
	}
	rho = stat.Correlation(rx, ry, nil)
	n := float64(len(x))
	if rho <= -1 {
		return -1, 0
	}
	if rho >= 1 {
		return 1, 1
	}
	t := rho * math.Sqrt((n-2)/(1-rho*rho))
	return rho, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 2}.CDF(t)
}

// signTestBelow tests H1: the median of x is below m0 (exact sign test;
// values equal to m0 are dropped). It returns the one-sided p-value
// P(K ≥ k) for K ~ Binomial(m, 1/2), k values below m0 out of m.
func signTestBelow(x []float64, m0 float64) float64 {
	var k, m int
	for _, v := range x {
		switch {
		case v < m0:
			k++
			m++
		case v > m0:
			m++
		}
	}
	if m == 0 || k == 0 {
		return 1
	}
	return distuv.Binomial{N: float64(m), P: 0.5}.Survival(float64(k - 1))
}

// median returns the median of xs without reordering it (see medianOf).
func median(xs []float64) float64 { return medianOf(slices.Clone(xs)) }
