package toolformat

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// example writes the JSON value raw (an example or a default of the
// schema s) as the dialect publishes s: decimal strings as numbers, a
// free-form object as its JSON text.
func (c converter) example(s *jsonschema.Schema, raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	b, err := marshal(c.value(s, v))
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// value converts v, a value of the schema s, to the dialect's form.
func (c converter) value(s *jsonschema.Schema, v any) any {
	if s == nil {
		return v
	}
	s, err := c.resolve(s)
	if err != nil {
		return v
	}
	k := c.kindOf(s)
	switch v := v.(type) {
	case string:
		if k.decimal && json.Valid([]byte(v)) {
			return json.Number(v)
		}
	case map[string]any:
		if k.text {
			b, err := marshal(v)
			if err != nil {
				return v
			}
			return string(b)
		}
		// An example object keeps the members its schema requires.
		out := object{}
		for _, name := range sortedKeys(v) {
			if p, ok := s.Properties[name]; ok && isRequired(s, name) {
				out.set(name, c.value(p, v[name]))
			}
		}
		return out
	case []any:
		// An example array is cut to the items the schema needs (at least
		// one): the lists stay light, and the example stays valid.
		n := 1
		if s.MinItems != nil {
			n = max(n, *s.MinItems)
		}
		out := make([]any, min(n, len(v)))
		for i := range out {
			out[i] = c.value(s.Items, v[i])
		}
		return out
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }
