package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/agentfinance/toolkit"
)

// memberDecoder decodes one validated member value into a struct field.
// Validation has already checked the value's syntax and type, so decoders
// skip encoding/json's own scan where they can.
type memberDecoder func(field reflect.Value, raw []byte) error

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	floatsType      = reflect.TypeFor[toolkit.Floats]()
)

// decoderFor picks the decoder of a field type: the type's own
// UnmarshalJSON called directly (Amount, Float, Floats, ...), direct
// parsing of plain strings, integers and booleans, and encoding/json for
// everything else.
func decoderFor(t reflect.Type) memberDecoder {
	switch {
	case t == floatsType:
		return decodeFloats
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return func(f reflect.Value, raw []byte) error {
			return f.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(raw)
		}
	case t.Kind() == reflect.Pointer && reflect.PointerTo(t.Elem()).Implements(unmarshalerType):
		return func(f reflect.Value, raw []byte) error {
			p := reflect.New(t.Elem())
			if err := p.Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
				return err
			}
			f.Set(p)
			return nil
		}
	case t.Kind() == reflect.String:
		return func(f reflect.Value, raw []byte) error {
			if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
				f.SetString(string(raw[1 : len(raw)-1]))
				return nil
			}
			return json.Unmarshal(raw, f.Addr().Interface())
		}
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64 || t.Kind() == reflect.Int32:
		return func(f reflect.Value, raw []byte) error {
			n, err := strconv.ParseInt(string(raw), 10, t.Bits())
			if err != nil {
				return json.Unmarshal(raw, f.Addr().Interface())
			}
			f.SetInt(n)
			return nil
		}
	case t.Kind() == reflect.Bool:
		return func(f reflect.Value, raw []byte) error {
			f.SetBool(string(raw) == "true")
			return nil
		}
	}
	return func(f reflect.Value, raw []byte) error {
		return json.Unmarshal(raw, f.Addr().Interface())
	}
}

// decodeFloats decodes a toolkit.Floats array in one pass, each item with
// toolkit.ParseFloat as Floats.UnmarshalJSON parses it. Anything unusual (a
// string with escapes, an item that does not parse) goes to UnmarshalJSON,
// which gives the same values and its own errors.
func decodeFloats(f reflect.Value, raw []byte) error {
	p := f.Addr().Interface().(*toolkit.Floats)
	out, ok := parseFloats(raw)
	if !ok {
		return p.UnmarshalJSON(raw)
	}
	*p = out
	return nil
}

// parseFloats parses a JSON array of decimal strings and numbers; ok is
// false when it leaves the array to Floats.UnmarshalJSON.
func parseFloats(raw []byte) (out []float64, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	out = make([]float64, 0, bytes.Count(raw, []byte{','})+1) // as UnmarshalJSON sizes it
	if i = skipSpace(raw, i+1); i < len(raw) && raw[i] == ']' {
		return out, skipSpace(raw, i+1) == len(raw)
	}
	for i < len(raw) {
		var item []byte
		if raw[i] == '"' {
			end := bytes.IndexByte(raw[i+1:], '"')
			if end < 0 {
				return nil, false
			}
			item = raw[i+1 : i+1+end]
			if bytes.IndexByte(item, '\\') >= 0 {
				return nil, false
			}
			i += end + 2
		} else {
			start := i
			for i < len(raw) && raw[i] != ',' && raw[i] != ']' && !isSpace(raw[i]) {
				i++
			}
			item = raw[start:i]
		}
		v, err := toolkit.ParseFloat(item)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
		if i = skipSpace(raw, i); i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
			continue
		case ']':
			return out, skipSpace(raw, i+1) == len(raw)
		}
		return nil, false
	}
	return nil, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}
