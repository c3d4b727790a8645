// Package resultjson encodes tool results to JSON byte for byte as
// encoding/json's Marshal does, several times faster for the toolkit's
// result types.
//
// encoding/json calls every json.Marshaler field (toolkit.Float,
// toolkit.Amount, ...) through an interface, allocates its output and then
// re-scans that output to compact it; a result with twenty statistics
// spends most of its encoding time there. Marshal compiles an encoder per
// result type once (cached) that appends toolkit.Float, toolkit.Floats and
// toolkit.Amount values directly, and encodes structs, pointers, slices,
// arrays, strings, booleans and numbers itself. What it does not know it
// hands to encoding/json for that value alone: maps, interfaces' dynamic
// values, other Marshaler and TextMarshaler types, strings needing
// escapes. Types whose encoding depends on addressability (marshaler
// methods on the pointer receiver only), embedded fields and the "string"
// and "omitzero" tag options make the whole value go through
// encoding/json, as does any error: errors are always encoding/json's own.
package resultjson

import (
	"encoding/json"
	"reflect"
	"sync"
)

// Marshal returns the JSON encoding of v, identical to json.Marshal(v),
// errors included.
func Marshal(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	rv := reflect.ValueOf(v)
	enc := encoderFor(rv.Type())
	if enc == nil {
		return json.Marshal(v)
	}
	if rv.Kind() != reflect.Pointer {
		// An addressable copy lets the encoders read fields in place. No
		// encoder depends on addressability otherwise: types whose
		// encoding/json encoding does are not compiled.
		p := reflect.New(rv.Type()).Elem()
		p.Set(rv)
		rv = p
	}
	b, err := enc(make([]byte, 0, 512), rv)
	if err != nil {
		return json.Marshal(v) // encoding/json's own error (or answer)
	}
	return b, nil
}

// encoder appends the encoding of v to b.
type encoder func(b []byte, v reflect.Value) ([]byte, error)

// encoders caches the compiled encoder of each type; a nil encoder means
// the type goes through encoding/json as a whole.
var encoders sync.Map // reflect.Type -> encoder

// encoderFor returns the cached encoder of t, compiling it on first use.
func encoderFor(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	c := compiler{building: map[reflect.Type]bool{}}
	e := c.compile(t)
	if c.unsupported {
		e = nil
	}
	encoders.Store(t, e)
	return e
}
