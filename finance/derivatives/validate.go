package derivatives

import (
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// ratioPlaces is the number of decimal places of every exact ratio output.
const ratioPlaces = 8

var (
	zero = toolkit.AmountFromInt(0)
	one  = toolkit.AmountFromInt(1)
)

// invalid returns a toolkit.Invalid error whose message starts with field.
func invalid(field, format string, args ...any) error {
	return toolkit.Errorf(toolkit.Invalid, "%s: %s", field, fmt.Sprintf(format, args...))
}

// required reports a field the mode needs, as "<field> is required in mode <mode>".
func required(field, mode string) error {
	return toolkit.Errorf(toolkit.Invalid, "%s is required in mode %s", field, mode)
}

// tooMany rejects inputs with more than limits.MaxItems items.
func tooMany(field string, n int) error {
	if n > limits.MaxItems {
		return toolkit.Errorf(toolkit.TooLarge, "%s: at most %d items are accepted, got %d", field, limits.MaxItems, n)
	}
	return nil
}

// positive checks v > 0.
func positive(field string, v toolkit.Amount) error {
	if v.Sign() <= 0 {
		return invalid(field, "must be greater than 0, got %s", v)
	}
	return nil
}

// nonNegative checks v >= 0.
func nonNegative(field string, v toolkit.Amount) error {
	if v.Sign() < 0 {
		return invalid(field, "must not be negative, got %s", v)
	}
	return nil
}

// fraction checks that v is a fraction in (0, 1]. A value above 1 is
// rejected with a hint, because "2" is almost always 2 % meant as a percent.
func fraction(field string, v toolkit.Amount) error {
	if v.Sign() <= 0 {
		return invalid(field, "must be a fraction greater than 0 (0.02 means 2 %%), got %s", v)
	}
	if v.Cmp(one) > 0 {
		hint := quo(v, toolkit.AmountFromInt(100))
		return invalid(field, "must be a fraction in (0, 1] (0.02 means 2 %%), got %s; if you meant %s %%, send %s", v, v, hint)
	}
	return nil
}

// ratio returns a/b rounded half-even to ratioPlaces decimals, without
// trailing zeros; b must not be zero (callers check).
func ratio(a, b toolkit.Amount) toolkit.Amount {
	q, err := a.Quo(b)
	if err != nil {
		return zero
	}
	return reduce(roundSafe(q, ratioPlaces, toolkit.RoundHalfEven))
}

// roundSafe rounds a to places decimals with rule, except a value so large
// that rounding would need more than 34 significant digits: it is returned
// as is (already rounded to 34 digits).
func roundSafe(a toolkit.Amount, places int32, rule toolkit.Rounding) toolkit.Amount {
	r, err := a.Round(places, rule)
	if err != nil {
		return a
	}
	return r
}

// quo returns a/b without trailing zeros; b must not be zero.
func quo(a, b toolkit.Amount) toolkit.Amount {
	q, err := a.Quo(b)
	if err != nil {
		return zero
	}
	return reduce(q)
}

// reduce drops the trailing fractional zeros of a ("39.600" -> "39.6"),
// keeping its value.
func reduce(a toolkit.Amount) toolkit.Amount { return a.Trim(0) }

// floorCount returns floor(budget / per) as an int64. per must be > 0 and
// budget >= 0. A count beyond int64 is rejected as Invalid naming field.
func floorCount(field string, budget, per toolkit.Amount) (int64, error) {
	q, err := budget.Quo(per)
	if err != nil {
		return 0, invalid(field, "cannot divide by %s", per)
	}
	f, err := q.Floor()
	if err != nil {
		return 0, invalid(field, "the result is out of range; check the inputs")
	}
	n, err := f.Int64()
	if err != nil {
		return 0, invalid(field, "the result (%s contracts) is out of range; check the inputs", f)
	}
	// The quotient is rounded to 34 significant digits; when that rounding
	// reached an integer from below, the floor is one too many. Verify
	// exactly that n contracts fit the budget.
	if n > 0 && toolkit.AmountFromInt(n).Mul(per).Cmp(budget) > 0 {
		n--
	}
	return n, nil
}

// ceil returns the smallest integer not less than a (a itself when a is not
// finite, so the caller's range checks see it).
func ceil(a toolkit.Amount) toolkit.Amount {
	f, err := a.Neg().Floor()
	if err != nil {
		return a
	}
	return f.Neg()
}

// isInteger reports whether a is a finite number without fractional part.
func isInteger(a toolkit.Amount) bool {
	f, err := a.Floor()
	return err == nil && f.Cmp(a) == 0
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// mul returns a·b·c.
func mul(a, b, c toolkit.Amount) toolkit.Amount { return a.Mul(b).Mul(c) }

// minAmount returns the smaller of a and b.
func minAmount(a, b toolkit.Amount) toolkit.Amount {
	if b.Cmp(a) < 0 {
		return b
	}
	return a
}

// canonical returns the symbol as compared by the package: trimmed and
// upper-cased (symbol comparison is case-insensitive).
func canonical(symbol string) string { return strings.ToUpper(strings.TrimSpace(symbol)) }
