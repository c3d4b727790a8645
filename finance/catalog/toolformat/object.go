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
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(m.key) // a string cannot fail
		b.Write(key)
		b.WriteByte(':')
		value, err := marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without escaping <, > and & (descriptions say "> 0").
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
