package toolformat

import (
	"regexp"
	"slices"
)

// OpenAI's rules for a strict function tool (Responses API), from
// https://platform.openai.com/docs/guides/function-calling (a function
// tool is {type: "function", name, description, parameters, strict};
// names match ^[a-zA-Z0-9_-]{1,64}$; at most 128 tools in a request) and
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// (strict mode):
//   - the root is an object, not an anyOf;
//   - every object sets additionalProperties: false and lists every
//     property in required (an optional one admits null instead);
//   - only these keywords: type (string, number, integer, boolean,
//     object, array, null, or a list of them), description, properties,
//     required, additionalProperties, items, enum, const, anyOf, $ref and
//     $defs; for strings pattern and format (date-time, time, date,
//     duration, email, hostname, ipv4, ipv6, uuid); for numbers
//     multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum;
//     for arrays minItems and maxItems. Everything else is refused
//     (minLength, maxLength, default, allOf, not, if/then/else,
//     patternProperties, ...; "'examples' is not permitted", as reported
//     in openai/openai-python#2274);
//   - at most 5000 object properties and 10 levels of nesting, at most
//     1000 enum values, and at most 120,000 characters of property
//     names, definition names, enum values and const values.
var (
	openAIName       = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	openAIToolFields = []string{"type", "name", "description", "parameters", "strict"}
	openAIKeywords   = []string{"type", "description", "properties", "required", "additionalProperties", "items", "enum",
		"const", "anyOf", "$ref", "$defs", "pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minItems", "maxItems"}
	openAITypes   = []string{"string", "number", "integer", "boolean", "object", "array", "null"}
	openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

// OpenAI's documented limits of one strict schema and of one request.
const (
	openAIMaxTools      = 128
	openAIMaxProperties = 5000
	openAIMaxDepth      = 10
	openAIMaxEnumValues = 1000
	openAIMaxNameChars  = 120_000
)

func checkOpenAI(c *checker, tools []map[string]any) {
	if len(tools) > openAIMaxTools {
		c.fail("", "", "at most %d tools in a request, got %d", openAIMaxTools, len(tools))
	}
	for _, t := range tools {
		name := c.name(t, "name", openAIName, "OpenAI function calling")
		c.keys(name, "", t, openAIToolFields, "an OpenAI function tool")
		if t["type"] != "function" {
			c.fail(name, "type", "the type must be \"function\"")
		}
		if t["strict"] != true {
			c.fail(name, "strict", "strict must be true")
		}
		s, ok := c.objectSchema(name, t, "parameters")
		if !ok {
			continue
		}
		c.specObject(name, "parameters", s, "object")
		if _, ok := s["anyOf"]; ok {
			c.fail(name, "parameters", "the root must not be an anyOf (OpenAI strict mode)")
		}
		c.openAISchemas(name, s)
	}
}

// openAISchemas checks every schema of one tool's parameters, and the
// tool's totals.
func (c *checker) openAISchemas(name string, root map[string]any) {
	var properties, enumValues, chars int
	walk(root, "parameters", func(n node) {
		s := n.schema
		c.keys(name, n.path, s, openAIKeywords, "OpenAI strict mode")
		for _, t := range types(s) {
			if !slices.Contains(openAITypes, t) {
				c.fail(name, n.path, "type %q is not supported in strict mode", t)
			}
		}
		if f, ok := s["format"].(string); ok && !slices.Contains(openAIFormats, f) {
			c.fail(name, n.path, "format %q is not supported in strict mode", f)
		}
		if n.depth > openAIMaxDepth {
			c.fail(name, n.path, "more than %d levels of nested objects", openAIMaxDepth)
		}
		if props, ok := s["properties"].(map[string]any); ok {
			properties += len(props)
			for k := range props {
				chars += len(k)
			}
			if s["additionalProperties"] != false {
				c.fail(name, n.path, "an object must set additionalProperties: false (strict mode)")
			}
			if got, want := names(s["required"]), sortedKeys(props); !slices.Equal(got, want) {
				c.fail(name, n.path, "required must list every property (strict mode): has [%s], properties [%s]", joinNames(got), joinNames(want))
			}
		}
		if enum, ok := s["enum"].([]any); ok {
			enumValues += len(enum)
			for _, v := range enum {
				if text, ok := v.(string); ok {
					chars += len(text)
				}
			}
		}
	})
	switch {
	case properties > openAIMaxProperties:
		c.fail(name, "parameters", "more than %d object properties", openAIMaxProperties)
	case enumValues > openAIMaxEnumValues:
		c.fail(name, "parameters", "more than %d enum values", openAIMaxEnumValues)
	case chars > openAIMaxNameChars:
		c.fail(name, "parameters", "more than %d characters of names and enum values", openAIMaxNameChars)
	}
}
