package toolformat

import (
	"regexp"
	"slices"
)

// Gemini's rules for function declarations, from
// https://ai.google.dev/api/caching#FunctionDeclaration (a declaration
// has name, description and parameters; the name starts with a letter or
// an underscore and holds a-z, A-Z, 0-9, underscores, dots, colons and
// dashes, at most 128 characters), https://ai.google.dev/api/caching#Schema
// ("a select subset of an OpenAPI 3.0 schema object": type, format,
// title, description, nullable, enum, maxItems, minItems, properties,
// required, minProperties, maxProperties, minLength, maxLength, pattern,
// example, anyOf, propertyOrdering, default, maximum, minimum, items; no
// $ref, $defs, additionalProperties, examples, exclusiveMinimum,
// exclusiveMaximum, oneOf or allOf), and the Schema type of the official
// SDK (@google/genai): type is one of the Type enum's names, enum values
// are strings, and the int64 counts (maxItems, minLength, ...) are
// strings. An OBJECT needs properties: the API answers an empty one with
// 400 "properties: should be non-empty for OBJECT type" (reported in
// agno-agi/agno#2112 and pipecat-ai/pipecat-flows#110). Parameter names
// start with a letter or an underscore and hold a-z, A-Z, 0-9 and
// underscores, at most 64 characters (the SDK's FunctionDeclaration).
var (
	geminiName          = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$`)
	geminiParameterName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)
	geminiToolFields    = []string{"functionDeclarations"}
	geminiDeclFields    = []string{"name", "description", "parameters", "parametersJsonSchema", "response", "responseJsonSchema", "behavior"}
	geminiKeywords      = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
		"required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
		"default", "maximum", "minimum", "items"}
	geminiTypes  = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
	geminiCounts = []string{"maxItems", "minItems", "minProperties", "maxProperties", "minLength", "maxLength"}
	digits       = regexp.MustCompile(`^[0-9]+$`)
)

func checkGemini(c *checker, tools []map[string]any) {
	for i, t := range tools {
		c.keys("", "tools", t, geminiToolFields, "a Gemini Tool of function declarations")
		decls, ok := t["functionDeclarations"].([]any)
		if !ok {
			c.fail("", "tools", "tool %d has no functionDeclarations", i)
			continue
		}
		for _, d := range decls {
			decl, _ := d.(map[string]any)
			name := c.name(decl, "name", geminiName, "Gemini FunctionDeclaration")
			c.keys(name, "", decl, geminiDeclFields, "a Gemini FunctionDeclaration")
			s, ok := c.objectSchema(name, decl, "parameters")
			if !ok {
				continue
			}
			c.specObject(name, "parameters", s, "OBJECT")
			c.geminiSchemas(name, s)
		}
	}
}

// geminiSchemas checks every schema of one declaration's parameters.
func (c *checker) geminiSchemas(name string, root map[string]any) {
	walk(root, "parameters", func(n node) {
		s := n.schema
		c.keys(name, n.path, s, geminiKeywords, "Gemini's Schema")
		t, _ := s["type"].(string)
		if !slices.Contains(geminiTypes, t) {
			c.fail(name, n.path, "type must be one of %s, got %v", joinNames(geminiTypes), s["type"])
		}
		for _, k := range geminiCounts {
			if v, ok := s[k]; ok {
				if text, isText := v.(string); !isText || !digits.MatchString(text) {
					c.fail(name, n.path+"."+k, "an int64 count is written as a string of digits")
				}
			}
		}
		if enum, ok := s["enum"].([]any); ok {
			for _, v := range enum {
				if _, isText := v.(string); !isText {
					c.fail(name, n.path+".enum", "enum values are strings")
				}
			}
		}
		switch t {
		case "OBJECT":
			props, _ := s["properties"].(map[string]any)
			if len(props) == 0 {
				c.fail(name, n.path, "an OBJECT needs properties (\"should be non-empty for OBJECT type\")")
			}
			for _, p := range sortedKeys(props) {
				if !geminiParameterName.MatchString(p) {
					c.fail(name, n.path+".properties."+p, "a parameter name must match %s", geminiParameterName)
				}
			}
			for _, r := range names(s["required"]) {
				if _, ok := props[r]; !ok {
					c.fail(name, n.path, "required names %q, which is not a property", r)
				}
			}
		case "ARRAY":
			if _, ok := s["items"].(map[string]any); !ok {
				c.fail(name, n.path, "an ARRAY needs items")
			}
		}
	})
}
