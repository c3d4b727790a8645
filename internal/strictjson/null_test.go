package strictjson

import (
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNullIsAbsent: with Options.NullIsAbsent an optional member sent as
// null (what OpenAI strict function calling makes a model send for an
// unused argument) is read as absent, at the root and in nested objects;
// it never reaches the member decoder. A required member sent as null is
// still refused, and without the option null stays a type error.
func TestNullIsAbsent(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument", NullIsAbsent: true})
	members := map[string]string{}
	record := func(name string, value []byte) error {
		members[name] = string(value)
		return nil
	}
	doc := `{"equity":"1","direction":"long","risk":null,"name":null,"count":null,"values":null,"meta":{"a":null}}`
	require.NoError(t, v.Validate([]byte(doc), nil, record))
	assert.Equal(t, map[string]string{"equity": `"1"`, "direction": `"long"`, "meta": `{"a":null}`}, members,
		"the null members are absent; meta admits any value, so its null member is a value")

	for _, tc := range []struct{ doc, want string }{
		{`{"equity":null,"direction":"long"}`, "equity: expected a number"},
		{`{"equity":"1","direction":null}`, "direction: expected a string, got null"},
		{`{"equity":"1","direction":"long","other":null}`, "Unknown argument: other"},
		{`{"equity":"1","direction":"long","risk":null,"risk":"0.5"}`, "risk: appears twice"},
		{`{"equity":"1","direction":"long","risk":nul}`, "invalid JSON"},
	} {
		err := v.Validate([]byte(tc.doc), nil, nil)
		require.Error(t, err, tc.doc)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), tc.doc)
		assert.Contains(t, toolkit.MessageOf(err), tc.want, tc.doc)
	}

	var nested jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"items":{"type":"array","items":{
		"type":"object","additionalProperties":false,"required":["price"],
		"properties":{"price":{"type":"number"},"rate":{"type":"number"}}}}}}`), &nested))
	nv, err := Compile(&nested, Options{NullIsAbsent: true})
	require.NoError(t, err)
	assert.NoError(t, nv.Validate([]byte(`{"items":[{"price":1,"rate":null}]}`), nil, nil), "nested optional null")
	assert.ErrorContains(t, nv.Validate([]byte(`{"items":[{"price":null}]}`), nil, nil), "items[0].price: expected a number")

	strict := compileTest(t, Options{Noun: "argument"})
	err = strict.Validate([]byte(`{"equity":"1","direction":"long","risk":null}`), nil, nil)
	assert.Contains(t, toolkit.MessageOf(err), "risk: expected a number", "without the option null is a type error")
}
