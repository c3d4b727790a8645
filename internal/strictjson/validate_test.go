package strictjson

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSchema covers every supported keyword.
const testSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["equity", "direction"],
  "properties": {
    "equity":    {"$ref": "#/$defs/decimal", "description": "account equity"},
    "risk":      {"type": "string", "pattern": ` + "\"^-?(0|[1-9][0-9]*)(\\\\.[0-9]+)?([eE][+-]?[0-9]+)?$\"" + `, "exclusiveMinimum": 0, "maximum": 1},
    "direction": {"type": "string", "enum": ["long", "short"]},
    "name":      {"type": "string", "minLength": 1, "maxLength": 5},
    "count":     {"type": "integer", "minimum": 1, "maximum": 10},
    "flag":      {"type": "boolean"},
    "values":    {"type": "array", "items": {"$ref": "#/$defs/decimal"}, "minItems": 2, "maxItems": 4},
    "meta":      {"type": "object", "maxProperties": 3},
    "tags":      {"type": "array", "items": {"type": "string", "maxLength": 3}},
    "bars":      {"type": "array", "items": {"type": "object"}},
    "pick":      {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}
  },
  "dependentRequired": {"name": ["count"]},
  "$defs": {"decimal": {"type": "string", "pattern": ` + "\"^-?(0|[1-9][0-9]*)(\\\\.[0-9]+)?([eE][+-]?[0-9]+)?$\"" + `}}
}`

func compileTest(t testing.TB, opts Options) *Validator {
	t.Helper()
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(testSchema), &s))
	require.Equal(t, toolkit.DecimalPattern, s.Defs["decimal"].Pattern, "the test schema uses the toolkit's grammar")
	v, err := Compile(&s, opts)
	require.NoError(t, err)
	return v
}

func TestValidateAcceptsValidDocuments(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument"})
	for _, doc := range []string{
		`{"equity":"100000","direction":"long"}`,
		`{"equity":100000.5,"direction":"short","risk":"0.02"}`,
		`{"equity":"1.5e-05","direction":"long","risk":1e-2}`,
		` {"equity": "-0", "direction": "long", "name": "héllo", "count": 10} `,
		`{"equity":"1","direction":"long","values":["1",2,"3e2"],"flag":true,"meta":{"a":1,"b":[null]}}`,
		`{"equity":"1","direction":"long","tags":["a\tb","\u00e9\u00e9"],"pick":{"a":1}}`,
	} {
		assert.NoError(t, v.Validate([]byte(doc), nil, nil), doc)
	}
}

func TestValidateRejectsWithNamedFieldAndRule(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument"})
	cases := []struct {
		doc  string
		kind toolkit.Kind
		want string
	}{
		{`{"direction":"long"}`, toolkit.Invalid, "Missing required argument: equity"},
		{`{"equity":"1","direction":"long","AMOUNT":"1"}`, toolkit.Invalid, "Unknown argument: AMOUNT"},
		{`{"Equity":"1","direction":"long"}`, toolkit.Invalid, "Unknown argument: Equity"},
		{`{"equity":"1","equity":"2","direction":"long"}`, toolkit.Invalid, "equity: appears twice"},
		{`{"equity":"abc","direction":"long"}`, toolkit.Invalid, `equity: "abc" is not a number like "1.5"`},
		{`{"equity":"1e18","direction":"long"}`, toolkit.Invalid, "equity: 1e18 is out of range"},
		{`{"equity":true,"direction":"long"}`, toolkit.Invalid, "equity: expected a number (a decimal string"},
		{`{"equity":"1","direction":"up"}`, toolkit.Invalid, `direction: must be one of "long", "short" (got "up")`},
		{`{"equity":"1","direction":"long","risk":"0"}`, toolkit.Invalid, `risk: must be greater than 0, got "0"`},
		{`{"equity":"1","direction":"long","risk":2}`, toolkit.Invalid, "risk: must be at most 1, got 2"},
		{`{"equity":"1","direction":"long","name":""}`, toolkit.Invalid, "name: must not be empty"},
		{`{"equity":"1","direction":"long","name":"éééééé","count":1}`, toolkit.Invalid, "name: must be at most 5 characters long, got 6"},
		{`{"equity":"1","direction":"long","name":"x"}`, toolkit.Invalid, "Missing required argument: count"},
		{`{"equity":"1","direction":"long","count":1.5}`, toolkit.Invalid, "count: must be a whole number, got 1.5"},
		{`{"equity":"1","direction":"long","count":1e1}`, toolkit.Invalid, "count: must be a whole number"},
		{`{"equity":"1","direction":"long","count":11}`, toolkit.Invalid, "count: must be at most 10"},
		{`{"equity":"1","direction":"long","flag":"true"}`, toolkit.Invalid, "flag: expected a boolean, got a string"},
		{`{"equity":"1","direction":"long","values":["1"]}`, toolkit.Invalid, "values: at least 2 items are required, got 1"},
		{`{"equity":"1","direction":"long","values":["1","2","3","4","5"]}`, toolkit.TooLarge, "values: at most 4 items are accepted"},
		{`{"equity":"1","direction":"long","values":["1","x"]}`, toolkit.Invalid, `values[1]: "x" is not a number`},
		{`{"equity":"1","direction":"long","meta":{"a":1,"b":2,"c":3,"d":4}}`, toolkit.Invalid, "meta: at most 3 members"},
		{`{"equity":"1","direction":"long","tags":["abcd"]}`, toolkit.Invalid, "tags[0]: must be at most 3 characters"},
		{`{"equity":"1","direction":"long","tags":["a\u0000"]}`, toolkit.Invalid, `tags[0]: contains the control character '\x00'`},
		{`{"equity":"1","direction":"long","tags":["\u007f"]}`, toolkit.Invalid, "tags[0]: contains the control character"},
		{`{"equity":"1","direction":"long","tags":["` + "\u0085" + `"]}`, toolkit.Invalid, "tags[0]: contains the control character"},
		{`{"equity":"1","direction":"long","tags":["\b"]}`, toolkit.Invalid, "tags[0]: contains the control character"},
		{`{"equity":"1","direction":"long","tags":["\ud800"]}`, toolkit.Invalid, "tags[0]: holds an unpaired surrogate"},
		{`{"equity":"1","direction":"long","tags":["` + "\xff" + `"]}`, toolkit.Invalid, "tags[0]: is not valid UTF-8"},
		{`{"equity":"1","direction":"long","pick":{}}`, toolkit.Invalid, "Missing required argument: send pick.a, or pick.b"},
		{`{"equity":"1","direction":"long","pick":{"a":1,"b":2}}`, toolkit.Invalid, "pick: matches more than one"},
		{`{"equity":"1","direction":"long"} x`, toolkit.Invalid, "unexpected data after the JSON value"},
		{`{"equity":"1","direction":"long",}`, toolkit.Invalid, "invalid JSON"},
		{`{"equity":"1` + "\n" + `","direction":"long"}`, toolkit.Invalid, "invalid JSON"},
		{`{"equity":01,"direction":"long"}`, toolkit.Invalid, "invalid JSON"},
		{``, toolkit.Invalid, "the document is empty"},
		{`[]`, toolkit.Invalid, "expected an object, got an array"},
	}
	for _, tc := range cases {
		err := v.Validate([]byte(tc.doc), nil, nil)
		require.Error(t, err, tc.doc)
		assert.Equal(t, tc.kind, toolkit.KindOf(err), tc.doc)
		assert.Contains(t, toolkit.MessageOf(err), tc.want, tc.doc)
	}
}

// Regression (robustness finding 2): limits bind while scanning, so a
// huge array is refused at its first item past the limit.
func TestLimitsBindWhileScanning(t *testing.T) {
	v := compileTest(t, Options{Limits: Limits{MaxDepth: 4, MaxValues: 1000, MaxStringBytes: 16}})
	huge := `{"equity":"1","direction":"long","values":["1","2","3","4","5"` + strings.Repeat(`,"1"`, 1_000_000) + `]}`
	err := v.Validate([]byte(huge), nil, nil)
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "values: at most 4 items")

	for doc, want := range map[string]string{
		`{"equity":"1","direction":"long","meta":{"a":[[[1]]]}}`:                           "nested deeper than 4",
		`{"equity":"1","direction":"long","bars":[` + strings.Repeat(`{},`, 2000) + `{}]}`: "more than 1000 values",
		`{"equity":"1","direction":"long","meta":{"a":"` + strings.Repeat("x", 17) + `"}}`: "meta.a: a string is longer than 16 bytes",
	} {
		err := v.Validate([]byte(doc), nil, nil)
		assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err), doc[:40])
		assert.Contains(t, toolkit.MessageOf(err), want)
	}
}

// With Permissive, a string holds whatever JSON allows, a number any
// magnitude and an object below the root a key twice: their rules are
// another check's; the root's keys stay unique, and the grammar, the
// schema's bounds and the limits still bind.
func TestPermissiveLeavesValueRulesToAnotherCheck(t *testing.T) {
	v := compileTest(t, Options{Permissive: true, Limits: Limits{MaxStringBytes: 16}})
	for _, tag := range []string{`a\u0000`, `\u007f`, "\u0085", `\b\f`, `\ud800`, `\udc00x`, `\ud800\u0041`, "\xff", `\ud83d\ude00`} {
		doc := `{"equity":"1","direction":"long","tags":["` + tag + `"]}`
		assert.NoError(t, v.Validate([]byte(doc), nil, nil), doc)
	}
	for _, meta := range []string{`1e300`, `-999999999999999999999`, `123456789012345678`} {
		doc := `{"equity":"1","direction":"long","meta":{"n":` + meta + `}}`
		assert.NoError(t, v.Validate([]byte(doc), nil, nil), doc)
	}
	assert.NoError(t, v.Validate([]byte(`{"equity":"1","direction":"long","meta":{"n":1,"n":2,"m":[{"k":1,"k":1}]}}`), nil, nil))
	for doc, want := range map[string]string{
		`{"equity":"1","direction":"long","tags":["` + "a\x01" + `"]}`:                     "control character in a string (escape it)",
		`{"equity":"1","direction":"long","tags":["\ud800\u00"]}`:                          "invalid \\u escape",
		`{"equity":"1","direction":"long","meta":{"a":"` + strings.Repeat("x", 17) + `"}}`: "meta.a: a string is longer than 16 bytes",
		`{"equity":"1","direction":"long","count":1e300}`:                                  "count: must be a whole number",
		`{"equity":"1","direction":"long","count":100}`:                                    "count: must be at most 10",
		`{"equity":"1","direction":"long","meta":{"n":01}}`:                                "invalid",
		`{"equity":"1","direction":"long","equity":"2"}`:                                   "equity: appears twice",
	} {
		err := v.Validate([]byte(doc), nil, nil)
		require.Error(t, err, doc)
		assert.Contains(t, toolkit.MessageOf(err), want)
	}
}

// PermissiveMembers scans the listed top-level members as Permissive
// does and the rest of the document under every rule.
func TestPermissiveMembersScopeTheRules(t *testing.T) {
	v := compileTest(t, Options{PermissiveMembers: []string{"meta"}, Limits: Limits{MaxStringBytes: 16}})
	for _, doc := range []string{
		`{"equity":"1","direction":"long","meta":{"n":1,"n":2,"m":[{"k":1,"k":1}]}}`,
		`{"equity":"1","direction":"long","meta":{"s":"a\u0000","big":1e300}}`,
		`{"equity":"1","direction":"long","meta":{"n":1},"tags":["a"]}`,
	} {
		assert.NoError(t, v.Validate([]byte(doc), nil, nil), doc)
	}
	for doc, want := range map[string]string{
		`{"equity":"1","direction":"long","meta":{},"meta":{}}`:                            "meta: appears twice",
		`{"equity":"1","direction":"long","meta":{"n":1},"tags":["a\u0000"]}`:              "tags[0]: contains the control character",
		`{"equity":"1","direction":"long","meta":{"a":"` + strings.Repeat("x", 17) + `"}}`: "meta.a: a string is longer than 16 bytes",
		`{"equity":"1","direction":"long","meta":{"n":1,"n":2},"count":1e300}`:             "count: must be a whole number",
		`{"equity":"1","direction":"long","meta":{"n":1,"n":2},"pick":{"a":1,"a":1}}`:      "pick.a: appears twice",
	} {
		err := v.Validate([]byte(doc), nil, nil)
		require.Error(t, err, doc)
		assert.Contains(t, toolkit.MessageOf(err), want, doc)
	}
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(testSchema), &s))
	_, err := Compile(&s, Options{PermissiveMembers: []string{"nope"}})
	assert.ErrorContains(t, err, `permissive property "nope" is not in the schema`)
}

func TestDelegatedAndMembers(t *testing.T) {
	v := compileTest(t, Options{Delegated: []string{"bars"}})
	doc := []byte(`{"equity":"1","bars":[{"x":1}],"direction":"long"}`)
	var delegated string
	members := map[string]string{}
	err := v.Validate(doc, func(name string, b []byte) (int, error) {
		delegated = name
		return len(`[{"x":1}]`), nil
	}, func(name string, value []byte) error {
		members[name] = string(value)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "bars", delegated)
	assert.Equal(t, map[string]string{"equity": `"1"`, "direction": `"long"`}, members)

	err = v.Validate(doc, func(string, []byte) (int, error) {
		return 0, toolkit.Errorf(toolkit.Invalid, "bars[0].close: bad")
	}, nil)
	assert.EqualError(t, err, "invalid: bars[0].close: bad", "the decoder's error is returned as is")
}

func TestCompileRefusesUnsupportedKeywords(t *testing.T) {
	for _, doc := range []string{
		`{"type":"array","uniqueItems":true}`, `{"type":"number","multipleOf":2}`,
		`{"if":{"type":"string"},"then":{"minLength":1}}`, `{"patternProperties":{"^a":{}}}`,
		`{"$ref":"#/$defs/missing"}`, `{"not":{"type":"string"}}`, `{"type":"strin"}`,
	} {
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal([]byte(doc), &s), doc)
		_, err := Compile(&s, Options{})
		assert.Error(t, err, doc)
	}
}

func TestCompileGeneratedSchemas(t *testing.T) {
	type in struct {
		Name  string   `json:"name"`
		Tags  []string `json:"tags,omitempty"`
		Count *int     `json:"count,omitempty"`
	}
	s, err := jsonschema.For[in](nil)
	require.NoError(t, err)
	v, err := Compile(s, Options{})
	require.NoError(t, err)
	assert.NoError(t, v.Validate([]byte(`{"name":"x","tags":["a"]}`), nil, nil))
	assert.Error(t, v.Validate([]byte(`{"name":"x","other":1}`), nil, nil), "structs are closed")
}

// FuzzValidate: any input either fails with a client error (never a panic,
// never Internal) or is valid JSON that encoding/json decodes into the
// typed input without error.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"equity":"1","direction":"long"}`, `{"equity":1e5,"direction":"short","values":[1,"2"]}`,
		`{"equity":"1","direction":"long","tags":["\ud83d\ude00"]}`, `{`, `"x"`, `{"a":`, `[1,2`, `{"equity":"\u0030"}`,
		`{"equity":"x","count":1.5,"meta":{"a":1,"a":2},"tags":[1,"abcd"]}`, `{"equity":"1","equity":"1","cnt":1}`} {
		f.Add([]byte(s))
	}
	v := compileTest(f, Options{})
	type input struct {
		Equity    toolkit.Amount   `json:"equity"`
		Risk      *toolkit.Amount  `json:"risk"`
		Direction string           `json:"direction"`
		Name      string           `json:"name"`
		Count     int              `json:"count"`
		Flag      bool             `json:"flag"`
		Values    []toolkit.Amount `json:"values"`
		Meta      map[string]any   `json:"meta"`
		Tags      []string         `json:"tags"`
		Bars      []map[string]any `json:"bars"`
		Pick      map[string]any   `json:"pick"`
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		err := v.Validate(doc, nil, nil)
		if err != nil {
			if k := toolkit.KindOf(err); k != toolkit.Invalid && k != toolkit.TooLarge {
				t.Fatalf("%q: kind %v: %v", doc, k, err)
			}
			te := err.(*toolkit.Error)
			if len(te.Fields) == 0 || len(te.Fields) > toolkit.MaxFieldErrors || te.Fields[0].Message != te.Msg && te.Fields[0].Rule != "required" {
				t.Fatalf("%q: field errors %+v for %q", doc, te.Fields, te.Msg)
			}
			for _, f := range te.Fields {
				if f.Rule == "" || f.Message == "" {
					t.Fatalf("%q: field error without a rule or message: %+v", doc, f)
				}
			}
			return
		}
		if !json.Valid(doc) {
			t.Fatalf("accepted invalid JSON %q", doc)
		}
		var in input
		if err := json.Unmarshal(doc, &in); err != nil {
			t.Fatalf("accepted %q but encoding/json fails: %v", doc, err)
		}
	})
}

func BenchmarkValidateSizing(b *testing.B) {
	v := compileTest(b, Options{})
	doc := []byte(`{"equity":"100000","direction":"long","risk":"0.02","name":"AAPL","count":3}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Validate(doc, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInRangeUnparsed: every number the scan accepts without parsing
// (inRangeUnparsed) is one inputNumber accepts, including the largest
// 17-character numbers.
func TestInRangeUnparsed(t *testing.T) {
	texts := []string{"99999999999999999", "-9999999999999999", "0.0000000000000001", "-0.000000000000001", "0"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := []byte{}
		if rng.IntN(2) == 0 {
			b = append(b, '-')
		}
		b = append(b, byte('1'+rng.IntN(9)))
		for range rng.IntN(18) {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if dot := rng.IntN(len(b) + 1); dot > 1 && dot < len(b) {
			b = append(b[:dot], append([]byte{'.'}, b[dot:]...)...)
		}
		texts = append(texts, string(b))
	}
	unparsed := 0
	for _, text := range texts {
		if !inRangeUnparsed([]byte(text)) {
			continue
		}
		unparsed++
		_, err := inputNumber([]byte(text))
		require.NoError(t, err, text)
	}
	require.Greater(t, unparsed, 10000)
	require.False(t, inRangeUnparsed([]byte("999999999999999999")), "18 characters are parsed")
	require.False(t, inRangeUnparsed([]byte("1e5")), "exponents are parsed")
}
