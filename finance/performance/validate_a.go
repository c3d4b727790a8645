package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Defaults shared by the R-multiple tools of this file family.
const (
	// DefaultRiskPerTrade is the fraction of equity risked per 1R when the
	// caller gives none (the published default "0.01").
	DefaultRiskPerTrade = 0.01
	// DefaultInitialEquity is the starting equity of analyze_recovery when
	// the caller gives none.
	DefaultInitialEquity = 100000.0
)

// validateSeries checks a numeric input: at most toolkit.MaxValues values
// (TooLarge), at least min values and every value finite (Invalid). Every
// message names field and the rule.
func validateSeries(field string, xs []float64, min int) error {
	if len(xs) > toolkit.MaxValues {
		e := toolkit.Errorf(toolkit.TooLarge, "%s: at most %d values are accepted, got %d", field, toolkit.MaxValues, len(xs))
		return e
	}
	if len(xs) < min {
		return invalid(field, "needs at least %d values, got %d", min, len(xs))
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return invalid(field, "item %d must be a finite number", i)
		}
	}
	return nil
}

// validatePositive checks that a scalar input is finite and > 0.
func validatePositive(field string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return invalid(field, "must be a finite number greater than 0, got %v", x)
	}
	return nil
}

// validateRiskFraction checks a risk fraction: finite, 0 < f < 1.
func validateRiskFraction(field string, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f >= 1 {
		return invalid(field, "must be a fraction greater than 0 and less than 1, got %v", f)
	}
	return nil
}

// nonEmptyStrings checks that no item of an optional string list is empty.
func nonEmptyStrings(field string, xs []string) error {
	for i, x := range xs {
		if x == "" {
			return invalid(field, "item %d must not be empty", i)
		}
	}
	return nil
}

// orDefault returns def when x is 0 (the zero value of an option).
func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// quantileSorted returns the q-quantile (0 <= q <= 1) of ascending sorted
// values with linear interpolation between order statistics (Hyndman–Fan
// type 7, numpy's default): h = (n-1)q, x[floor h] + (h-floor h)(x[floor
// h+1]-x[floor h]). It returns 0 for an empty slice.
func quantileSorted(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := h - float64(lo)
	if frac == 0 {
		return sorted[lo]
	}
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo])
}

// quantileSortedFunc is quantileSorted over fn(sorted[i]), for a monotone
// non-decreasing fn applied only to the two order statistics it needs.
func quantileSortedFunc(sorted []float64, q float64, fn func(float64) float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return fn(sorted[n-1])
	}
	frac := h - float64(lo)
	a := fn(sorted[lo])
	if frac == 0 {
		return a
	}
	return a + frac*(fn(sorted[lo+1])-a)
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

// ptr returns a pointer to a toolkit.Float holding v.
func ptr(v float64) *toolkit.Float {
	f := toolkit.Float(v)
	return &f
}
