package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sampleInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	Equity     toolkit.Amount `json:"equity"`
	Direction  string         `json:"direction"`
	Symbol     string         `json:"symbol,omitempty"`
	Window     *int           `json:"window_size,omitempty"`
	Risk       *toolkit.Float `json:"risk_percent,omitempty"`
}

func sampleTool() Tool {
	return NewTool(Spec{Name: "sample", Description: "test tool", Category: "test"},
		func(_ context.Context, _ Call, in sampleInput) (any, error) {
			return map[string]any{"n": len(in.RMultiples), "equity": in.Equity, "dir": in.Direction}, nil
		},
		func(s *jsonschema.Schema) {
			two := 2
			s.Properties["r_multiples"].MinItems = &two
			s.Properties["direction"].Enum = []any{"long", "short"}
			s.Properties["symbol"].Pattern = `^[A-Z]+$`
		})
}

func TestNewToolDecodesStringsAndNumbers(t *testing.T) {
	tool := sampleTool()
	out, err := tool.Run(context.Background(), Call{Arguments: json.RawMessage(
		`{"r_multiples":["1.5",-1, "0.25"],"equity":"100000.50","direction":"long","risk_percent":0.02}`)})
	require.NoError(t, err)
	m := out.(map[string]any)
	assert.Equal(t, 3, m["n"])
	assert.Equal(t, "100000.50", m["equity"].(toolkit.Amount).String())
}

func TestNewToolErrorsNameTheFieldAndRule(t *testing.T) {
	tool := sampleTool()
	cases := map[string]string{
		`{"r_multiples":["1"],"equity":"1","direction":"long"}`:            "r_multiples: minItems",
		`{"r_multiples":["1","x"],"equity":"1","direction":"long"}`:        `r_multiples[]: "x" is not a decimal number`,
		`{"r_multiples":["1","1e3"],"equity":"1","direction":"long"}`:      `r_multiples[]: "1e3" is not a decimal number`,
		`{"r_multiples":["1","2"],"equity":"1","direction":"up"}`:          "direction: enum",
		`{"r_multiples":["1","2"],"equity":"1"}`:                           "Missing required argument: direction",
		`{"r_multiples":["1","2"],"equity":"1","direction":"long","zz":1}`: "Unknown argument: zz",
		`{"r_multiples":["1","2"],"equity":"NaN","direction":"long"}`:      `equity: "NaN" is not a decimal number`,
		`[1,2]`: "arguments must be a JSON object",
		`{"r_multiples":["1","2"],"equity":"1","direction":"long","symbol":"aapl"}`: `symbol: pattern: "aapl" does not match`,
		`{"r_multiples":["1","2"],"equity":"1","direction":"long"} {}`:              "not valid JSON",
	}
	for in, want := range cases {
		_, err := tool.Run(context.Background(), Call{Arguments: json.RawMessage(in)})
		require.Error(t, err, in)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), in)
		assert.Contains(t, toolkit.MessageOf(err), want, in)
	}
}

func TestSchemaIsObjectWithoutNullableRequiredFields(t *testing.T) {
	tool := sampleTool()
	b, err := json.Marshal(tool.InputSchema)
	require.NoError(t, err)
	s := string(b)
	assert.Contains(t, s, `"required":["r_multiples","equity","direction"]`)
	assert.NotContains(t, s, `"null"`)
}
