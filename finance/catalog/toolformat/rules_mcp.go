package toolformat

import (
	"fmt"
	"regexp"
	"slices"
)

// MCP's rules for a tool of a tools/list result, from the specification
// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools:
// a Tool has name, title, description, inputSchema, outputSchema,
// annotations and _meta; inputSchema is a JSON Schema object, and an
// outputSchema describes an object; the annotations are hints; and
// 2025-11-25, SEP-986: a tool name is 1 to 128 characters of A-Z, a-z,
// 0-9, _, - and .). Claude Code and Claude Desktop hand MCP input
// schemas to the Anthropic Messages API, so its rule on root combinators
// holds too.
var (
	mcpName             = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	mcpToolFields       = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "icons"}
	mcpAnnotationFields = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
)

func checkMCP(c *checker, tools []map[string]any) {
	for _, t := range tools {
		name := c.name(t, "name", mcpName, "MCP tool names, SEP-986")
		c.keys(name, "", t, mcpToolFields, "an MCP Tool")
		if s, ok := c.objectSchema(name, t, "inputSchema"); ok {
			c.specObject(name, "inputSchema", s, "object")
			c.rootCombinators(name, "inputSchema", s)
			c.jsonSchema(name, "inputSchema", s)
			c.portable(name, "inputSchema", s)
		}
		if _, present := t["outputSchema"]; present {
			if s, ok := c.objectSchema(name, t, "outputSchema"); ok {
				if s["type"] != "object" {
					c.fail(name, "outputSchema", "an outputSchema must describe an object (type \"object\")")
				}
				c.jsonSchema(name, "outputSchema", s)
				c.portable(name, "outputSchema", s)
			}
		}
		if a, ok := t["annotations"].(map[string]any); ok {
			c.keys(name, "annotations", a, mcpAnnotationFields, "MCP ToolAnnotations")
			for k, v := range a {
				if _, isBool := v.(bool); k != "title" && slices.Contains(mcpAnnotationFields, k) && !isBool {
					c.fail(name, "annotations."+k, "a hint is a boolean")
				}
			}
		}
	}
}

// portable fails on what the MCP Inspector's schema portability check
// (npx @modelcontextprotocol/inspector@2.12.0 --cli <url> --method
// tools/list --strict; its clients/cli lintToolSchemas) reports of an
// input or output schema: a bare boolean where a schema object is
// expected (an error there: some clients refuse the tool), and a type
// written as a list (a client that maps schemas onto a single-type
// dialect, such as Gemini's, rejects the tool or drops the constraint).
// Booleans stay allowed under additionalProperties and its kin.
func (c *checker) portable(name, path string, s map[string]any) {
	var rec func(v any, path string, asObject bool)
	rec = func(v any, path string, asObject bool) {
		s, ok := v.(map[string]any)
		if !ok {
			if _, isBool := v.(bool); isBool && asObject {
				c.fail(name, path, "a bare boolean where a schema object is expected (MCP Inspector portability check)")
			}
			return
		}
		if _, list := s["type"].([]any); list {
			c.fail(name, path, "a type written as a list (MCP Inspector portability check: write anyOf branches)")
		}
		for _, k := range sortedKeys(s) {
			switch {
			case slices.Contains(schemaKeywords, k):
				rec(s[k], path+"."+k, !slices.Contains(booleanKeywords, k))
			case slices.Contains(schemaListKeywords, k):
				list, _ := s[k].([]any)
				for i, x := range list {
					rec(x, fmt.Sprintf("%s.%s[%d]", path, k, i), true)
				}
			case slices.Contains(schemaMapKeywords, k):
				named, _ := s[k].(map[string]any)
				for _, n := range sortedKeys(named) {
					rec(named[n], path+"."+k+"."+n, true)
				}
			}
		}
	}
	rec(s, path, true)
}
