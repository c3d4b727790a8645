package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
)

// memberDecoder decodes one validated member value into a struct field.
// Validation has already checked the value's syntax and type, so decoders
// skip encoding/json's own scan where they can.
type memberDecoder func(field reflect.Value, raw []byte) error

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// decoderFor picks the decoder of a field type: the type's own
// UnmarshalJSON called directly (Amount, Float, Floats, ...), direct
// parsing of plain strings, integers and booleans, and encoding/json for
// everything else.
func decoderFor(t reflect.Type) memberDecoder {
	switch {
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
