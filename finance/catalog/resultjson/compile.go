package resultjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/agentfinance/toolkit"
)

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	floatType         = reflect.TypeFor[toolkit.Float]()
	floatsType        = reflect.TypeFor[toolkit.Floats]()
	amountType        = reflect.TypeFor[toolkit.Amount]()
)

// compiler builds the encoder of one type and the types it holds.
type compiler struct {
	building    map[reflect.Type]bool // types being compiled (recursive types)
	unsupported bool                  // some part must go through encoding/json as a whole
	amounts     bool                  // some part is a toolkit.Amount
}

func (c *compiler) compile(t reflect.Type) encoder {
	if c.building[t] {
		// A recursive type: look the finished encoder up when encoding.
		return func(b []byte, v reflect.Value) ([]byte, error) { return compiledFor(t).encode(b, v) }
	}
	c.building[t] = true
	defer delete(c.building, t)
	switch t {
	case floatType:
		return encodeFloat
	case floatsType:
		return encodeFloats
	case amountType:
		c.amounts = true
		return encodeAmount
	}
	if t.Kind() == reflect.Pointer {
		if marshals(t) && !marshals(t.Elem()) {
			return encodeWithJSON // the method is the pointer's own
		}
		return c.pointer(t) // null, or what the element's methods say
	}
	if onlyPointerMarshals(t) {
		c.unsupported = true
		return nil
	}
	if marshals(t) {
		return encodeWithJSON
	}
	switch t.Kind() {
	case reflect.Bool:
		return encodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return encodeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return encodeUint
	case reflect.Float32, reflect.Float64:
		return floatEncoder(t.Bits())
	case reflect.String:
		return encodeString
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return encodeWithJSON // base64, or a Marshaler element type
		}
		return c.array(t, true)
	case reflect.Array:
		return c.array(t, false)
	case reflect.Struct:
		return c.structure(t)
	case reflect.Map, reflect.Interface:
		return encodeWithJSON
	}
	c.unsupported = true // channels, functions, complex numbers: encoding/json's error
	return nil
}

// marshals reports whether t has a MarshalJSON or MarshalText method.
func marshals(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType)
}

// onlyPointerMarshals reports whether *t has a marshaling method t lacks:
// encoding/json then calls it only on addressable values.
func onlyPointerMarshals(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return false
	}
	p := reflect.PointerTo(t)
	return p.Implements(marshalerType) && !t.Implements(marshalerType) ||
		p.Implements(textMarshalerType) && !t.Implements(textMarshalerType)
}

func (c *compiler) pointer(t reflect.Type) encoder {
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return elem(b, v.Elem())
	}
}

func (c *compiler) array(t reflect.Type, slice bool) encoder {
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if slice && v.IsNil() {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		var err error
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = elem(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
}

// field is one encoded struct field.
type field struct {
	index     int
	key       string // `"name":`
	omitEmpty bool
	encode    encoder
}

// structure encodes the exported fields of t in order, as encoding/json
// does for a struct without embedded fields.
func (c *compiler) structure(t reflect.Type) encoder {
	var fields []field
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			c.unsupported = true // embedding has its own visibility rules
			return nil
		}
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		omitEmpty := false
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "":
			case "omitempty":
				omitEmpty = true
			default: // "string", "omitzero" or unknown options
				c.unsupported = true
				return nil
			}
		}
		if !plainName(name) || seen[name] {
			c.unsupported = true // names needing escapes or duplicates
			return nil
		}
		seen[name] = true
		enc := c.compile(sf.Type)
		if enc == nil {
			return nil
		}
		fields = append(fields, field{index: i, key: `"` + name + `":`, omitEmpty: omitEmpty, encode: enc})
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		b = append(b, '{')
		first := true
		var err error
		for _, f := range fields {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			if b, err = f.encode(b, fv); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
}

// plainName reports whether a field name is written as it is: letters,
// digits, '_' and '-'.
func plainName(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return name != ""
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
