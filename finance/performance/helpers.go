package performance

// Small statistics and output helpers shared by the tools of the package.
// selectKth, medianOf and radixSortFloat64 live in radix.go.

import (
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
)

// sortedCopy returns a sorted copy of xs.
func sortedCopy(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// quantileSorted returns the q-quantile (0 <= q <= 1) of ascending sorted
// values with linear interpolation between order statistics (Hyndman–Fan
// type 7, the default of numpy, R and Excel's PERCENTILE.INC): h = (n-1)q,
// x[floor h] + (h-floor h)(x[floor h+1]-x[floor h]). It returns 0 for an
// empty slice.
func quantileSorted(sorted []float64, q float64) float64 {
	return quantileSortedFunc(sorted, q, nil)
}

// quantileSortedFunc is quantileSorted over fn(sorted[i]), for a monotone
// non-decreasing fn applied only to the two order statistics it needs; a
// nil fn is the identity.
func quantileSortedFunc(sorted []float64, q float64, fn func(float64) float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	at := func(i int) float64 {
		if fn == nil {
			return sorted[i]
		}
		return fn(sorted[i])
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return at(n - 1)
	}
	if lo < 0 {
		return at(0)
	}
	frac := h - float64(lo)
	a := at(lo)
	if frac == 0 {
		return a
	}
	return a + frac*(at(lo+1)-a)
}

// selectQuantile returns the type-7 q-quantile of xs (as quantileSorted on
// the sorted data) by selection in O(n) on average. It reorders xs.
func selectQuantile(xs []float64, q float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	selectKth(xs, lo)
	a := xs[lo]
	frac := h - float64(lo)
	if lo+1 >= n || frac == 0 {
		return a
	}
	b := slices.Min(xs[lo+1:])
	return a + frac*(b-a)
}

// meanM2 returns the mean and the sum of squared deviations of xs in two
// passes (stable). Both are 0 for an empty slice.
func meanM2(xs []float64) (mean, m2 float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean = s / float64(len(xs))
	for _, x := range xs {
		d := x - mean
		m2 += d * d
	}
	return mean, m2
}

// meanStd returns the mean and the sample standard deviation (ddof 1,
// two-pass) of xs. The deviation is 0 for fewer than two values.
func meanStd(xs []float64) (mean, sd float64) {
	mean, m2 := meanM2(xs)
	if len(xs) < 2 {
		return mean, 0
	}
	return mean, math.Sqrt(m2 / float64(len(xs)-1))
}

// meanG returns the mean and the published G (mean - popvar/2) of xs, both
// 0 for an empty slice. It is G computed in two passes without allocation,
// for the many small groups of segmentation and consistency.
func meanG(xs []float64) (mean, g float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	mean, m2 := meanM2(xs)
	return mean, mean - m2/float64(len(xs))/2
}

// winCount counts the wins of an R series: R > 0 is a win. Breakevens
// (R = 0) are not wins but stay in the denominator of every win rate of
// the package (the Tharp-journal convention).
func winCount(r []float64) int {
	w := 0
	for _, x := range r {
		if x > 0 {
			w++
		}
	}
	return w
}

// ratioOrNil returns a/b as a *toolkit.Float, or nil when b is 0 or the
// ratio is not finite (the ratio is undefined and travels as JSON null).
func ratioOrNil(a, b float64) *toolkit.Float {
	if b == 0 {
		return nil
	}
	return finiteOrNil(a / b)
}

// finiteOrNil returns a pointer to v as a toolkit.Float, or nil when v is
// not finite.
func finiteOrNil(v float64) *toolkit.Float {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return ptr(v)
}

// ptr returns a pointer to a toolkit.Float holding v. The caller
// guarantees v is finite; use finiteOrNil otherwise.
func ptr(v float64) *toolkit.Float {
	f := toolkit.Float(v)
	return &f
}
