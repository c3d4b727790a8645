package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A tool's result schema outside the document (MCP's outputSchema) is its
// result schema of the document (one schema builder for every surface),
// made self-contained: the components a result references, transitively,
// travel with it as $defs, and the root is an object, as MCP requires of
// outputSchema.

// componentRefPrefix and defsRefPrefix start a $ref in the OpenAPI
// document and in a self-contained schema.
const (
	componentRefPrefix = "#/components/schemas/"
	defsRefPrefix      = "#/$defs/"
)

// ResultSchema is the self-contained schema of tool's result, with an
// object at its root (MCP's outputSchema).
func (d *Document) ResultSchema(tool string) (*jsonschema.Schema, error) {
	doc := d.doc
	components, _ := doc["components"].(schema)["schemas"].(schema)
	answer, ok := components[answerComponent(tool)].(schema)
	if !ok {
		return nil, fmt.Errorf("openapi: the document has no answer of %s", tool)
	}
	result, ok := answer["properties"].(schema)["result"]
	if !ok {
		return nil, fmt.Errorf("openapi: the answer of %s has no result", tool)
	}
	root, err := selfContained(result)
	if err != nil {
		return nil, err
	}
	if name, ok := soleRef(root); ok {
		// The result is one component: it becomes the root.
		if root, err = selfContained(components[name]); err != nil {
			return nil, err
		}
	}
	switch root["type"] {
	case nil:
		root["type"] = "object" // a oneOf of objects
	case "object":
	default:
		return nil, fmt.Errorf("openapi: the result of %s is not an object", tool)
	}
	defs := schema{}
	for pending := refsIn(root, nil); len(pending) > 0; {
		name := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if _, done := defs[name]; done {
			continue
		}
		def, err := selfContained(components[name])
		if err != nil {
			return nil, err
		}
		if def == nil {
			return nil, fmt.Errorf("openapi: the result of %s references the unknown component %s", tool, name)
		}
		defs[name] = def
		pending = refsIn(def, pending)
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	// A typed schema: the SDK checks it without re-encoding it for every
	// session's server, and tools/list encodes it faster than a map.
	b, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	out := &jsonschema.Schema{}
	return out, json.Unmarshal(b, out)
}

// selfContained returns a deep copy of a document schema whose $refs
// point at $defs instead of components.
func selfContained(v any) (schema, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte(`"`+componentRefPrefix), []byte(`"`+defsRefPrefix))
	var out schema
	return out, json.Unmarshal(b, &out)
}

// soleRef reports the component a schema is only a reference to.
func soleRef(s schema) (string, bool) {
	ref, ok := s["$ref"].(string)
	if !ok || len(s) != 1 {
		return "", false
	}
	return strings.CutPrefix(ref, defsRefPrefix)
}

// refsIn appends to names the $defs a decoded schema references.
func refsIn(v any, names []string) []string {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			if name, ok := strings.CutPrefix(ref, defsRefPrefix); ok && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		for _, child := range v {
			names = refsIn(child, names)
		}
	case []any:
		for _, child := range v {
			names = refsIn(child, names)
		}
	}
	return names
}
