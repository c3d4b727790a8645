package toolformat

import "regexp"

// The Anthropic Messages API's rules for a tool, from
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
// ("name: must match the regex ^[a-zA-Z0-9_-]{1,64}$"; "input_schema: a
// JSON Schema object defining the expected parameters"; descriptions are
// "by far the most important factor in tool performance") and from the
// Tool type of the official SDK (@anthropic-ai/sdk, Messages.Tool).
var (
	anthropicName       = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicToolFields = []string{"name", "description", "input_schema", "type", "cache_control", "defer_loading",
		"eager_input_streaming", "allowed_callers", "input_examples", "strict"}
)

func checkAnthropic(c *checker, tools []map[string]any) {
	for _, t := range tools {
		name := c.name(t, "name", anthropicName, "Anthropic tool use")
		c.keys(name, "", t, anthropicToolFields, "the Anthropic Tool")
		if d, _ := t["description"].(string); d == "" {
			c.fail(name, "description", "a tool needs a description (Anthropic tool use)")
		}
		s, ok := c.objectSchema(name, t, "input_schema")
		if !ok {
			continue
		}
		c.specObject(name, "input_schema", s, "object")
		c.rootCombinators(name, "input_schema", s)
		c.jsonSchema(name, "input_schema", s)
	}
}
