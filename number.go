package toolkit

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 statistic that travels as a decimal string.
//
// It marshals as a JSON string in plain decimal notation, rounded to at
// most SignificantDigits (12) significant digits (see AppendFloat):
// 2.9701000000000066 is written "2.9701", 1/3 "0.333333333333", never an
// exponent form and never "-0". It unmarshals (unrounded) from a decimal
// string or a JSON number in JSON's number grammar, exponent included
// ("1.5e-05"), with a magnitude below 1e18. NaN, infinities and empty
// strings are rejected both ways, so a result holding a NaN fails loudly
// (ErrNonFinite) instead of reaching a client.
type Float float64

// SignificantDigits is the number of significant digits a Float (and every
// float statistic of the toolkit) carries on output. Twelve digits keep
// float64 noise out of the answers (a relative rounding error of at most
// 5e-12, far inside the 1e-10 parity tolerance of the finance tests).
const SignificantDigits = 12

// MarshalJSON implements json.Marshaler (see Float for the format).
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, ErrNonFinite
	}
	b := make([]byte, 0, 24)
	b = append(b, '"')
	b = AppendFloat(b, v)
	return append(b, '"'), nil
}

// String returns the output text of f, as MarshalJSON writes it but
// without quotes (AppendFloat: at most 12 significant digits, never an
// exponent), so a statistic quoted in a sentence reads exactly as the
// field beside it. Non-finite values, which no answer carries, print as
// strconv does ("+Inf", "-Inf", "NaN").
func (f Float) String() string {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return string(AppendFloat(make([]byte, 0, 24), v))
}

// AppendFloat appends the output text of a finite float statistic to b: the
// shortest decimal that round-trips v (strconv's 'e', -1 digits), rounded
// half to even on those decimal digits to at most SignificantDigits
// significant digits, trailing zeros removed, in plain notation ("1234.5",
// "0.00001", "1000000000000000000000"; never "1e+21" or "1e-05"). Zero,
// negative zero included, is "0". The caller rejects NaN and infinities.
func AppendFloat(b []byte, v float64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], v, 'e', -1, 64) // "-d.ddddde±xx"
	if s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	e := bytes.IndexByte(s, 'e')
	exp := exponent(s[e+1:]) // the value is d.ddd × 10^exp
	var digits [24]byte
	nd := copy(digits[:], s[:1])
	if e > 1 {
		nd += copy(digits[1:], s[2:e])
	}
	d, exp := roundDigits(digits[:nd], exp)
	return appendPlain(b, d, exp)
}

// exponent reads strconv's exponent text: a sign and two or three digits.
func exponent(s []byte) int {
	n := 0
	for _, c := range s[1:] {
		n = n*10 + int(c-'0')
	}
	if s[0] == '-' {
		return -n
	}
	return n
}

// roundDigits rounds the significant digits d (no trailing zeros, value
// d[0].d[1:] × 10^exp) half to even to at most SignificantDigits digits,
// drops the trailing zeros, and returns the digits and exponent.
func roundDigits(d []byte, exp int) ([]byte, int) {
	if len(d) <= SignificantDigits {
		return d, exp
	}
	next := d[SignificantDigits]
	tail := len(d) > SignificantDigits+1 // shortest digits: any later digit is non-zero
	up := next > '5' || (next == '5' && (tail || (d[SignificantDigits-1]-'0')%2 == 1))
	d = d[:SignificantDigits]
	if up {
		i := len(d) - 1
		for ; i >= 0 && d[i] == '9'; i-- {
			d[i] = '0'
		}
		if i < 0 { // 99…9 rounds to 100…0
			d[0] = '1'
			exp++
		} else {
			d[i]++
		}
	}
	for len(d) > 1 && d[len(d)-1] == '0' {
		d = d[:len(d)-1]
	}
	return d, exp
}

// appendPlain appends the digits d with value d[0].d[1:] × 10^exp in plain
// decimal notation.
func appendPlain(b, d []byte, exp int) []byte {
	if exp < 0 {
		b = append(b, '0', '.')
		for range -exp - 1 {
			b = append(b, '0')
		}
		return append(b, d...)
	}
	if exp+1 >= len(d) {
		b = append(b, d...)
		for range exp + 1 - len(d) {
			b = append(b, '0')
		}
		return b
	}
	b = append(b, d[:exp+1]...)
	b = append(b, '.')
	return append(b, d[exp+1:]...)
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	v, err := parseFloatJSON(b)
	if err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// Floats is a list of float64 values, each a decimal string or a JSON
// number on input and a decimal string on output (written as Float is: at
// most 12 significant digits, plain notation). Convert with []float64(fs).
type Floats []float64

// MarshalJSON implements json.Marshaler.
func (fs Floats) MarshalJSON() ([]byte, error) {
	if fs == nil {
		return []byte("[]"), nil
	}
	b := make([]byte, 0, len(fs)*12+2)
	b = append(b, '[')
	for i, v := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		item, err := Float(v).MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, item...)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler with a fast path that avoids
// reflection: decoding 100,000 values costs a few milliseconds. It sets no
// bound on the count: the tool argument decoder enforces each schema's
// maxItems while scanning, before any value is decoded.
func (fs *Floats) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return fmt.Errorf("must be an array of decimal strings")
	}
	body := b[1 : len(b)-1]
	out := make([]float64, 0, bytes.Count(body, []byte{','})+1)
	for i := 0; ; i++ {
		body = bytes.TrimLeft(body, " \t\r\n")
		if len(body) == 0 {
			if i > 0 {
				return fmt.Errorf("trailing comma in array")
			}
			break
		}
		end := bytes.IndexByte(body, ',')
		item := body
		if end >= 0 {
			item = body[:end]
		}
		v, err := parseFloatJSON(item)
		if err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
		out = append(out, v)
		if end < 0 {
			break
		}
		body = body[end+1:]
	}
	*fs = out
	return nil
}

// maxFloatInput bounds the magnitude of every float input (see
// MaxMagnitudeDigits): squares and sums of 100,000 such values stay finite.
const maxFloatInput = 1e18

// parseFloatJSON parses one JSON string or number with ParseFloat.
func parseFloatJSON(b []byte) (float64, error) {
	b = bytes.TrimSpace(b)
	s := b
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		s = b[1 : len(b)-1]
	}
	return ParseFloat(s)
}

// ParseFloat parses the text of a float input: JSON's number grammar
// (exponent included), at most MaxNumberLen characters, and a magnitude
// below 1e18 (the input range of ParseAmount).
func ParseFloat(s []byte) (float64, error) {
	if len(s) > MaxNumberLen {
		return 0, fmt.Errorf("a number is longer than %d characters", MaxNumberLen)
	}
	if !ValidNumber(s) {
		return 0, fmt.Errorf("%q is not a number like \"1.5\" or \"1.5e-05\"", s)
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil || math.Abs(v) >= maxFloatInput {
		return 0, fmt.Errorf("%s is out of range: the magnitude must be below 1e%d", s, MaxMagnitudeDigits)
	}
	return v, nil
}
