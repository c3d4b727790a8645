package toolkit

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/apd/v3"
)

// MicrosPerUnit is the number of micro-units in one USD (or USDC).
const MicrosPerUnit = 1_000_000

// maxAmountLen bounds the text of a parsed amount so that a hostile input
// cannot make the decimal arithmetic arbitrarily slow.
const maxAmountLen = 64

// decimalContext is used for every Amount operation: 34 significant digits
// (IEEE 754 decimal128) and half-even rounding where an operation must round.
var decimalContext = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(34)
	c.Rounding = apd.RoundHalfEven
	return c
}()

// Amount is an immutable exact decimal used for money, prices, quantities and
// sizing arithmetic. The zero value is 0.
//
// Amount never exposes its apd.Decimal: every operation writes into a fresh
// decimal, so copies of an Amount cannot alias one another. JSON output is a
// plain decimal string (never exponent form); JSON input is a decimal string
// or a JSON number, parsed strictly (see ParseAmount).
type Amount struct {
	d apd.Decimal
}

// Rounding names a rounding rule for Amount.Round.
type Rounding string

// Rounding rules. Each business rule that rounds names one of these.
const (
	RoundDown     Rounding = Rounding(apd.RoundDown)     // toward zero (truncate)
	RoundUp       Rounding = Rounding(apd.RoundUp)       // away from zero
	RoundHalfEven Rounding = Rounding(apd.RoundHalfEven) // banker's rounding
	RoundHalfUp   Rounding = Rounding(apd.RoundHalfUp)   // 0.5 away from zero
	RoundFloor    Rounding = Rounding(apd.RoundFloor)    // toward -infinity
	RoundCeiling  Rounding = Rounding(apd.RoundCeiling)  // toward +infinity
)

// ParseAmount parses s strictly: an optional minus sign, digits, and an
// optional fraction ("12", "-0.5", "185.50"). It rejects empty strings,
// a leading "+", exponents ("1e3"), NaN and infinities, hex, whitespace,
// leading zeros ("007"), leading or trailing dots, and texts longer than
// 64 characters.
func ParseAmount(s string) (Amount, error) {
	if err := checkDecimalSyntax(s); err != nil {
		return Amount{}, err
	}
	var a Amount
	if _, _, err := a.d.SetString(s); err != nil {
		return Amount{}, fmt.Errorf("invalid decimal %q", s)
	}
	return a, nil
}

// MustParseAmount is ParseAmount for constants known to be valid; it panics
// on error.
func MustParseAmount(s string) Amount {
	a, err := ParseAmount(s)
	if err != nil {
		panic(err)
	}
	return a
}

