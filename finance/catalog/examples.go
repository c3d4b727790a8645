package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ExampleArguments is one arguments object of tool t made of the
// catalog's own argument examples: t.Example when set, else the members
// its input schema requires (and those of the first alternative of an
// anyOf or oneOf, and of every allOf entry), each from its first example,
// else its default, else its first enum value, objects and arrays built
// the same way member by member. It never invents a value from a pattern
// or a bound: a member with none of these is an error naming it. The
// documents use it for the working example of every tool call
// (POST /v1/tools/call and the REST shortcuts).
func ExampleArguments(t Tool) (map[string]any, error) {
	if t.Example != nil {
		return t.Example, nil
	}
	if t.InputSchema == nil {
		return nil, fmt.Errorf("catalog: %s has no input schema", t.Name)
	}
	return exampleBuilder{root: t.InputSchema}.object("", t.InputSchema)
}

// exampleBuilder builds example values under root (which holds the $defs).
type exampleBuilder struct {
	root *jsonschema.Schema
}

// object builds the members of the object schema s that it requires.
func (b exampleBuilder) object(path string, s *jsonschema.Schema) (map[string]any, error) {
	out := map[string]any{}
	for _, name := range requiredMembers(s) {
		p, ok := s.Properties[name]
		if !ok {
			return nil, fmt.Errorf("catalog: %s%s is required but has no schema", path, name)
		}
		v, err := b.value(path+name, p)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// value builds one value of the schema s found at path.
func (b exampleBuilder) value(path string, s *jsonschema.Schema) (any, error) {
	switch {
	case len(s.Examples) > 0:
		return s.Examples[0], nil
	case s.Default != nil:
		var v any
		if err := json.Unmarshal(s.Default, &v); err != nil {
			return nil, fmt.Errorf("catalog: default of %s: %w", path, err)
		}
		return v, nil
	case s.Ref != "":
		def, ok := b.root.Defs[strings.TrimPrefix(s.Ref, "#/$defs/")]
		if !ok {
			return nil, fmt.Errorf("catalog: %s refers to the unknown %s", path, s.Ref)
		}
		return b.value(path, def)
	case len(s.Enum) > 0:
		return s.Enum[0], nil
	case s.Type == "object" || s.Properties != nil:
		return b.object(path+".", s)
	case s.Type == "array" && s.Items != nil:
		item, err := b.value(path+"[]", s.Items)
		if err != nil {
			return nil, err
		}
		n := 1
		if s.MinItems != nil {
			n = max(n, *s.MinItems)
		}
		items := make([]any, n)
		for i := range items {
			items[i] = item
		}
		return items, nil
	}
	return nil, fmt.Errorf("catalog: %s has no example, default or enum to build an example from", path)
}

// requiredMembers lists the members s requires: its own, those of the
// first alternative of its anyOf and oneOf (the one a client building a
// call takes), and those of every allOf entry, recursively.
func requiredMembers(s *jsonschema.Schema) []string {
	required := slices.Clone(s.Required)
	for _, alternatives := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
		if len(alternatives) > 0 {
			required = append(required, requiredMembers(alternatives[0])...)
		}
	}
	for _, entry := range s.AllOf {
		required = append(required, requiredMembers(entry)...)
	}
	slices.Sort(required)
	return slices.Compact(required)
}
