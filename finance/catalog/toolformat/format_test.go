package toolformat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullTools are the tools the API serves: the built-in ones and the
// workspace's four (45).
func fullTools(t testing.TB) []catalog.Tool {
	t.Helper()
	c := catalog.Default()
	for _, tool := range (&workspace.Service{}).Tools() {
		require.NoError(t, c.Register(tool))
	}
	require.Len(t, c.Tools(), 45)
	return c.Tools()
}

// encoded builds and encodes the list of format f.
func encoded(t testing.TB, f toolformat.Format, tools []catalog.Tool) []byte {
	t.Helper()
	l, err := toolformat.Build(f, tools)
	require.NoError(t, err)
	b, err := toolformat.Encode(l)
	require.NoError(t, err)
	return b
}

// maxVendorListBytes bounds each host's list (48 KB): the whole list is
// sent with every request, and every byte of it is the model's context.
const maxVendorListBytes = 48_000

// TestEveryListKeepsItsHostRules: the list of each format holds all 45
// tools and breaks none of its host's documented rules (Check); the
// Anthropic, OpenAI and Gemini lists stay within 48 KB. It logs each
// list's size and its chars/4 token estimate.
func TestEveryListKeepsItsHostRules(t *testing.T) {
	tools := fullTools(t)
	for _, f := range toolformat.Formats {
		t.Run(string(f), func(t *testing.T) {
			b := encoded(t, f, tools)
			violations, err := toolformat.Check(f, b)
			require.NoError(t, err)
			assert.Empty(t, violations)
			assert.Equal(t, 45, countTools(t, f, b))
			t.Logf("%s: %d bytes, about %d tokens (chars/4)", f, len(b), len([]rune(string(b)))/4)
			if f != toolformat.MCP {
				assert.LessOrEqual(t, len(b), maxVendorListBytes, "the %s list grew past 48 KB", f)
			}
		})
	}
}

// countTools counts the tools (or function declarations) of a list.
func countTools(t *testing.T, f toolformat.Format, b []byte) int {
	var l struct {
		Tools []struct {
			Decls []json.RawMessage `json:"functionDeclarations"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(b, &l))
	if f != toolformat.Gemini {
		return len(l.Tools)
	}
	n := 0
	for _, tool := range l.Tools {
		n += len(tool.Decls)
	}
	return n
}

func TestParseNamesTheFormats(t *testing.T) {
	for _, f := range toolformat.Formats {
		got, err := toolformat.Parse(string(f))
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := toolformat.Parse("claude")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "format: must be one of anthropic, openai, gemini, mcp")
}

// TestNoMeaningIsLost: every shape of every tool keeps every argument the
// catalog offers (all but the deprecated ones), the catalog's description
// of each, its default, and the tool's conditions; the Anthropic, Gemini
// and MCP shapes keep which arguments are required, and the OpenAI shape
// lists them all and lets only the optional ones be null.
func TestNoMeaningIsLost(t *testing.T) {
	tools := fullTools(t)
	for _, f := range toolformat.Formats {
		b := encoded(t, f, tools)
		shapes := schemasOf(t, f, b)
		for _, tool := range tools {
			shape := shapes[tool.Name]
			require.NotNil(t, shape, "%s: %s is missing", f, tool.Name)
			assertKeeps(t, f, tool.Name, tool.InputSchema, shape)
		}
	}
}

// schemasOf returns the input schema of each tool of a list, by name.
func schemasOf(t *testing.T, f toolformat.Format, b []byte) map[string]map[string]any {
	var l struct {
		Tools []map[string]any `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(b, &l))
	out := map[string]map[string]any{}
	for _, tool := range l.Tools {
		switch f {
		case toolformat.Anthropic:
			out[tool["name"].(string)] = tool["input_schema"].(map[string]any)
		case toolformat.OpenAI:
			out[tool["name"].(string)] = tool["parameters"].(map[string]any)
		case toolformat.MCP:
			out[tool["name"].(string)] = tool["inputSchema"].(map[string]any)
		case toolformat.Gemini:
			for _, d := range tool["functionDeclarations"].([]any) {
				decl := d.(map[string]any)
				out[decl["name"].(string)] = decl["parameters"].(map[string]any)
			}
		}
	}
	return out
}

// assertKeeps compares one object schema of the catalog with its shape.
func assertKeeps(t *testing.T, f toolformat.Format, at string, s *catalogSchema, shape map[string]any) {
	t.Helper()
	if s.Ref != "" {
		return // a shared decimal definition: its annotations were checked on the property
	}
	if strings.Contains(s.Description, "Needs ") {
		assert.Contains(t, shape["description"], s.Description[strings.Index(s.Description, "Needs "):], "%s %s: the condition", f, at)
	}
	props, _ := shape["properties"].(map[string]any)
	required := names(shape["required"])
	for name, p := range s.Properties {
		path := at + "." + name
		got, ok := props[name].(map[string]any)
		if p.Deprecated {
			assert.False(t, ok, "%s %s: a deprecated argument is not offered", f, path)
			continue
		}
		require.True(t, ok, "%s %s is missing", f, path)
		assert.Contains(t, got["description"], strings.TrimSpace(p.Description), "%s %s: the description", f, path)
		isRequired := contains(s.Required, name)
		if f == toolformat.OpenAI {
			assert.True(t, contains(required, name), "%s %s: strict mode lists every argument", f, path)
			assert.Equal(t, !isRequired, admitsNull(got), "%s %s: only an optional argument may be null", f, path)
		} else {
			assert.Equal(t, isRequired, contains(required, name), "%s %s: required", f, path)
		}
		if len(p.Default) > 0 {
			assert.Contains(t, got["description"], "default ", "%s %s: the default", f, path)
		}
		if p.Type == "object" && len(p.Properties) > 0 {
			assertKeeps(t, f, path, p, got)
		}
		if p.Items != nil && len(p.Items.Properties) > 0 {
			items, _ := got["items"].(map[string]any)
			assertKeeps(t, f, path+"[]", p.Items, items)
		}
	}
}
