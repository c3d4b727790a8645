package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documentURL names the OpenAPI document as a JSON Schema resource.
const documentURL = "https://toolkit.test/openapi.json"

// exampleCheck is one example of the document and the schema it must
// match: a schema's own examples, a parameter's or header's example, or a
// named example of a body.
type exampleCheck struct {
	schema  string // JSON pointer of the schema in the document
	where   string // what the example is, for messages
	example any
}

// examplesOf lists every example under v (at JSON pointer at) with the
// schema it must match.
func examplesOf(at string, v any, out []exampleCheck) []exampleCheck {
	switch v := v.(type) {
	case map[string]any:
		if list, ok := v["examples"].([]any); ok { // a schema's examples
			for i, ex := range list {
				out = append(out, exampleCheck{schema: at, where: fmt.Sprintf("%s/examples/%d", at, i), example: ex})
			}
		}
		if named, ok := v["examples"].(map[string]any); ok && v["schema"] != nil { // a body's named examples
			for name, ex := range named {
				out = append(out, exampleCheck{schema: at + "/schema", where: at + "/examples/" + name, example: ex.(map[string]any)["value"]})
			}
		}
		if ex, ok := v["example"]; ok && v["schema"] != nil { // a parameter's example
			out = append(out, exampleCheck{schema: at + "/schema", where: at + "/example", example: ex})
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = examplesOf(at+"/"+pointerToken(k), v[k], out)
		}
	case []any:
		for i, x := range v {
			out = examplesOf(fmt.Sprintf("%s/%d", at, i), x, out)
		}
	}
	return out
}

// pointerToken escapes a JSON pointer token for a URI fragment.
func pointerToken(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	return strings.NewReplacer("{", "%7B", "}", "%7D").Replace(s)
}

// schemaChecker validates values against schemas of the document
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
type schemaChecker struct {
	c *jsonschema.Compiler
}

func newSchemaChecker(t *testing.T, raw []byte) schemaChecker {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	require.NoError(t, c.AddResource(documentURL, doc))
	return schemaChecker{c: c}
}

// check validates value against the schema at pointer.
func (s schemaChecker) check(pointer string, value any) error {
	sch, err := s.c.Compile(documentURL + "#" + pointer)
	if err != nil {
		return fmt.Errorf("compile %s: %w", pointer, err)
	}
	// Through JSON, so numbers are what the validator expects.
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// TestEveryExampleMatchesItsSchema validates every example of the live
// document (schemas' examples, parameters' and headers' examples, named
// examples of request and error bodies) against the schema it documents.
// It also shows the check catching a wrong decimal and a wrong tool body.
func TestEveryExampleMatchesItsSchema(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, raw := e.rawGet(t, "/v1/openapi.json", "")
	checker := newSchemaChecker(t, []byte(raw))
	var doc any
	require.NoError(t, json.Unmarshal([]byte(raw), &doc))
	checks := examplesOf("", doc, nil)
	t.Logf("%d examples", len(checks))
	require.Greater(t, len(checks), 300, "the document is full of examples")
	for _, c := range checks {
		assert.NoError(t, checker.check(c.schema, c.example), "%s", c.where)
	}

	assert.Error(t, checker.check("/components/schemas/Decimal", "1e3"), "a decimal in exponent form is refused")
	assert.Error(t, checker.check("/components/schemas/ToolCallRequest",
		map[string]any{"tool_name": "calculate_position_size", "arguments": map[string]any{"equity": "25000"}}),
		"a tool call without its required arguments is refused")
}
