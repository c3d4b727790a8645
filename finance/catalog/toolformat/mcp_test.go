package toolformat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPInputSchemaIsTheAnthropicOne: an MCP tool's inputSchema is, byte
// for byte, the input_schema of the Anthropic list (Claude Code and
// Claude Desktop send it to the Messages API).
func TestMCPInputSchemaIsTheAnthropicOne(t *testing.T) {
	tools := fullTools(t)
	var anthropic struct {
		Tools []struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(encoded(t, toolformat.Anthropic, tools), &anthropic))
	mcpTools, err := toolformat.MCPTools(tools, nil)
	require.NoError(t, err)
	require.Len(t, mcpTools, len(anthropic.Tools))
	for i, tool := range mcpTools {
		assert.Equal(t, anthropic.Tools[i].Name, tool.Name)
		assert.JSONEq(t, string(anthropic.Tools[i].Schema), string(tool.InputSchema), tool.Name)
		assert.Equal(t, string(anthropic.Tools[i].Schema), string(tool.InputSchema), "%s: the same member order", tool.Name)
	}
}

// TestMCPToolsAddWhatTheServerServes: a server's price ends the
// description and its _meta and output schema are listed; the output
// schema keeps its member order, its bare booleans become objects, and a
// served function's error names the tool.
func TestMCPToolsAddWhatTheServerServes(t *testing.T) {
	tools := fullTools(t)[:2]
	served := func(tool catalog.Tool) (toolformat.Served, error) {
		return toolformat.Served{Price: "Price: free.", Meta: map[string]any{"price": "0.00"},
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"z":true,"a":{"type":"string"}},"required":["z"]}`)}, nil
	}
	got, err := toolformat.MCPTools(tools, served)
	require.NoError(t, err)
	for i, tool := range got {
		assert.Equal(t, tools[i].Description+" Price: free.", tool.Description)
		assert.Equal(t, map[string]any{"price": "0.00"}, tool.Meta)
		assert.Equal(t, `{"type":"object","properties":{"z":{},"a":{"type":"string"}},"required":["z"]}`, string(tool.OutputSchema))
		b, err := json.Marshal(tool)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(b), `{"name":"`+tool.Name+`","title":`), string(b))
		assert.Contains(t, string(b), `"outputSchema":{"type":"object"`)
		assert.Contains(t, string(b), `"_meta":{"price":"0.00"}`)
	}

	plain, err := toolformat.MCPTools(tools, nil)
	require.NoError(t, err)
	b, err := json.Marshal(plain[0])
	require.NoError(t, err)
	assert.NotContains(t, string(b), "outputSchema")
	assert.NotContains(t, string(b), "_meta")

	_, err = toolformat.MCPTools(tools, func(catalog.Tool) (toolformat.Served, error) {
		return toolformat.Served{OutputSchema: json.RawMessage(`[1]`)}, nil
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), tools[0].Name)
}

// TestPortableSchema: every bare boolean in a schema position becomes the
// object of the same meaning; booleans under additionalProperties and
// what is not a schema (an enum's values, a default) stay.
func TestPortableSchema(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"type":"object","properties":{"a":true,"b":false}}`, `{"type":"object","properties":{"a":{},"b":{"not":{}}}}`},
		{`{"items":true,"additionalProperties":true}`, `{"items":{},"additionalProperties":true}`},
		{`{"anyOf":[true,{"type":"null"}],"$defs":{"X":{"properties":{"m":true}}}}`,
			`{"anyOf":[{},{"type":"null"}],"$defs":{"X":{"properties":{"m":{}}}}}`},
		{`{"enum":[true,false],"default":true,"const":true}`, `{"enum":[true,false],"default":true,"const":true}`},
		{`{"b":1,"a":2.50}`, `{"b":1,"a":2.50}`},
	}
	for _, tc := range cases {
		tools, err := toolformat.MCPTools(fullTools(t)[:1], func(catalog.Tool) (toolformat.Served, error) {
			return toolformat.Served{OutputSchema: json.RawMessage(tc.in)}, nil
		})
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, string(tools[0].OutputSchema), tc.in)
	}
}
