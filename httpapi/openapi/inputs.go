package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Input schemas (request bodies and tool arguments) are JSON schemas the
// decoders enforce. inputSchema turns one into the form the document
// publishes; it is the one place where the enforced schemas meet the
// generators' limits:
//   - ["null", T] becomes T: a client omits an optional input instead of
//     sending null;
//   - "additionalProperties": {"not": {}} becomes false;
//   - $defs move to components.schemas as "Input" and their name in
//     PascalCase (the tools' shared decimal definitions, such as
//     InputDecimalAbove0, are one component each), prefixed by owner when
//     another input already defines the name differently, and their
//     references follow;
//   - a default moves into the description ("Default: 0.02."): generators
//     such as openapi-typescript make a property with a default required,
//     which a client omitting an optional input cannot satisfy.
//
// Bounds (minimum, maxItems, ...), enums, examples and the alternatives
// (anyOf, oneOf) of conditional requirements are kept.

// inputSchema converts the input schema in of owner (a component name
// prefix for its $defs when their names clash) and registers its
// definitions in s.
func (s *schemaSet) inputSchema(owner string, in *jsonschema.Schema) (schema, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", owner, err)
	}
	var m schema
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", owner, err)
	}
	defs, _ := m["$defs"].(schema)
	delete(m, "$defs")
	delete(m, "$schema")
	names := map[string]string{}
	converted := map[string]schema{}
	for name, d := range defs {
		def, ok := d.(schema)
		if !ok {
			return nil, fmt.Errorf("input schema of %s: $defs/%s is not an object", owner, name)
		}
		component := "Input" + pascal(name)
		if existing, taken := s.extra[component]; taken && !reflect.DeepEqual(existing, def) {
			component = owner + component
		}
		names["#/$defs/"+name] = "#/components/schemas/" + component
		converted[component] = def
	}
	for component, def := range converted {
		s.extra[component] = convertInput(names, def)
	}
	return convertInput(names, m), nil
}

// convertInput rewrites one schema object (and its subschemas) in place;
// refs maps the input's $defs references to their components.
func convertInput(refs map[string]string, m schema) schema {
	if ref, ok := m["$ref"].(string); ok && refs[ref] != "" {
		m["$ref"] = refs[ref]
	}
	if types, ok := m["type"].([]any); ok {
		var kept []any
		for _, t := range types {
			if t != "null" {
				kept = append(kept, t)
			}
		}
		if len(kept) == 1 {
			m["type"] = kept[0]
		} else {
			delete(m, "type") // no single type: described by the other keywords
		}
	}
	if def, ok := m["default"]; ok {
		b, _ := json.Marshal(def)
		text, _ := m["description"].(string)
		if text != "" && !strings.HasSuffix(text, ".") {
			text += "."
		}
		m["description"] = strings.TrimSpace(text + " Default: " + string(b) + ".")
		delete(m, "default")
	}
	if ap, ok := m["additionalProperties"].(schema); ok {
		if _, not := ap["not"]; not && len(ap) == 1 {
			m["additionalProperties"] = false
		} else {
			m["additionalProperties"] = convertInput(refs, ap)
		}
	}
	if props, ok := m["properties"].(schema); ok {
		for k, p := range props {
			if ps, ok := p.(schema); ok {
				props[k] = convertInput(refs, ps)
			}
		}
	}
	if items, ok := m["items"].(schema); ok {
		m["items"] = convertInput(refs, items)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := m[key].([]any); ok {
			for i, sub := range list {
				if ss, ok := sub.(schema); ok {
					list[i] = convertInput(refs, ss)
				}
			}
		}
	}
	return m
}