// DecimalPattern is the regular expression (JSON Schema dialect) of the
// decimal strings ParseAmount and Float accept.
const DecimalPattern = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`

// checkDecimalSyntax enforces the strict grammar of validDecimal and a
// length bound.
func checkDecimalSyntax(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty decimal")
	case len(s) > maxAmountLen:
		return fmt.Errorf("decimal longer than %d characters", maxAmountLen)
	case !validDecimal([]byte(s)):
		return fmt.Errorf("invalid decimal %q: use plain digits like \"12.50\" (no exponent, sign, spaces or leading zeros)", s)
	}
	return nil
}

// validDecimal reports whether s is a plain decimal: an optional minus,
// an integer part without leading zeros ("0" or [1-9][0-9]*), and an
// optional fraction of at least one digit. This is JSON's number grammar
// without the exponent.
func validDecimal(s []byte) bool {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intDigits := i - start
	if intDigits == 0 || (intDigits > 1 && s[start] == '0') {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' {
		return false
	}
	i++
	frac := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > frac && i == len(s)
}

// AmountFromMicros returns m micro-units (m / 1,000,000) as an Amount.
func AmountFromMicros(m int64) Amount {
	var a Amount
	a.d.SetFinite(m, -6)
	return a
}

// AmountFromInt returns the integer n as an Amount.
func AmountFromInt(n int64) Amount {
	var a Amount
	a.d.SetInt64(n)
	return a
}

// AmountFromFloat converts a float64 statistic to an Amount using the
// shortest decimal that round-trips the float. It fails on NaN or infinity.
func AmountFromFloat(f float64) (Amount, error) {
	var a Amount
	if _, err := a.d.SetFloat64(f); err != nil {
		return Amount{}, err
	}
	if a.d.Form != apd.Finite {
		return Amount{}, fmt.Errorf("non-finite number %v", f)
	}
	return a, nil
}

// Micros converts a to int64 micro-units. It fails when a has non-zero
// digits beyond the sixth decimal place or does not fit in an int64: money
// is never rounded silently.
func (a Amount) Micros() (int64, error) {
	var scaled apd.Decimal
	scaled.Set(&a.d)
	scaled.Exponent += 6
	var whole apd.Decimal
	if _, err := decimalContext.RoundToIntegralExact(&whole, &scaled); err != nil {
		return 0, fmt.Errorf("amount %s: %w", a, err)
	}
	if whole.Cmp(&scaled) != 0 {
		return 0, fmt.Errorf("amount %s has more than 6 decimal places", a)
	}
	m, err := whole.Int64()
	if err != nil {
		return 0, fmt.Errorf("amount %s is out of range", a)
	}
	return m, nil
}

// Round returns a rounded to the given number of decimal places with the
// named rule. Round(2, RoundHalfEven) of 2.345 is 2.34.
func (a Amount) Round(places int32, rule Rounding) Amount {
	c := *decimalContext
	c.Rounding = apd.Rounder(rule)
	var out Amount
	if _, err := c.Quantize(&out.d, &a.d, -places); err != nil {
		// Quantize fails only when the result needs more than 34 digits;
		// amounts that large do not occur in this domain.
		panic(fmt.Sprintf("toolkit: rounding %s: %v", a, err))
	}
	return out
}

// Trim returns a with trailing fractional zeros removed, keeping at least
// minPlaces decimal places: Trim(2) of 1.500000 is 1.50, of 0.001000 is
// 0.001. The value is unchanged.
func (a Amount) Trim(minPlaces int32) Amount {
	var out Amount
	out.d.Set(&a.d)
	for out.d.Exponent < -minPlaces {
		var q, r apd.BigInt
		q.QuoRem(&out.d.Coeff, apd.NewBigInt(10), &r)
		if r.Sign() != 0 {
			break
		}
		out.d.Coeff.Set(&q)
		out.d.Exponent++
	}
	return out
}

// Floor returns the largest integer not greater than a.
func (a Amount) Floor() Amount {
	var out Amount
	if _, err := decimalContext.Floor(&out.d, &a.d); err != nil {
		panic(fmt.Sprintf("toolkit: floor %s: %v", a, err))
	}
	return out
}

// Add returns a + b.
func (a Amount) Add(b Amount) Amount {
	var out Amount
	_, err := decimalContext.Add(&out.d, &a.d, &b.d)
	mustExact(err, "adding", a, b)
	return out
}

// Sub returns a - b.
func (a Amount) Sub(b Amount) Amount {
	var out Amount
	_, err := decimalContext.Sub(&out.d, &a.d, &b.d)
	mustExact(err, "subtracting", a, b)
	return out
}

// Mul returns a × b (exact up to 34 significant digits).
func (a Amount) Mul(b Amount) Amount {
	var out Amount
	_, err := decimalContext.Mul(&out.d, &a.d, &b.d)
	mustExact(err, "multiplying", a, b)
	return out
}

// Quo returns a ÷ b rounded half-even to 34 significant digits. It fails
// when b is zero.
func (a Amount) Quo(b Amount) (Amount, error) {
	if b.IsZero() {
		return Amount{}, fmt.Errorf("division of %s by zero", a)
	}
	var out Amount
	if _, err := decimalContext.Quo(&out.d, &a.d, &b.d); err != nil {
		return Amount{}, fmt.Errorf("dividing %s by %s: %w", a, b, err)
	}
	return out, nil
}

// mustExact panics on a decimal error. Add, Sub and Mul fail only on
// overflow beyond apd's exponent range, which amounts parsed from at most
// 64 characters cannot reach.
func mustExact(err error, what string, a, b Amount) {
	if err != nil {
		panic(fmt.Sprintf("toolkit: %s %s and %s: %v", what, a, b, err))
	}
}

// Neg returns -a.
func (a Amount) Neg() Amount {
	var out Amount
	out.d.Neg(&a.d)
	return out
}

// Abs returns |a|.
func (a Amount) Abs() Amount {
	var out Amount
	out.d.Abs(&a.d)
	return out
}

// Cmp compares a and b: -1 if a < b, 0 if equal, +1 if a > b.
func (a Amount) Cmp(b Amount) int { return a.d.Cmp(&b.d) }

// Sign returns -1, 0 or +1.
func (a Amount) Sign() int { return a.d.Sign() }

// IsZero reports whether a == 0.
func (a Amount) IsZero() bool { return a.d.IsZero() }

// Int64 returns a as an int64; it fails if a is not an integer or overflows.
func (a Amount) Int64() (int64, error) { return a.d.Int64() }

// Float64 returns the nearest float64, for statistics only.
func (a Amount) Float64() float64 {
	f, _ := a.d.Float64()
	return f
}

// String returns the plain decimal text ("0.0024", never "2.4E-3").
func (a Amount) String() string { return a.d.Text('f') }

// MarshalJSON encodes a as a JSON string of plain decimal text. It has a
// value receiver so Amount fields marshal correctly in structs held by value.
func (a Amount) MarshalJSON() ([]byte, error) {
	s := a.d.Text('f')
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts a JSON string or a JSON number, both under the
// strict ParseAmount grammar (so 1e3 is rejected either way).
func (a *Amount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return fmt.Errorf("decimal must not be null")
	}
	s := string(b)
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		s = string(b[1 : len(b)-1])
	}
	v, err := ParseAmount(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// MarshalText encodes a as plain decimal text (used for map keys and forms).
func (a Amount) MarshalText() ([]byte, error) { return []byte(a.d.Text('f')), nil }

// UnmarshalText parses text with ParseAmount.
func (a *Amount) UnmarshalText(b []byte) error {
	v, err := ParseAmount(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
