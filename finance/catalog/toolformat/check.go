package toolformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Violation is a list's breach of one of its host's documented rules.
type Violation struct {
	Tool string // the tool's name; empty for the list itself
	Path string // where in the tool, e.g. "parameters.properties.equity"
	Rule string // the rule broken
}

// String describes the violation: "tool path: rule".
func (v Violation) String() string {
	where := v.Tool
	if v.Path != "" {
		where += " " + v.Path
	}
	if where == "" {
		where = "list"
	}
	return where + ": " + v.Rule
}

// Check returns every breach of the rules of format f's host in list, a
// list as Build and Encode write it ({"tools": [...]}). The rules, and
// where each host documents them, are in rules_*.go.
func Check(f Format, list []byte) ([]Violation, error) {
	dec := json.NewDecoder(bytes.NewReader(list))
	dec.UseNumber() // counts written as strings and as numbers stay apart
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("toolformat: the list is not a JSON object with tools: %w", err)
	}
	c := &checker{}
	switch f {
	case Anthropic:
		checkAnthropic(c, doc.Tools)
	case OpenAI:
		checkOpenAI(c, doc.Tools)
	case Gemini:
		checkGemini(c, doc.Tools)
	case MCP:
		checkMCP(c, doc.Tools)
	default:
		_, err := Parse(string(f))
		return nil, err
	}
	return c.found, nil
}

// checker collects violations.
type checker struct {
	found []Violation
}

func (c *checker) fail(tool, path, format string, args ...any) {
	c.found = append(c.found, Violation{Tool: tool, Path: path, Rule: fmt.Sprintf(format, args...)})
}

// keys checks that the object m has only the allowed keys.
func (c *checker) keys(tool, path string, m map[string]any, allowed []string, source string) {
	for _, k := range sortedKeys(m) {
		if !slices.Contains(allowed, k) {
			c.fail(tool, path, "%q is not a field %s accepts", k, source)
		}
	}
}

// name checks a tool name against pattern.
func (c *checker) name(tool map[string]any, key string, pattern *regexp.Regexp, source string) string {
	name, _ := tool[key].(string)
	if !pattern.MatchString(name) {
		c.fail(name, key, "the name must match %s (%s)", pattern, source)
	}
	return name
}

// node is one schema of a tool, and where it is.
type node struct {
	schema map[string]any
	path   string
	depth  int // nesting of objects, the root object being 1
}

// walk calls visit on the schema at path and every schema below it
// (properties, items, additionalProperties, anyOf, $defs).
func walk(schema map[string]any, path string, visit func(n node)) {
	var rec func(s map[string]any, path string, depth int)
	rec = func(s map[string]any, path string, depth int) {
		if s["type"] == "object" || s["type"] == "OBJECT" || s["properties"] != nil {
			depth++
		}
		visit(node{schema: s, path: path, depth: depth})
		for _, key := range []string{"properties", "$defs"} {
			members, _ := s[key].(map[string]any)
			for _, name := range sortedKeys(members) {
				if m, ok := members[name].(map[string]any); ok {
					rec(m, path+"."+key+"."+name, depth)
				}
			}
		}
		for _, key := range []string{"items", "additionalProperties"} {
			if m, ok := s[key].(map[string]any); ok {
				rec(m, path+"."+key, depth)
			}
		}
		if list, ok := s["anyOf"].([]any); ok {
			for i, sub := range list {
				if m, ok := sub.(map[string]any); ok {
					rec(m, fmt.Sprintf("%s.anyOf[%d]", path, i), depth)
				}
			}
		}
	}
	rec(schema, path, 0)
}

// objectSchema returns the schema at key of tool, failing when it is
// not a JSON object.
func (c *checker) objectSchema(name string, tool map[string]any, key string) (map[string]any, bool) {
	s, ok := tool[key].(map[string]any)
	if !ok {
		c.fail(name, key, "the schema must be a JSON object")
	}
	return s, ok
}

// rootCombinators fails on anyOf, oneOf or allOf at the root of an input
// schema. Source: the Anthropic Messages API answers a request whose tool
// list holds one with 400 "input_schema does not support oneOf, allOf,
// or anyOf at the top level" (reported in anthropics/claude-code#5319,
// #5973 and by many MCP servers); hosts that forward MCP tool schemas to
// it (Claude Code, Claude Desktop) fail every message.
func (c *checker) rootCombinators(name, path string, s map[string]any) {
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if _, ok := s[k]; ok {
			c.fail(name, path, "%s at the root of an input schema (Anthropic: \"input_schema does not support oneOf, allOf, or anyOf at the top level\")", k)
		}
	}
}

// specObject fails unless the input schema s is an object with
// properties and required. Source: the service spec ("every input schema
// has properties and required").
func (c *checker) specObject(name, path string, s map[string]any, objectType string) {
	if s["type"] != objectType {
		c.fail(name, path, "the input schema must have type %q", objectType)
	}
	if _, ok := s["properties"].(map[string]any); !ok {
		c.fail(name, path, "the input schema must have properties (service spec)")
	}
	if _, ok := s["required"].([]any); !ok {
		c.fail(name, path, "the input schema must have required, possibly empty (service spec)")
	}
}

// jsonSchema fails unless s is a well-formed JSON Schema (draft
// 2020-12), as resolved by github.com/google/jsonschema-go.
func (c *checker) jsonSchema(name, path string, s map[string]any) {
	b, err := json.Marshal(s)
	if err == nil {
		var js jsonschema.Schema
		if err = json.Unmarshal(b, &js); err == nil {
			_, err = js.Resolve(nil)
		}
	}
	if err != nil {
		c.fail(name, path, "not a valid JSON Schema (draft 2020-12): %v", err)
	}
	walk(s, path, func(n node) {
		for _, t := range types(n.schema) {
			if !slices.Contains(openAITypes, t) { // the seven JSON Schema types
				c.fail(name, n.path, "not a valid JSON Schema (draft 2020-12): unknown type %q", t)
			}
		}
	})
}

// names returns the strings of a JSON array, sorted.
func names(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// types lists the type or types a schema states.
func types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		return names(t)
	}
	return nil
}

// joinNames spells a list of names for a rule.
func joinNames(list []string) string { return strings.Join(list, ", ") }
