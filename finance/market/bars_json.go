package market

import (
	"bytes"
	"math"
	"strconv"

	"github.com/agentfinance/toolkit"
)

// Bars is a list of bars with a fast, strict JSON decoder (about ten times
// faster than the reflective path): decoding 5,000 bars whose fields are
// decimal strings takes well under a millisecond. Tool inputs use it for
// their bars arrays.
//
// The rules are those of Bar: an object with exactly the fields open, high,
// low, close and volume, each a plain decimal string ("101.25") or a JSON
// number without exponent. Errors are toolkit.Invalid naming the bar index
// and field, e.g. `bars[12].close: "1e3" is not a decimal number like "1.5"`;
// more than toolkit.MaxValues bars is toolkit.TooLarge. Value rules (prices
// positive, high ≥ low) are checked by ValidateBars, not here.
type Bars []Bar

// barField names the five fields in the order of Bar.
var barFields = [5]string{"open", "high", "low", "close", "volume"}

// UnmarshalJSON implements json.Unmarshaler.
func (bs *Bars) UnmarshalJSON(b []byte) error {
	d := barDecoder{b: b}
	d.space()
	if !d.eat('[') {
		return invalid("bars", "must be an array of bar objects")
	}
	// ~ 90 bytes per bar on the wire: a good first guess of the length.
	out := make([]Bar, 0, min(len(b)/60+1, toolkit.MaxValues))
	d.space()
	if d.eat(']') {
		*bs = out
		return d.end()
	}
	for i := 0; ; i++ {
		if i == toolkit.MaxValues {
			return toolkit.Errorf(toolkit.TooLarge, "bars: at most %d bars are accepted", toolkit.MaxValues)
		}
		bar, err := d.bar(i)
		if err != nil {
			return err
		}
		out = append(out, bar)
		d.space()
		if d.eat(']') {
			break
		}
		if !d.eat(',') {
			return invalid("bars", "expected ',' or ']' after bar %d", i)
		}
		d.space()
	}
	*bs = out
	return d.end()
}

// barDecoder is a cursor over the JSON text of a bars array.
type barDecoder struct {
	b []byte
	i int
}

func (d *barDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *barDecoder) eat(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *barDecoder) end() error {
	d.space()
	if d.i != len(d.b) {
		return invalid("bars", "unexpected data after the array")
	}
	return nil
}

// bar decodes one bar object.
func (d *barDecoder) bar(idx int) (Bar, error) {
	var vals [5]float64
	seen := 0
	if !d.eat('{') {
		return Bar{}, invalid("bars", "[%d] must be an object with open, high, low, close and volume", idx)
	}
	d.space()
	if !d.eat('}') {
		for {
			d.space()
			key, ok := d.str()
			if !ok {
				return Bar{}, invalid("bars", "[%d]: expected a field name", idx)
			}
			f := fieldIndex(key)
			if f < 0 {
				return Bar{}, toolkit.Errorf(toolkit.Invalid, "bars[%d]: unknown field %q", idx, key)
			}
			d.space()
			if !d.eat(':') {
				return Bar{}, toolkit.Errorf(toolkit.Invalid, "bars[%d].%s: expected ':'", idx, barFields[f])
			}
			d.space()
			v, err := d.number()
			if err != nil {
				return Bar{}, toolkit.Errorf(toolkit.Invalid, "bars[%d].%s: %s", idx, barFields[f], err.Error())
			}
			vals[f] = v
			seen |= 1 << f
			d.space()
			if d.eat('}') {
				break
			}
			if !d.eat(',') {
				return Bar{}, toolkit.Errorf(toolkit.Invalid, "bars[%d]: expected ',' or '}'", idx)
			}
		}
	}
	if seen != 1<<5-1 {
		for f := range barFields {
			if seen&(1<<f) == 0 {
				return Bar{}, toolkit.Errorf(toolkit.Invalid, "Missing required argument: bars[%d].%s", idx, barFields[f])
			}
		}
	}
	return Bar{Open: toolkit.Float(vals[0]), High: toolkit.Float(vals[1]), Low: toolkit.Float(vals[2]),
		Close: toolkit.Float(vals[3]), Volume: toolkit.Float(vals[4])}, nil
}

func fieldIndex(key []byte) int {
	if len(key) < 3 {
		return -1
	}
	var f int
	switch key[0] {
	case 'o':
		f = 0
	case 'h':
		f = 1
	case 'l':
		f = 2
	case 'c':
		f = 3
	case 'v':
		f = 4
	default:
		return -1
	}
	if string(key) != barFields[f] {
		return -1
	}
	return f
}

// str reads a JSON string without escapes and returns its contents.
func (d *barDecoder) str() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	rest := d.b[d.i:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return nil, false
	}
	d.i += end + 1
	return rest[:end], true
}

// decimalError is the rule every bar value must follow.
type decimalError string

func (e decimalError) Error() string {
	return string(e) + " is not a decimal number like \"1.5\" (plain digits, no exponent)"
}

// number reads a decimal string or a JSON number and parses it.
func (d *barDecoder) number() (float64, error) {
	var text []byte
	if d.i < len(d.b) && d.b[d.i] == '"' {
		s, ok := d.str()
		if !ok {
			return 0, decimalError("the value")
		}
		text = s
		if v, ok := parseDecimal(text); ok {
			return v, nil
		}
		return 0, decimalError(strconv.Quote(string(text)))
	}
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			break
		}
		d.i++
	}
	text = d.b[start:d.i]
	if v, ok := parseDecimal(text); ok {
		return v, nil
	}
	if len(text) == 0 {
		return 0, decimalError("the value")
	}
	return 0, decimalError(string(text))
}

// pow10 holds the exactly representable powers of ten.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal parses a plain decimal -?[0-9]+(\.[0-9]+)? to the correctly
// rounded float64. Short inputs take the exact fast path (mantissa < 2^53
// and at most 22 fraction digits: one correctly rounded division); others
// go through strconv.ParseFloat. It rejects anything else, and out-of-range
// values.
func parseDecimal(s []byte) (float64, bool) {
	i, neg := 0, false
	if len(s) > 0 && s[0] == '-' {
		neg, i = true, 1
	}
	var mant uint64
	intDigits, fracDigits, sig := 0, 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		intDigits++
		if mant != 0 || s[i] != '0' {
			sig++
		}
		mant = mant*10 + uint64(s[i]-'0')
	}
	if intDigits == 0 {
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			fracDigits++
			if mant != 0 || s[i] != '0' {
				sig++
			}
			mant = mant*10 + uint64(s[i]-'0')
		}
		if fracDigits == 0 {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	if sig <= 15 && fracDigits < len(pow10) { // mant < 10^15 < 2^53: exact
		v := float64(mant) / pow10[fracDigits]
		if neg {
			v = -v
		}
		return v, true
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
