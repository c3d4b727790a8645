package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxMCPListBytes bounds the MCP tools/list result (the tools member, as
// sent). The list cannot reach 100 KB while every output field keeps its
// name, type, nullability and presence: the input schemas in their most
// compact checked form (the Anthropic list's) take 36 KB, names, titles,
// descriptions, prices and annotations 22 KB, and the 45 output schemas
// 87 KB, their Decimal definition and sub-objects already shared through
// $defs (docs/agent-hosts.md has the figures). The bound keeps it from
// growing.
const maxMCPListBytes = 150_000

// mcpResult returns the JSON-RPC result of a streamable-HTTP answer, sent
// as JSON or as one SSE message event.
func mcpResult(t *testing.T, body string) json.RawMessage {
	t.Helper()
	if i := strings.Index(body, "data: "); i >= 0 {
		body = strings.TrimSpace(body[i+len("data: "):])
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &msg), body)
	require.NotEmpty(t, msg.Result, body)
	return msg.Result
}

// mcpToolsMember returns the tools member of a tools/list result as sent.
func mcpToolsMember(t *testing.T, result []byte) json.RawMessage {
	t.Helper()
	var r struct {
		Tools json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(result, &r))
	return r.Tools
}

// TestMCPToolsListIsTheMCPFormat: the MCP server's tools/list answer
// (read off the wire) holds, byte for byte, the tools of GET
// /v1/tools/list?format=mcp; it breaks none of the MCP rules of the
// vendor checker (toolformat.Check, the MCP Inspector's portability rules
// included); every tool has a required list (possibly empty), an
// outputSchema and its price in its description and _meta. It logs the
// size and the part a model reads (name, description, inputSchema).
func TestMCPToolsListIsTheMCPFormat(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	status, _, body := e.mcpPost(t, k, "2025-06-18", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	require.Equal(t, http.StatusOK, status, body)
	wire := mcpToolsMember(t, mcpResult(t, body))
	status, format := e.rawGet(t, "/v1/tools/list?format=mcp", "")
	require.Equal(t, http.StatusOK, status)
	assert.True(t, bytes.Equal(wire, mcpToolsMember(t, []byte(format))), "?format=mcp is what tools/list sends")

	list := []byte(`{"tools":` + string(wire) + `}`)
	violations, err := toolformat.Check(toolformat.MCP, list)
	require.NoError(t, err)
	assert.Empty(t, violations)
	var tools []map[string]any
	require.NoError(t, json.Unmarshal(wire, &tools))
	require.Len(t, tools, 45)
	modelBytes := 0
	for _, tool := range tools {
		name := tool["name"].(string)
		input := tool["inputSchema"].(map[string]any)
		assert.IsType(t, []any{}, input["required"], "%s: inputSchema.required, possibly empty", name)
		assert.Equal(t, "object", tool["outputSchema"].(map[string]any)["type"], name)
		meta := tool["_meta"].(map[string]any)
		assert.NotEmpty(t, meta["price"], name)
		assert.Regexp(t, `Price(: | per call by )`, tool["description"], name)
		for _, part := range []any{name, tool["description"], input} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false) // as sent
			require.NoError(t, enc.Encode(part))
			modelBytes += b.Len() - 1 // Encode's newline
		}
	}
	t.Logf("MCP tools/list: %d bytes, about %d tokens (chars/4); name, description and inputSchema: %d bytes, about %d tokens",
		len(wire), len([]rune(string(wire)))/4, modelBytes, modelBytes/4)
	assert.LessOrEqual(t, len(wire), maxMCPListBytes)
}

// TestMCPAgentLoop plays the agent loop of a model behind an MCP host:
// the official Go SDK client reads nothing but tools/list, builds each
// tool's arguments from its inputSchema as a model would (argsFromSchema,
// the REST loops' builder: the required members and those the conditions
// ask for, from the examples in the descriptions), and calls every tool
// over MCP. All 45 answer a result that is not an error.
func TestMCPAgentLoop(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "100")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 45)
	ok := 0
	for _, tool := range list.Tools {
		schema, isObject := tool.InputSchema.(map[string]any)
		require.True(t, isObject, tool.Name)
		args, err := argsFromSchema{root: schema, examplesInText: true}.object(schema)
		require.NoError(t, err, tool.Name)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args})
		require.NoError(t, err, tool.Name)
		if assert.False(t, res.IsError, "%s %v: %v", tool.Name, args, res.Content) {
			ok++
		}
	}
	t.Logf("MCP: %d/45 tools answered a result", ok)
}
