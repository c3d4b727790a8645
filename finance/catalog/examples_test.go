package catalog_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleArgumentsRunEveryBuiltInTool: the example arguments of every
// built-in tool are accepted and computed (the workspace tools, which need
// an agent and a store, are run over HTTP in httpapi's example round trip).
func TestExampleArgumentsRunEveryBuiltInTool(t *testing.T) {
	for _, tool := range catalog.Default().Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			args, err := catalog.ExampleArguments(tool)
			require.NoError(t, err)
			raw, err := json.Marshal(args)
			require.NoError(t, err)
			_, err = tool.Run(context.Background(), catalog.Call{Arguments: raw})
			assert.NoError(t, err, "arguments %s", raw)
		})
	}
}

func TestExampleArgumentsTakeTheSchemasOwnValues(t *testing.T) {
	two := 2
	s := &jsonschema.Schema{Type: "object", Required: []string{"equity", "side", "legs", "limits"},
		Properties: map[string]*jsonschema.Schema{
			"equity": {Ref: "#/$defs/positive", Examples: []any{"100000"}},
			"side":   {Type: "string", Enum: []any{"long", "short"}},
			"legs":   {Type: "array", MinItems: &two, Items: &jsonschema.Schema{Type: "string", Default: json.RawMessage(`"call"`)}},
			"limits": {Type: "object", Required: []string{"cap"}, Properties: map[string]*jsonschema.Schema{"cap": {Ref: "#/$defs/positive"}}},
			"note":   {Type: "string", Examples: []any{"optional members stay out"}},
			"ratio":  {Type: "string", Examples: []any{"0.5"}},
		},
		AnyOf: []*jsonschema.Schema{{Required: []string{"ratio"}}, {Required: []string{"note"}}},
		Defs:  map[string]*jsonschema.Schema{"positive": {Type: "string", Examples: []any{"1"}}},
	}
	tool := catalog.Tool{Name: "demo", InputSchema: s}
	args, err := catalog.ExampleArguments(tool)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"equity": "100000", "side": "long", "legs": []any{"call", "call"},
		"limits": map[string]any{"cap": "1"}, "ratio": "0.5"}, args)

	tool.Example = map[string]any{"equity": "5"}
	args, err = catalog.ExampleArguments(tool)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"equity": "5"}, args, "the tool's own example wins")

	_, err = catalog.ExampleArguments(catalog.Tool{Name: "demo", InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"symbol"},
		Properties: map[string]*jsonschema.Schema{"symbol": {Type: "string", Pattern: "^[A-Z]+$"}}}})
	assert.ErrorContains(t, err, "symbol has no example", "nothing is generated from a pattern")
}
