package httpapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Input schemas (request bodies and tool arguments) are JSON schemas the
// decoders enforce. inputSchema turns one into the form the document
// publishes; it is the one place where the enforced schemas meet the
// generators' limits:
//   - a decimal input ("string" or "number") is published as a string with
//     the decimal pattern; the server still accepts a JSON number, and the
//     description says so;
//   - ["null", T] becomes T: a client omits an optional input instead of
//     sending null;
//   - "additionalProperties": {"not": {}} becomes false;
//   - $defs move to components.schemas (prefixed by owner) and their
//     references follow;
//   - a default moves into the description ("Default: 0.02."): generators
//     such as openapi-typescript make a property with a default required,
//     which a client omitting an optional input cannot satisfy.
//
// Bounds (minimum, maxItems, ...) and enums are kept.

// decimalInputNote ends the description of a decimal input.
const decimalInputNote = "Decimal string; a JSON number is accepted too."

// inputSchema converts the input schema in of owner (a component name
// prefix for its $defs) and registers its definitions in s.
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
	for name, d := range defs {
		def, ok := d.(schema)
		if !ok {
			return nil, fmt.Errorf("input schema of %s: $defs/%s is not an object", owner, name)
		}
		s.extra[owner+exportedName(name)] = convertInput(owner, def)
	}
	return convertInput(owner, m), nil
}

// convertInput rewrites one schema object (and its subschemas) in place.
func convertInput(owner string, m schema) schema {
	if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
		m["$ref"] = "#/components/schemas/" + owner + exportedName(strings.TrimPrefix(ref, "#/$defs/"))
	}
	if types, ok := m["type"].([]any); ok {
		var kept []string
		for _, t := range types {
			if t != "null" {
				kept = append(kept, t.(string))
			}
		}
		switch {
		case slices.Equal(kept, []string{"string", "number"}) || slices.Equal(kept, []string{"number", "string"}):
			m["type"] = "string"
			if _, ok := m["pattern"]; !ok {
				m["pattern"] = toolkit.DecimalPattern
			}
			m["description"] = decimalDescription(m["description"])
		case len(kept) == 1:
			m["type"] = kept[0]
		default:
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
			m["additionalProperties"] = convertInput(owner, ap)
		}
	}
	if props, ok := m["properties"].(schema); ok {
		for k, p := range props {
			if ps, ok := p.(schema); ok {
				props[k] = convertInput(owner, ps)
			}
		}
	}
	if items, ok := m["items"].(schema); ok {
		m["items"] = convertInput(owner, items)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := m[key].([]any); ok {
			for i, sub := range list {
				if ss, ok := sub.(schema); ok {
					list[i] = convertInput(owner, ss)
				}
			}
		}
	}
	return m
}

// decimalDescription adds the note on JSON numbers to a decimal input's
// description.
func decimalDescription(d any) string {
	text, _ := d.(string)
	text = strings.TrimSuffix(text, "; decimal string or number")
	switch {
	case text == "" || strings.HasPrefix(text, "decimal number, as a string"):
		return decimalInputNote
	case strings.HasSuffix(text, "."):
		return text + " " + decimalInputNote
	}
	return text + ". " + decimalInputNote
}
