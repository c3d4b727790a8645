package toolformat

import (
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
		}
		if _, present := t["outputSchema"]; present {
			if s, ok := c.objectSchema(name, t, "outputSchema"); ok {
				if s["type"] != "object" {
					c.fail(name, "outputSchema", "an outputSchema must describe an object (type \"object\")")
				}
				c.jsonSchema(name, "outputSchema", s)
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
