package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
	"gonum.org/v1/gonum/stat"
)

// Mean returns the arithmetic mean of xs (0 for an empty slice).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return stat.Mean(xs, nil)
}

// PopVariance returns the population variance of xs (divides by n; ddof 0).
func PopVariance(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	_, v := stat.PopMeanVariance(xs, nil)
	return v
}

// SampleStdDev returns the sample standard deviation of xs (divides by
// n-1; ddof 1). It is 0 for fewer than two values.
func SampleStdDev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	return math.Sqrt(stat.Variance(xs, nil))
}

// G returns the published G metric of an R-multiple series:
// G = mean(R) - var(R)/2 with the population variance. It approximates the
// per-trade log growth when trading the series at 1R per unit of equity.
func G(r []float64) float64 {
	if len(r) == 0 {
		return 0
	}
	m, v := stat.PopMeanVariance(r, nil)
	return m - v/2
}

// invalid returns a toolkit.Invalid error naming the field and the rule.
func invalid(field, format string, args ...any) error {
	e := toolkit.Errorf(toolkit.Invalid, format, args...)
	e.Msg = field + ": " + e.Msg
	return e
}
