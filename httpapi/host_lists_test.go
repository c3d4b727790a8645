package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostTool is one tool of a host's list: its name and input schema.
type hostTool struct {
	name   string
	schema map[string]any
}

// hostTools reads the tools of a host's list, as the host's request
// would carry them.
func hostTools(t *testing.T, f toolformat.Format, body string) []hostTool {
	t.Helper()
	var list struct {
		Tools []map[string]any `json:"tools"`
	}
	require.NoError(t, decodeNumbers([]byte(body), &list))
	var out []hostTool
	for _, tool := range list.Tools {
		switch f {
		case toolformat.Anthropic:
			out = append(out, hostTool{tool["name"].(string), tool["input_schema"].(map[string]any)})
		case toolformat.OpenAI:
			out = append(out, hostTool{tool["name"].(string), tool["parameters"].(map[string]any)})
		case toolformat.MCP:
			out = append(out, hostTool{tool["name"].(string), tool["inputSchema"].(map[string]any)})
		case toolformat.Gemini:
			for _, d := range tool["functionDeclarations"].([]any) {
				decl := d.(map[string]any)
				out = append(out, hostTool{decl["name"].(string), decl["parameters"].(map[string]any)})
			}
		}
	}
	return out
}

// TestHostListsKeepTheirHostsRules: GET /v1/tools/list?format= serves
// every host's list of all 45 tools, breaking none of the host's rules
// (toolformat.Check); the Anthropic, OpenAI and Gemini lists stay within
// 48 KB. It logs each body's size and its chars/4 token estimate.
func TestHostListsKeepTheirHostsRules(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, plain := e.rawGet(t, "/v1/tools/list", "")
	t.Logf("default: %d bytes, about %d tokens", len(plain), len([]rune(plain))/4)
	for _, f := range toolformat.Formats {
		status, body := e.rawGet(t, "/v1/tools/list?format="+string(f), "")
		require.Equal(t, http.StatusOK, status, body)
		violations, err := toolformat.Check(f, []byte(body))
		require.NoError(t, err)
		assert.Empty(t, violations, f)
		assert.Len(t, hostTools(t, f, body), 45, f)
		t.Logf("%s: %d bytes, about %d tokens", f, len(body), len([]rune(body))/4)
		if f != toolformat.MCP {
			assert.LessOrEqual(t, len(body), 48_000, f)
		}
	}
}

func TestHostListFormatIsChecked(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	status, body := e.do("GET", "/v1/tools/list?format=claude", nil, "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body["detail"], "format: must be one of anthropic, openai, gemini, mcp")
	status, body = e.do("GET", "/v1/tools/list?format=openai&format=gemini", nil, "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body["detail"], "format")
	status, body = e.do("GET", "/v1/tools/list", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 45, body["tool_count"], "no format: the catalog with prices, as before")
}

// TestHostAgentLoops plays, for each vendor list, the agent loop of a
// model that sees nothing but that list: for every tool it builds the
// arguments the vendor constrains its model to (argsFromSchema: the
// required members and those the conditions ask for, from the examples
// written in the descriptions; OpenAI strict mode sends every member,
// null where unused) and calls POST /v1/tools/call. All 45 answer 200.
func TestHostAgentLoops(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "100")
	for _, f := range []toolformat.Format{toolformat.Anthropic, toolformat.OpenAI, toolformat.Gemini} {
		t.Run(string(f), func(t *testing.T) {
			status, body := e.rawGet(t, "/v1/tools/list?format="+string(f), "")
			require.Equal(t, http.StatusOK, status)
			tools := hostTools(t, f, body)
			require.Len(t, tools, 45)
			ok := 0
			for _, tool := range tools {
				args, err := argsFromSchema{root: tool.schema, examplesInText: true, everyKey: f == toolformat.OpenAI}.object(tool.schema)
				require.NoError(t, err, tool.name)
				call, err := json.Marshal(map[string]any{"tool_name": tool.name, "arguments": args})
				require.NoError(t, err)
				status, answer := e.do("POST", "/v1/tools/call", key(k), string(call))
				if assert.Equal(t, http.StatusOK, status, "%s: %s: %v", f, call, answer) {
					ok++
				}
			}
			t.Logf("%s: %d/45 tools answered 200", f, ok)
		})
	}
}
