package toolformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// portableSchema returns the JSON Schema s with every subschema written
// as a boolean (`true`, `false`) written as the object of the same
// meaning ({} and {"not": {}}), except under the keywords whose value is
// commonly a boolean (additionalProperties and its kin). The MCP
// Inspector's portability check refuses a bare boolean where a schema
// object is expected; a schema encoded by the jsonschema package writes
// an empty schema (any value) as true. Members keep their order.
func portableSchema(s json.RawMessage) (json.RawMessage, error) {
	v, err := decodeOrdered(s)
	if err != nil {
		return nil, err
	}
	root, ok := v.(object)
	if !ok {
		return nil, fmt.Errorf("a schema must be a JSON object")
	}
	return marshal(objectSchemas(root))
}

// booleanKeywords take a boolean as their usual value.
var booleanKeywords = []string{"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"}

// schemaKeywords hold one subschema, schemaListKeywords a list of them
// and schemaMapKeywords a map of names to them (JSON Schema 2020-12,
// with the older names a reader may meet).
var (
	schemaKeywords     = []string{"items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contentSchema"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
)

// objectSchemas rewrites the subschemas of s (see portableSchema).
func objectSchemas(s object) object {
	out := make(object, len(s))
	for i, m := range s {
		out[i] = m
		switch {
		case slices.Contains(schemaKeywords, m.key):
			out[i].value = subschema(m.value, !slices.Contains(booleanKeywords, m.key))
		case slices.Contains(schemaListKeywords, m.key):
			if list, ok := m.value.([]any); ok {
				rewritten := make([]any, len(list))
				for j, x := range list {
					rewritten[j] = subschema(x, true)
				}
				out[i].value = rewritten
			}
		case slices.Contains(schemaMapKeywords, m.key):
			if named, ok := m.value.(object); ok {
				rewritten := make(object, len(named))
				for j, n := range named {
					rewritten[j] = member{n.key, subschema(n.value, true)}
				}
				out[i].value = rewritten
			}
		}
	}
	return out
}

// subschema rewrites one subschema; a boolean becomes an object when
// asObject.
func subschema(v any, asObject bool) any {
	switch v := v.(type) {
	case object:
		return objectSchemas(v)
	case bool:
		switch {
		case !asObject:
			return v
		case v:
			return object{}
		default:
			return object{{"not", object{}}}
		}
	}
	return v
}

// decodeOrdered decodes JSON with objects as ordered objects, arrays as
// []any and numbers as json.Number.
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := object{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(key.(string), v)
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token() // ']'
		return list, err
	}
	return tok, nil
}
