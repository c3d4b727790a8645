package market

import (
	"math"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// Series is an indicator output aligned to its input by an offset: Values[k]
// belongs to input index First+k. First is TA-Lib's lookback, the index of
// the first valid value; the warm-up positions 0..First-1 carry no value
// (they are never zero-filled or NaN). When the input is not longer than the
// lookback, Values is empty.
//
// In JSON a Series is an array as long as the input, with null in the
// warm-up positions and decimal strings after them, so index i of the array
// is bar i.
type Series struct {
	First  int       // index of the first valid value (the lookback)
	Values []float64 // Values[k] is the value at input index First+k
}

// Len returns the length of the input the series is aligned to (First +
// len(Values)), or 0 when it holds no value.
func (s Series) Len() int {
	if len(s.Values) == 0 {
		return 0
	}
	return s.First + len(s.Values)
}

// At returns the value at input index i and whether there is one (false in
// the warm-up and out of range).
func (s Series) At(i int) (float64, bool) {
	k := i - s.First
	if k < 0 || k >= len(s.Values) {
		return 0, false
	}
	return s.Values[k], true
}

// Last returns the value at the latest input index, if any.
func (s Series) Last() (float64, bool) {
	if len(s.Values) == 0 {
		return 0, false
	}
	return s.Values[len(s.Values)-1], true
}

// MarshalJSON writes First nulls followed by the values as decimal strings
// (toolkit.AppendFloat: at most 12 significant digits).
// It fails on a non-finite value (none is ever produced from valid input).
func (s Series) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+5*s.First+20*len(s.Values))
	b = append(b, '[')
	for i := 0; i < s.First && len(s.Values) > 0; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "null"...)
	}
	for k, v := range s.Values {
		if k > 0 || s.First > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, toolkit.Errorf(toolkit.Internal, "series: non-finite value at index %d", s.First+k)
		}
		b = append(b, '"')
		b = toolkit.AppendFloat(b, v)
		b = append(b, '"')
	}
	return append(b, ']'), nil
}

// grow returns dst resliced to n values, allocating only when its capacity
// is too small. n < 0 counts as 0.
func grow(dst []float64, n int) []float64 {
	if n < 0 {
		n = 0
	}
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]float64, n)
}

// checkPeriod validates an indicator period.
func checkPeriod(field string, period, min int) error {
	if period < min {
		return toolkit.Errorf(toolkit.Invalid, "%s: must be at least %d (got %d)", field, min, period)
	}
	if period > limits.MaxItems {
		return toolkit.Errorf(toolkit.Invalid, "%s: must be at most %d (got %d)", field, limits.MaxItems, period)
	}
	return nil
}

// checkOHLC validates that the high, low and close columns have one length.
func checkOHLC(high, low, close []float64) error {
	if len(high) != len(close) || len(low) != len(close) {
		return toolkit.Errorf(toolkit.Invalid, "high, low, close: must have the same length (got %d, %d, %d)",
			len(high), len(low), len(close))
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

// invalid returns a toolkit.Invalid error naming field and the rule.
func invalid(field, format string, args ...any) error {
	return toolkit.Errorf(toolkit.Invalid, "%s: "+format, append([]any{field}, args...)...)
}
