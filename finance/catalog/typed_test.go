package catalog

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/market"
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
		`{"r_multiples":["1.5",-1, "0.25", 1e-05],"equity":"100000.50","direction":"long","risk_percent":2e-2}`)})
	require.NoError(t, err)
	m := out.(map[string]any)
	assert.Equal(t, 4, m["n"])
	assert.Equal(t, "100000.50", m["equity"].(toolkit.Amount).String())
}

func TestNewToolErrorsNameTheFieldAndRule(t *testing.T) {
	tool := sampleTool()
	cases := map[string]string{
		`{"r_multiples":["1"],"equity":"1","direction":"long"}`:            "r_multiples: at least 2 items are required, got 1",
		`{"r_multiples":["1","x"],"equity":"1","direction":"long"}`:        `r_multiples[1]: "x" is not a number like "1.5" or "1.5e-05"`,
		`{"r_multiples":["1","1e18"],"equity":"1","direction":"long"}`:     `r_multiples[1]: 1e18 is out of range`,
		`{"r_multiples":["1","2"],"equity":"1","direction":"up"}`:          `direction: must be one of "long", "short" (got "up")`,
		`{"r_multiples":["1","2"],"equity":"1"}`:                           "Missing required argument: direction",
		`{"r_multiples":["1","2"],"equity":"1","direction":"long","zz":1}`: "Unknown argument: zz",
		`{"r_multiples":["1","2"],"equity":"NaN","direction":"long"}`:      `equity: "NaN" is not a number`,
		`{"r_multiples":["1","2"],"equity":"1e-17","direction":"long"}`:    `equity: "1e-17" has more than 16 decimal places`,
		`[1,2]`: "arguments must be a JSON object",
		`{"r_multiples":["1","2"],"equity":"1","direction":"long","symbol":"aapl"}`: `symbol: "aapl" does not match the pattern ^[A-Z]+$`,
		`{"r_multiples":["1","2"],"equity":"1","direction":"long"} {}`:              "unexpected data after the JSON value",
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

func TestEveryBuiltInToolDeclaresItsResults(t *testing.T) {
	assert.Empty(t, sampleTool().Results, "a tool returning any declares no result type")
	for _, tool := range Default().Tools() {
		require.NotEmpty(t, tool.Results, tool.Name)
		for _, r := range tool.Results {
			assert.NotEqual(t, reflect.Interface, r.Kind(), tool.Name)
		}
	}
	regime, ok := Default().Lookup("detect_regime")
	require.True(t, ok)
	assert.Equal(t, []reflect.Type{reflect.TypeFor[*market.RegimeResult](), reflect.TypeFor[*market.InsufficientBars]()}, regime.Results)
	sizing, ok := Default().Lookup("calculate_position_size")
	require.True(t, ok)
	assert.Equal(t, []reflect.Type{reflect.TypeFor[finance.Sizing]()}, sizing.Results)
}
