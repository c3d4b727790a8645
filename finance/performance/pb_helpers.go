package performance

// Helpers shared by the "perf-b" tools (confidence, consistency, serial
// correlation, distribution, risk-adjusted, execution quality,
// segmentation and the trade-level tools). They carry a pb prefix so they
// never clash with the helpers of the other performance files.

import (
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
)

// pbCheckSeries validates a float series input named field: more than
// toolkit.MaxValues values is TooLarge, fewer than minLen is Invalid, and
// every value must be finite.
func pbCheckSeries(field string, xs []float64, minLen int) error {
	if len(xs) > toolkit.MaxValues {
		return toolkit.Errorf(toolkit.TooLarge, "%s: at most %d values are accepted", field, toolkit.MaxValues)
	}
	if len(xs) < minLen {
		return invalid(field, "needs at least %d values, got %d", minLen, len(xs))
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return invalid(field, "item %d must be a finite number", i)
		}
	}
	return nil
}

// pbCheckParallel validates an optional array that must be parallel to
// r_multiples: when present (non-nil) it must have exactly n items.
func pbCheckParallel(field string, got, n int) error {
	if got > toolkit.MaxValues {
		return toolkit.Errorf(toolkit.TooLarge, "%s: at most %d values are accepted", field, toolkit.MaxValues)
	}
	if got != n {
		return invalid(field, "must have the same length as r_multiples (%d), got %d", n, got)
	}
	return nil
}

// pbSorted returns a sorted copy of xs.
func pbSorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// pbQuantile returns the p-quantile (0 <= p <= 1) of sorted data by
// linear interpolation between order statistics: Hyndman–Fan type 7, the
// default of numpy, R and Excel's PERCENTILE.INC. h = (n-1)p; the result
// is x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
func pbQuantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	if lo < 0 {
		return sorted[0]
	}
	frac := h - float64(lo)
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo])
}

// pbWinCount counts the wins of an R series: R > 0 is a win. Breakevens
// (R = 0) are not wins but stay in the denominator of every win rate of
// these tools (the Tharp-journal convention).
func pbWinCount(r []float64) int {
	w := 0
	for _, x := range r {
		if x > 0 {
			w++
		}
	}
	return w
}

// pbMeanStd returns the mean and the sample standard deviation (ddof 1,
// two-pass) of xs. The deviation is 0 for fewer than two values.
func pbMeanStd(xs []float64) (mean, sd float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean = s / float64(n)
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// pbMeanG returns the mean and the published G (mean - popvar/2) of xs,
// both 0 for an empty slice. It is G computed in two passes without
// allocation, for the many small groups of segmentation and consistency.
func pbMeanG(xs []float64) (mean, g float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean = s / float64(n)
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, mean - ss/float64(n)/2
}

// pbRatio returns a/b as a *toolkit.Float, or nil when b is 0 (the ratio is
// undefined and travels as JSON null).
func pbRatio(a, b float64) *toolkit.Float {
	if b == 0 {
		return nil
	}
	return pbF(a / b)
}

// pbF returns a pointer to v as a toolkit.Float, or nil when v is not
// finite.
func pbF(v float64) *toolkit.Float {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	f := toolkit.Float(v)
	return &f
}

// pbSelectQuantile returns the type-7 p-quantile of xs (as pbQuantile on
// the sorted data) by selection in O(n) on average. It reorders xs.
func pbSelectQuantile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	selectKth(xs, lo)
	a := xs[lo]
	if lo+1 >= n {
		return a
	}
	b := slices.Min(xs[lo+1:])
	return a + (h-float64(lo))*(b-a)
}
