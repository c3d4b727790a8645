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
	"sync/atomic"
)

// Marshal returns the JSON encoding of v, identical to json.Marshal(v),
// errors included.
func Marshal(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	rv := reflect.ValueOf(v)
	c := compiledFor(rv.Type())
	if c.encode == nil {
		return json.Marshal(v)
	}
	if c.amounts && rv.Kind() != reflect.Pointer {
		// An addressable copy lets encodeAmount read Amounts in place
		// instead of copying each out. No encoder depends on addressability
		// otherwise: types whose encoding/json encoding does are not
		// compiled.
		p := reflect.New(rv.Type()).Elem()
		p.Set(rv)
		rv = p
	}
	b, err := c.encode(make([]byte, 0, c.size.Load()), rv)
	if err != nil {
		return json.Marshal(v) // encoding/json's own error (or answer)
	}
	if n := int64(len(b)); n > c.size.Load() && n <= maxSizeHint {
		c.size.Store(n)
	}
	return b, nil
}

// encoder appends the encoding of v to b.
type encoder func(b []byte, v reflect.Value) ([]byte, error)

// compiled is the encoder of one type.
type compiled struct {
	encode  encoder // nil: the type goes through encoding/json as a whole
	amounts bool    // the type holds toolkit.Amount values
	// size is the longest encoding seen (up to maxSizeHint), the capacity
	// the next one starts with: one allocation for most results.
	size atomic.Int64
}

// maxSizeHint bounds the buffer a result's encoding starts with.
const maxSizeHint = 64 << 10

// encoders caches the compiled encoder of each type.
var encoders sync.Map // reflect.Type -> *compiled

// compiledFor returns the cached encoder of t, compiling it on first use.
func compiledFor(t reflect.Type) *compiled {
	if c, ok := encoders.Load(t); ok {
		return c.(*compiled)
	}
	cc := compiler{building: map[reflect.Type]bool{}}
	c := &compiled{encode: cc.compile(t), amounts: cc.amounts}
	if cc.unsupported {
		c.encode = nil
	}
	c.size.Store(256)
	actual, _ := encoders.LoadOrStore(t, c)
	return actual.(*compiled)
}
