package market

import (
	"encoding/json"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/jsonscan"
)

// SymbolsData is the symbols_data input of analyze_correlations: a list of
// {symbol, bars} objects with a fast, strict decoder (bars as in Bars).
// Both fields are required and no other is allowed; a symbol must be a
// non-empty string. Errors name the entry: `symbols_data[1].bars[3].close:
// ...`. The count rules (2..100 symbols, 10+ bars each) are checked by
// AnalyzeCorrelations.
type SymbolsData []SymbolBars

// UnmarshalJSON implements json.Unmarshaler.
func (sd *SymbolsData) UnmarshalJSON(b []byte) error {
	n, err := sd.DecodeJSONPrefix(b)
	if err != nil {
		return err
	}
	d := barDecoder{b: b, i: n}
	return d.end()
}

// DecodeJSONPrefix decodes the array at the start of b and returns the
// bytes consumed (see catalog.PrefixDecoder).
func (sd *SymbolsData) DecodeJSONPrefix(b []byte) (int, error) {
	d := barDecoder{b: b}
	d.space()
	if !d.eat('[') {
		return 0, invalid("symbols_data", "expected an array of {symbol, bars} objects")
	}
	var out SymbolsData
	d.space()
	for idx := 0; !d.eat(']'); idx++ {
		if idx > 0 {
			if !d.eat(',') {
				return 0, invalid("symbols_data", "expected ',' or ']' after entry %d", idx-1)
			}
			d.space()
		}
		if idx == CorrelationMaxSymbols {
			return 0, toolkit.Errorf(toolkit.TooLarge, "symbols_data: at most %d symbols are accepted", CorrelationMaxSymbols)
		}
		e, err := d.symbolEntry(idx)
		if err != nil {
			return 0, err
		}
		out = append(out, e)
		d.space()
	}
	*sd = out
	return d.i, nil
}

// symbolEntry decodes one {symbol, bars} object.
func (d *barDecoder) symbolEntry(idx int) (SymbolBars, error) {
	var e SymbolBars
	fail := func(format string, args ...any) (SymbolBars, error) {
		return SymbolBars{}, toolkit.Errorf(toolkit.Invalid, "symbols_data[%d]"+format, append([]any{idx}, args...)...)
	}
	if !d.eat('{') {
		return fail(": must be an object with symbol and bars")
	}
	hasSym, hasBars := false, false
	d.space()
	for !d.eat('}') {
		if hasSym || hasBars {
			if !d.eat(',') {
				return fail(": expected ',' or '}'")
			}
			d.space()
		}
		key, ok := d.str()
		if !ok {
			return fail(": expected a field name")
		}
		d.space()
		if !d.eat(':') {
			return fail(": expected ':'")
		}
		d.space()
		switch string(key) {
		case "symbol":
			end, ok := jsonscan.StringEnd(d.b, d.i)
			if !ok {
				return fail(".symbol: must be a string")
			}
			if err := json.Unmarshal(d.b[d.i:end], &e.Symbol); err != nil {
				return fail(".symbol: must be a string")
			}
			d.i = end
			hasSym = true
		case "bars":
			n, err := e.Bars.DecodeJSONPrefix(d.b[d.i:])
			if err != nil {
				if te, ok := err.(*toolkit.Error); ok {
					c := *te
					c.Msg = "symbols_data[" + itoa(idx) + "]." + c.Msg
					return SymbolBars{}, &c
				}
				return SymbolBars{}, err
			}
			d.i += n
			hasBars = true
		default:
			return SymbolBars{}, toolkit.Errorf(toolkit.Invalid, "Unknown argument: symbols_data[%d].%s", idx, key)
		}
		d.space()
	}
	switch {
	case !hasSym:
		return SymbolBars{}, toolkit.Errorf(toolkit.Invalid, "Missing required argument: symbols_data[%d].symbol", idx)
	case !hasBars:
		return SymbolBars{}, toolkit.Errorf(toolkit.Invalid, "Missing required argument: symbols_data[%d].bars", idx)
	case e.Symbol == "":
		return fail(".symbol: must not be empty")
	}
	return e, nil
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
