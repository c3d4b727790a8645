package toolformat

import (
	"bytes"
	"encoding/json"
)

// object is a JSON object whose members keep the order they were added
// in: schemas list their properties in the order of the input struct.
type object []member

// member is one member of an object.
type member struct {
	key   string
	value any
}

// set appends the member key.
func (o *object) set(key string, value any) {
	*o = append(*o, member{key, value})
}

// MarshalJSON implements json.Marshaler.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// write appends the JSON of v to b: objects and lists of them directly,
// so a nested schema is encoded once; anything else with encoding/json,
// without escaping <, > and & (descriptions say "> 0").
func write(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case object:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := write(b, m.key); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := write(b, m.value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case []object:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := write(b, x); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// marshal encodes v without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
