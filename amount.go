package toolkit

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/apd/v3"
)

// MicrosPerUnit is the number of micro-units in one USD (or USDC).
const MicrosPerUnit = 1_000_000

// arithmetic is the context of Add, Sub and Mul: 34 significant digits
// (IEEE 754 decimal128), half-even rounding where a product needs more, and
// no traps, so these operations never fail and never panic. A result beyond
// apd's exponent range (unreachable from parsed inputs; it would take
// hundreds of chained multiplications) is made an infinity by overflowed,
// and every exit of Amount (MarshalJSON, MarshalText, Micros, Int64, Round,
// Floor, Quo) reports an infinity as an error.
var arithmetic = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(34)
	c.Rounding = apd.RoundHalfEven
	c.Traps = 0
	return c
}()

// exactContext is the context of Quo, Round, Floor and conversions: the same
// precision with every default trap on, so a result that does not fit in 34
// significant digits is an error, never a panic.
var exactContext = func() *apd.Context {
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

// Input range of every decimal the toolkit parses (money, prices, quantities
// and statistics alike): at most MaxNumberLen characters, a magnitude below
// 10^MaxMagnitudeDigits, and for an Amount at most MaxAmountPlaces
// significant decimal places. An Amount parsed within this range has at most
// 34 significant digits, so it is exact in IEEE 754 decimal128 and every
// product of two inputs is representable before rounding.
const (
	MaxNumberLen       = 64
	MaxMagnitudeDigits = 18
	MaxAmountPlaces    = 16
)

// ParseAmount parses s strictly with JSON's number grammar: an optional
// minus sign, digits without leading zeros, an optional fraction and an
// optional exponent ("12", "-0.5", "185.50", "1.5e-05", "1E3"). It rejects
// empty strings, a leading "+", NaN and infinities, hex, whitespace, leading
// zeros ("007"), leading or trailing dots, texts longer than MaxNumberLen,
// magnitudes of 10^18 or more, and non-zero digits beyond the 16th decimal
// place. Exponent forms are normalised: "1E3" is the Amount 1000.
func ParseAmount(s string) (Amount, error) {
	if err := checkDecimalSyntax(s); err != nil {
		return Amount{}, err
	}
	var a Amount
	if _, _, err := a.d.SetString(s); err != nil {
		return Amount{}, fmt.Errorf("invalid decimal %q", s)
	}
	if err := a.checkRange(); err != nil {
		return Amount{}, fmt.Errorf("%q %w", s, err)
	}
	return a, nil
}

// checkRange enforces the input range on a parsed amount and drops
// trailing zeros beyond MaxAmountPlaces ("0.10000000000000000000" is 0.1).
func (a *Amount) checkRange() error {
	if a.d.IsZero() {
		a.d.Exponent = min(max(a.d.Exponent, -MaxAmountPlaces), 0)
		a.d.Negative = false
		return nil
	}
	if int64(a.d.NumDigits())+int64(a.d.Exponent) > MaxMagnitudeDigits {
		return fmt.Errorf("is out of range: the magnitude must be below 1e%d", MaxMagnitudeDigits)
	}
	for a.d.Exponent < -MaxAmountPlaces {
		var q, r apd.BigInt
		q.QuoRem(&a.d.Coeff, apd.NewBigInt(10), &r)
		if r.Sign() != 0 {
			return fmt.Errorf("has more than %d decimal places", MaxAmountPlaces)
		}
		a.d.Coeff.Set(&q)
		a.d.Exponent++
	}
	if a.d.Exponent > 0 { // 1E3 -> 1000: plain digits, exponent 0
		var out apd.Decimal
		if _, err := exactContext.Quantize(&out, &a.d, 0); err != nil {
			return fmt.Errorf("is out of range")
		}
		a.d.Set(&out)
	}
	return nil
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
// decimal strings ParseAmount and Float accept: JSON's number grammar.
const DecimalPattern = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`

// checkDecimalSyntax enforces the grammar of ValidNumber and a length bound.
func checkDecimalSyntax(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty decimal")
	case len(s) > MaxNumberLen:
		return fmt.Errorf("decimal longer than %d characters", MaxNumberLen)
	case !ValidNumber([]byte(s)):
		return fmt.Errorf("invalid decimal %q: use a JSON number like \"12.50\" or \"1.5e-05\" (no sign, spaces, hex or leading zeros)", s)
	}
	return nil
}

// ValidNumber reports whether s follows JSON's number grammar
// (DecimalPattern): an optional minus, an integer part without leading
// zeros ("0" or [1-9][0-9]*), an optional fraction of at least one digit,
// and an optional exponent ([eE][+-]?[0-9]+).
func ValidNumber(s []byte) bool {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	start := i
	i = skipDigits(s, i)
	intDigits := i - start
	if intDigits == 0 || (intDigits > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		frac := i + 1
		if i = skipDigits(s, frac); i == frac {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := i
		if i = skipDigits(s, exp); i == exp {
			return false
		}
	}
	return i == len(s)
}

func skipDigits(s []byte, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// AmountFromMicros returns m micro-units (m / 1,000,000) as an Amount.
func AmountFromMicros(m int64) Amount {
	var a Amount
	a.d.SetFinite(m, -6)
	return a
}

// AmountFromBaseUnits returns units × 10^-decimals exactly: a token amount
// from its on-chain base units (1,500,000 units of a 6-decimal token is
// 1.500000).
func AmountFromBaseUnits(units uint64, decimals uint8) Amount {
	var a Amount
	a.d.Coeff.SetUint64(units)
	a.d.Exponent = -int32(decimals)
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

// ErrNonFinite is the cause of every failure to convert or encode an Amount
// that overflowed (see Add).
var ErrNonFinite = fmt.Errorf("toolkit: the number is out of range (not finite)")

// IsFinite reports whether a is a finite number. Parsed amounts always are;
// only an overflow in Add, Sub or Mul produces an infinite Amount.
func (a Amount) IsFinite() bool { return a.d.Form == apd.Finite }

// Micros converts a to int64 micro-units. It fails when a has non-zero
// digits beyond the sixth decimal place, does not fit in an int64 or is not
// finite: money is never rounded silently.
func (a Amount) Micros() (int64, error) {
	if !a.IsFinite() {
		return 0, ErrNonFinite
	}
	var scaled apd.Decimal
	scaled.Set(&a.d)
	scaled.Exponent += 6
	var whole apd.Decimal
	if _, err := exactContext.RoundToIntegralExact(&whole, &scaled); err != nil {
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
// named rule: Round(2, RoundHalfEven) of 2.345 is 2.34. It fails when the
// result would need more than 34 significant digits (10^33 to 2 places) or
// a is not finite.
func (a Amount) Round(places int32, rule Rounding) (Amount, error) {
	if !a.IsFinite() {
		return Amount{}, ErrNonFinite
	}
	c := *exactContext
	c.Rounding = apd.Rounder(rule)
	var out Amount
	if _, err := c.Quantize(&out.d, &a.d, -places); err != nil {
		return Amount{}, fmt.Errorf("rounding %s to %d places: %w", a, places, ErrNonFinite)
	}
	return out, nil
}

// Trim returns a with trailing fractional zeros removed, keeping at least
// minPlaces decimal places: Trim(2) of 1.500000 is 1.50, of 0.001000 is
// 0.001. The value is unchanged.
func (a Amount) Trim(minPlaces int32) Amount {
	var out Amount
	out.d.Set(&a.d)
	if !out.IsFinite() {
		return out
	}
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

// Floor returns the largest integer not greater than a. It fails when that
// integer needs more than 34 digits or a is not finite.
func (a Amount) Floor() (Amount, error) {
	if !a.IsFinite() {
		return Amount{}, ErrNonFinite
	}
	var out Amount
	if _, err := exactContext.Floor(&out.d, &a.d); err != nil {
		return Amount{}, fmt.Errorf("floor of %s: %w", a, ErrNonFinite)
	}
	return out, nil
}

// Add returns a + b, exact up to 34 significant digits (half-even beyond).
// Add, Sub and Mul never fail: see arithmetic for what happens on overflow.
func (a Amount) Add(b Amount) Amount {
	var out Amount
	cond, _ := arithmetic.Add(&out.d, &a.d, &b.d)
	return overflowed(out, cond)
}

// Sub returns a - b (see Add).
func (a Amount) Sub(b Amount) Amount {
	var out Amount
	cond, _ := arithmetic.Sub(&out.d, &a.d, &b.d)
	return overflowed(out, cond)
}

// Mul returns a × b, exact up to 34 significant digits (see Add).
func (a Amount) Mul(b Amount) Amount {
	var out Amount
	cond, _ := arithmetic.Mul(&out.d, &a.d, &b.d)
	return overflowed(out, cond)
}

// outOfRange are the conditions after which apd's result is not the
// number (without traps apd leaves a wrapped exponent behind).
const outOfRange = apd.Overflow | apd.Underflow | apd.SystemOverflow | apd.SystemUnderflow | apd.InvalidOperation

// overflowed returns out, or an infinity of its sign when cond says the
// operation left the representable range.
func overflowed(out Amount, cond apd.Condition) Amount {
	if cond&outOfRange != 0 {
		out.d.Form = apd.Infinite
	}
	return out
}

// Quo returns a ÷ b rounded half-even to 34 significant digits. It fails
// when b is zero or an operand is not finite.
func (a Amount) Quo(b Amount) (Amount, error) {
	if b.IsZero() {
		return Amount{}, fmt.Errorf("division of %s by zero", a)
	}
	if !a.IsFinite() || !b.IsFinite() {
		return Amount{}, ErrNonFinite
	}
	var out Amount
	if _, err := exactContext.Quo(&out.d, &a.d, &b.d); err != nil {
		return Amount{}, fmt.Errorf("dividing %s by %s: %w", a, b, err)
	}
	return out, nil
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

// Int64 returns a as an int64; it fails if a is not an integer, overflows
// or is not finite.
func (a Amount) Int64() (int64, error) {
	if !a.IsFinite() {
		return 0, ErrNonFinite
	}
	return a.d.Int64()
}

// Float64 returns the nearest float64, for statistics only.
func (a Amount) Float64() float64 {
	f, _ := a.d.Float64()
	return f
}

// String returns the plain decimal text ("0.0024", never "2.4E-3").
func (a Amount) String() string { return a.d.Text('f') }

// MarshalJSON encodes a as a JSON string of plain decimal text. It has a
// value receiver so Amount fields marshal correctly in structs held by value.
// A non-finite Amount is an error (ErrNonFinite), never "Infinity".
func (a Amount) MarshalJSON() ([]byte, error) {
	if !a.IsFinite() {
		return nil, ErrNonFinite
	}
	s := a.d.Text('f')
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts a JSON string or a JSON number, both under the
// ParseAmount grammar and range.
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
func (a Amount) MarshalText() ([]byte, error) {
	if !a.IsFinite() {
		return nil, ErrNonFinite
	}
	return []byte(a.d.Text('f')), nil
}

// UnmarshalText parses text with ParseAmount.
func (a *Amount) UnmarshalText(b []byte) error {
	v, err := ParseAmount(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
