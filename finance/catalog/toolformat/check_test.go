package toolformat_test

import (
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckFindsEachBrokenRule: for each host, a list breaking one rule
// is reported with that rule, and the same list without the breach
// passes: the checker is not vacuous.
func TestCheckFindsEachBrokenRule(t *testing.T) {
	const (
		anthropicOK = `{"name":"t","description":"d","input_schema":{"type":"object","properties":{"a":{"type":"number"}},"required":[]}}`
		openAIOK    = `{"type":"function","name":"t","description":"d","strict":true,"parameters":{"type":"object","properties":{"a":{"type":["number","null"]}},"required":["a"],"additionalProperties":false}}`
		geminiOK    = `{"functionDeclarations":[{"name":"t","description":"d","parameters":{"type":"OBJECT","properties":{"a":{"type":"ARRAY","items":{"type":"STRING"},"minItems":"1"}},"required":["a"]}}]}`
		mcpOK       = `{"name":"t","title":"T","description":"d","inputSchema":{"type":"object","properties":{},"required":[],"additionalProperties":false},"annotations":{"readOnlyHint":true}}`
	)
	cases := []struct {
		format     toolformat.Format
		ok, broken string
		rule       string
	}{
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `"required":[]`, `"required":[],"anyOf":[{"required":["a"]}]`, 1), "anyOf at the root"},
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `"name":"t"`, `"name":"t.x"`, 1), "must match"},
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `,"required":[]`, ``, 1), "must have required"},
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `"description":"d",`, ``, 1), "needs a description"},
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `"type":"number"`, `"type":"numbr"`, 1), "unknown type"},
		{toolformat.Anthropic, anthropicOK, strings.Replace(anthropicOK, `"type":"number"`, `"$ref":"#/$defs/gone"`, 1), "not a valid JSON Schema"},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"required":["a"]`, `"required":[]`, 1), "required must list every property"},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `,"additionalProperties":false`, ``, 1), "additionalProperties: false"},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"type":["number","null"]`, `"type":"string","maxLength":5`, 1), `"maxLength" is not a field`},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"type":["number","null"]`, `"type":"number","default":1`, 1), `"default" is not a field`},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"type":["number","null"]`, `"type":"number","examples":[1]`, 1), `"examples" is not a field`},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"type":["number","null"]`, `"type":"string","format":"uri"`, 1), `format "uri"`},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"strict":true`, `"strict":false`, 1), "strict must be true"},
		{toolformat.OpenAI, openAIOK, strings.Replace(openAIOK, `"required":["a"]`, `"required":["a"],"anyOf":[{}]`, 1), "root must not be an anyOf"},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"minItems":"1"`, `"minItems":1`, 1), "int64 count"},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"type":"STRING"`, `"type":"string"`, 1), "type must be one of"},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"type":"STRING"`, `"type":"OBJECT"`, 1), "needs properties"},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"minItems":"1"`, `"minItems":"1","additionalProperties":false`, 1), `"additionalProperties" is not a field`},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"items":{"type":"STRING"}`, `"items":{"$ref":"#/$defs/x"}`, 1), `"$ref" is not a field`},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"minItems":"1"`, `"minItems":"1","exclusiveMinimum":0`, 1), `"exclusiveMinimum" is not a field`},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"required":["a"]`, `"required":["b"]`, 1), "not a property"},
		{toolformat.Gemini, geminiOK, strings.Replace(geminiOK, `"name":"t"`, `"name":"1t"`, 1), "must match"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"required":[]`, `"required":[],"oneOf":[{}]`, 1), "oneOf at the root"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"readOnlyHint":true`, `"readOnlyHint":"yes"`, 1), "a hint is a boolean"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"annotations"`, `"outputSchema":{"type":"array"},"annotations"`, 1), "outputSchema must describe an object"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"title":"T",`, `"title":"T","price":1,`, 1), `"price" is not a field`},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"properties":{}`, `"properties":{"a":true}`, 1), "a bare boolean"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"annotations"`, `"outputSchema":{"type":"object","properties":{"a":{"anyOf":[false]}}},"annotations"`, 1), "a bare boolean"},
		{toolformat.MCP, mcpOK, strings.Replace(mcpOK, `"properties":{}`, `"properties":{"a":{"type":["string","null"]}}`, 1), "a type written as a list"},
	}
	for _, tc := range cases {
		ok, err := toolformat.Check(tc.format, []byte(`{"tools":[`+tc.ok+`]}`))
		require.NoError(t, err)
		require.Empty(t, ok, "%s: the unbroken list", tc.format)
		require.NotEqual(t, tc.ok, tc.broken, "%s %s: the case breaks nothing", tc.format, tc.rule)
		found, err := toolformat.Check(tc.format, []byte(`{"tools":[`+tc.broken+`]}`))
		require.NoError(t, err)
		var rules []string
		for _, v := range found {
			rules = append(rules, v.String())
		}
		assert.True(t, containsText(rules, tc.rule), "%s: want %q in %v", tc.format, tc.rule, rules)
	}
}

func containsText(list []string, text string) bool {
	for _, s := range list {
		if strings.Contains(s, text) {
			return true
		}
	}
	return false
}
