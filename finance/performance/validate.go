package performance

// Input validation shared by every tool of the package. Every message
// names the field and the rule.

import (
	"math"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// Defaults shared by the R-multiple tools of the package.
const (
	// DefaultRiskPerTrade is the fraction of equity risked per 1R when the
	// caller gives none (the published default "0.01").
	DefaultRiskPerTrade = 0.01
	// DefaultInitialEquity is the starting equity of analyze_recovery when
	// the caller gives none.
	DefaultInitialEquity = 100000.0
)

// tooLarge returns the TooLarge error for an input named field holding n
// values, more than limits.MaxItems.
func tooLarge(field string, n int) error {
	return toolkit.Errorf(toolkit.TooLarge, "%s: at most %d values are accepted, got %d", field, limits.MaxItems, n)
}

// ValidateSeries checks a numeric series input named field (R-multiples,
// equity values): more than 100,000 values is toolkit.TooLarge;
// fewer than min values or a value that is not finite is toolkit.Invalid.
// Messages name the field and the rule ("r_multiples: needs at least 2
// values, got 1", "r_multiples: item 3 must be a finite number").
func ValidateSeries(field string, xs []float64, min int) error {
	if len(xs) > limits.MaxItems {
		return tooLarge(field, len(xs))
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

// validateParallel checks the length got of an optional array that must be
// parallel to r_multiples (n items): at most limits.MaxItems (TooLarge)
// and exactly n (Invalid).
func validateParallel(field string, got, n int) error {
	if got > limits.MaxItems {
		return tooLarge(field, got)
	}
	if got != n {
		return invalid(field, "must have the same length as r_multiples (%d), got %d", n, got)
	}
	return nil
}

// validateCount checks that the integer input named field lies in
// [lo, hi].
func validateCount(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return invalid(field, "must be between %d and %d, got %d", lo, hi, v)
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

// orDefault returns *p, or def when p is nil: an optional input is a
// pointer, nil when omitted (never "0 means the default").
func orDefault[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
