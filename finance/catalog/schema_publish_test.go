package catalog_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullCatalog is the catalog the API serves: the built-in tools and the
// workspace's four (45).
func fullCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := catalog.Default()
	for _, tool := range (&workspace.Service{}).Tools() {
		require.NoError(t, c.Register(tool))
	}
	require.Len(t, c.Tools(), 45)
	return c
}

// combinators are the keywords no published input schema may hold: the
// Anthropic Messages API refuses every request whose tool list has one at
// the root of an input schema ("input_schema does not support oneOf,
// allOf, or anyOf at the top level"), OpenAI strict mode accepts none of
// allOf, not and if, and Gemini's subset has no oneOf.
var combinators = []string{"anyOf", "oneOf", "allOf", "not", "if", "then", "else"}

// TestInputSchemasArePlainObjects: every tool's published input schema is
// an object with properties and required (possibly empty) and holds no
// combinator, at its root or below; conditional requirements are
// sentences of the descriptions instead.
func TestInputSchemasArePlainObjects(t *testing.T) {
	for _, tool := range fullCatalog(t).Tools() {
		raw, err := catalog.PublishedSchema(tool.InputSchema)
		require.NoError(t, err)
		var root map[string]any
		require.NoError(t, json.Unmarshal(raw, &root), tool.Name)
		assert.Equal(t, "object", root["type"], tool.Name)
		assert.IsType(t, map[string]any{}, root["properties"], tool.Name)
		assert.IsType(t, []any{}, root["required"], tool.Name)
		assert.Empty(t, combinatorPaths("", root), tool.Name)
	}
}

// TestCombinatorsAreFound: the walk of TestInputSchemasArePlainObjects
// finds a combinator at the root, under a property, in items and in a
// definition, and does not take a property named like one for it.
func TestCombinatorsAreFound(t *testing.T) {
	var s map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","anyOf":[{"required":["a"]}],
		"properties":{"not":{"type":"string"},"a":{"type":"array","items":{"oneOf":[{}]}},"b":{"$ref":"#/$defs/x"}},
		"$defs":{"x":{"if":{},"then":{}}}}`), &s))
	got := combinatorPaths("", s)
	slices.Sort(got)
	assert.Equal(t, []string{"$defs.x.if", "$defs.x.then", "anyOf", "properties.a.items.oneOf"}, got)
}

// combinatorPaths lists where the schema s holds a combinator.
func combinatorPaths(at string, s map[string]any) []string {
	var out []string
	for _, k := range combinators {
		if _, ok := s[k]; ok {
			out = append(out, at+k)
		}
	}
	for _, key := range []string{"properties", "$defs"} {
		members, _ := s[key].(map[string]any)
		for name, sub := range members {
			if m, ok := sub.(map[string]any); ok {
				out = append(out, combinatorPaths(at+key+"."+name+".", m)...)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if m, ok := s[key].(map[string]any); ok {
			out = append(out, combinatorPaths(at+key+".", m)...)
		}
	}
	return out
}
