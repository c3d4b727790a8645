package httpapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outputDecimalPattern is the grammar of the decimals the server sends.
const outputDecimalPattern = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`

// listedOutputSchemas returns each tool's outputSchema as tools/list
// sends it, by tool name.
func listedOutputSchemas(t *testing.T, e *env, k string) map[string]map[string]any {
	t.Helper()
	status, _, body := e.mcpPost(t, k, "2025-06-18", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	require.Equal(t, http.StatusOK, status, body)
	var tools []struct {
		Name   string         `json:"name"`
		Output map[string]any `json:"outputSchema"`
	}
	require.NoError(t, json.Unmarshal(mcpToolsMember(t, mcpResult(t, body)), &tools))
	out := map[string]map[string]any{}
	for _, tool := range tools {
		require.NotNil(t, tool.Output, tool.Name)
		out[tool.Name] = tool.Output
	}
	return out
}

// TestMCPOutputSchemasShareTheirParts: each tool's outputSchema states the
// Decimal grammar once (its $defs), defines every sub-object once, and
// defines nothing it does not use.
func TestMCPOutputSchemasShareTheirParts(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	schemas := listedOutputSchemas(t, e, k)
	require.Len(t, schemas, 45)
	for name, s := range schemas {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		text := string(b)
		patterns := strings.Count(text, `"pattern":`+quote(outputDecimalPattern))
		assert.LessOrEqual(t, patterns, 1, "%s: the Decimal pattern once", name)
		defs, _ := s["$defs"].(map[string]any)
		for def := range defs {
			assert.Contains(t, text, `"$ref":"#/$defs/`+def+`"`, "%s: $defs.%s is used", name, def)
		}
		seen := map[string]string{}
		eachSchema(s, "", func(path string, sub map[string]any) {
			if _, ok := sub["properties"]; !ok || path == "" {
				return
			}
			b, err := json.Marshal(sub)
			require.NoError(t, err)
			if other, dup := seen[string(b)]; dup {
				t.Errorf("%s: %s repeats %s: share it through $defs", name, path, other)
			}
			seen[string(b)] = path
		})
	}
}

// TestMCPOutputSchemasKeepTheirMeaning: every field of every tool's
// outputSchema has the type, format, pattern, enum, nullability,
// presence (required) and description of the field of the tool's result
// in the OpenAPI document, and no field is missing or added.
func TestMCPOutputSchemasKeepTheirMeaning(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	schemas := listedOutputSchemas(t, e, k)
	status, doc := e.do("GET", "/v1/openapi.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	components := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for name, output := range schemas {
		answer := answerOf(t, components, name)
		result := answer["properties"].(map[string]any)["result"].(map[string]any)
		want := fieldsOf(result, components, "#/components/schemas/")
		defs, _ := output["$defs"].(map[string]any)
		got := fieldsOf(output, defs, "#/$defs/")
		require.NotEmpty(t, want, name)
		assert.Equal(t, want, got, name)
	}
}

// answerOf finds the answer component of a tool (CalculatePnlAnswer for
// calculate_pnl).
func answerOf(t *testing.T, components map[string]any, tool string) map[string]any {
	t.Helper()
	for name, c := range components {
		if base, ok := strings.CutSuffix(name, "Answer"); ok && strings.EqualFold(base, strings.ReplaceAll(tool, "_", "")) {
			return c.(map[string]any)
		}
	}
	require.Fail(t, "no answer component", tool)
	return nil
}

// fieldsOf flattens a schema into its fields: path -> what the field is
// (type, format, pattern, enum, nullable, required, description), with
// references resolved in defs (whose names start with prefix).
func fieldsOf(s map[string]any, defs map[string]any, prefix string) map[string]string {
	out := map[string]string{}
	var rec func(s map[string]any, path, extra string, depth int)
	rec = func(s map[string]any, path, extra string, depth int) {
		if depth > 12 {
			return
		}
		description, _ := s["description"].(string)
		if ref, ok := s["$ref"].(string); ok {
			resolved := defs[strings.TrimPrefix(ref, prefix)].(map[string]any)
			merged := maps.Clone(resolved)
			if description != "" {
				merged["description"] = description
			}
			rec(merged, path, extra, depth+1)
			return
		}
		if branches, ok := s["anyOf"].([]any); ok && len(branches) == 2 && isNullSchema(branches[1]) {
			inner := maps.Clone(branches[0].(map[string]any))
			if description != "" {
				inner["description"] = description
			}
			rec(inner, path, extra+" nullable", depth+1)
			return
		}
		if branches, ok := s["oneOf"].([]any); ok {
			out[path] = "oneOf" + extra
			for i, b := range branches {
				rec(b.(map[string]any), fmt.Sprintf("%s|%d", path, i), "", depth+1)
			}
			return
		}
		out[path] = fmt.Sprintf("type=%v format=%v pattern=%v enum=%v additional=%v%s %q",
			s["type"], s["format"], s["pattern"], s["enum"], s["additionalProperties"] == false, extra, description)
		if items, ok := s["items"].(map[string]any); ok {
			rec(items, path+"[]", "", depth+1)
		}
		if values, ok := s["additionalProperties"].(map[string]any); ok {
			rec(values, path+"{}", "", depth+1)
		}
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		for _, p := range slices.Sorted(maps.Keys(props)) {
			presence := " optional"
			if slices.Contains(required, any(p)) {
				presence = " required"
			}
			rec(props[p].(map[string]any), path+"."+p, presence, depth+1)
		}
	}
	rec(s, "", "", 0)
	return out
}

func isNullSchema(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 1 && m["type"] == "null"
}

// eachSchema calls visit on s and every object schema below it.
func eachSchema(s map[string]any, path string, visit func(path string, s map[string]any)) {
	visit(path, s)
	for _, key := range slices.Sorted(maps.Keys(s)) {
		switch v := s[key].(type) {
		case map[string]any:
			if key == "properties" || key == "$defs" {
				for _, name := range slices.Sorted(maps.Keys(v)) {
					if sub, ok := v[name].(map[string]any); ok {
						eachSchema(sub, path+"."+key+"."+name, visit)
					}
				}
				continue
			}
			eachSchema(v, path+"."+key, visit)
		case []any:
			for i, x := range v {
				if sub, ok := x.(map[string]any); ok {
					eachSchema(sub, fmt.Sprintf("%s.%s[%d]", path, key, i), visit)
				}
			}
		}
	}
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
