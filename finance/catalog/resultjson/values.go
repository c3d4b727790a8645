package resultjson

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"

	"github.com/agentfinance/toolkit"
)

// errFallback makes Marshal hand the whole value to encoding/json, which
// then reports its own error.
var errFallback = errors.New("resultjson: encoded by encoding/json")

// encodeFloat writes a toolkit.Float as its MarshalJSON does.
func encodeFloat(b []byte, v reflect.Value) ([]byte, error) {
	f := v.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errFallback
	}
	b = append(b, '"')
	b = toolkit.AppendFloat(b, f)
	return append(b, '"'), nil
}

// encodeFloats writes a toolkit.Floats as its MarshalJSON does.
func encodeFloats(b []byte, v reflect.Value) ([]byte, error) {
	if v.IsNil() {
		return append(b, "[]"...), nil
	}
	b = append(b, '[')
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = encodeFloat(b, v.Index(i)); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// encodeAmount writes a toolkit.Amount as its MarshalJSON does.
func encodeAmount(b []byte, v reflect.Value) ([]byte, error) {
	var a *toolkit.Amount
	if v.CanAddr() {
		a = v.Addr().Interface().(*toolkit.Amount)
	} else {
		c := v.Interface().(toolkit.Amount)
		a = &c
	}
	if !a.IsFinite() {
		return nil, errFallback
	}
	b = append(b, '"')
	b = append(b, a.String()...)
	return append(b, '"'), nil
}

// encodeWithJSON hands one value to encoding/json.
func encodeWithJSON(b []byte, v reflect.Value) ([]byte, error) {
	out, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

func encodeBool(b []byte, v reflect.Value) ([]byte, error) {
	return strconv.AppendBool(b, v.Bool()), nil
}

func encodeInt(b []byte, v reflect.Value) ([]byte, error) {
	return strconv.AppendInt(b, v.Int(), 10), nil
}

func encodeUint(b []byte, v reflect.Value) ([]byte, error) {
	return strconv.AppendUint(b, v.Uint(), 10), nil
}

// floatEncoder writes a float64 or float32 as encoding/json does: plain
// notation between 1e-6 and 1e21, exponent notation outside ("1e-7",
// never "1e-07").
func floatEncoder(bits int) encoder {
	return func(b []byte, v reflect.Value) ([]byte, error) {
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errFallback
		}
		format := byte('f')
		if abs := math.Abs(f); abs != 0 {
			if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
				format = 'e'
			}
		}
		b = strconv.AppendFloat(b, f, format, -1, bits)
		if format == 'e' {
			if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
				b[n-2] = b[n-1]
				b = b[:n-1]
			}
		}
		return b, nil
	}
}

// verbatim lists the bytes a JSON string holds as they are: printable
// ASCII but for '"', '\\' and the <, > and & encoding/json escapes.
var verbatim = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// encodeString writes a string that needs no escape as it is and hands
// any other to encoding/json.
func encodeString(b []byte, v reflect.Value) ([]byte, error) {
	s := v.String()
	for i := 0; i < len(s); i++ {
		if !verbatim[s[i]] {
			out, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			return append(b, out...), nil
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}
