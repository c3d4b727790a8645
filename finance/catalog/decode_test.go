package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/jsonscan"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// digits is a test PrefixDecoder: an array of one-digit JSON numbers.
type digits []int

func (d *digits) DecodeJSONPrefix(b []byte) (int, error) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return 0, toolkit.Errorf(toolkit.Invalid, "digits: must be an array")
	}
	out := digits{}
	for i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] != ']'; i = jsonscan.SkipSpace(b, i) {
		if b[i] < '0' || b[i] > '9' {
			return 0, toolkit.Errorf(toolkit.Invalid, "digits[%d]: must be a digit", len(out))
		}
		out = append(out, int(b[i]-'0'))
		if i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] == ',' {
			i++
		}
	}
	if i >= len(b) {
		return 0, toolkit.Errorf(toolkit.Invalid, "digits: unterminated array")
	}
	*d = out
	return i + 1, nil
}

func (d *digits) UnmarshalJSON(b []byte) error { _, err := d.DecodeJSONPrefix(b); return err }

type fastInput struct {
	Digits digits `json:"digits"`
	Name   string `json:"name"`
	Count  int    `json:"count,omitempty"`
	Opt    digits `json:"opt,omitempty"`
}

func fastTool() Tool {
	return NewTool(Spec{Name: "fast", Description: "test", Category: "test"},
		func(_ context.Context, _ Call, in fastInput) (any, error) { return in, nil },
		func(s *jsonschema.Schema) {
			two, three, lo := 2, 3, 1.0
			s.Properties["digits"].MinItems = &two
			s.Properties["digits"].MaxItems = &three
			s.Properties["name"].Enum = []any{"a", "b"}
			s.Properties["count"].Minimum = &lo
		})
}

func TestPrefixDecoderFastPath(t *testing.T) {
	tool := fastTool()
	out, err := tool.Run(context.Background(), Call{Arguments: json.RawMessage(` { "name" : "a", "digits":[1, 2,3] ,"count":2, "opt":[4,5]} `)})
	require.NoError(t, err)
	assert.Equal(t, fastInput{Digits: digits{1, 2, 3}, Name: "a", Count: 2, Opt: digits{4, 5}}, out)

	// Escaped keys decode like plain ones.
	out, err = tool.Run(context.Background(), Call{Arguments: json.RawMessage(`{"na\u006de":"b","digits":[7,8]}`)})
	require.NoError(t, err)
	assert.Equal(t, fastInput{Digits: digits{7, 8}, Name: "b"}, out)

	cases := map[string]struct {
		kind toolkit.Kind
		want string
	}{
		`{"name":"a"}`:                              {toolkit.Invalid, "Missing required argument: digits"},
		`{"digits":[1,2]}`:                          {toolkit.Invalid, "Missing required argument: name"},
		`{"name":"a","digits":[1]}`:                 {toolkit.Invalid, "digits: at least 2 items are required, got 1"},
		`{"name":"a","digits":[1,2,3,4]}`:           {toolkit.TooLarge, "digits: at most 3 items are accepted"},
		`{"name":"a","digits":[1,"x"]}`:             {toolkit.Invalid, "digits[1]: must be a digit"},
		`{"name":"c","digits":[1,2]}`:               {toolkit.Invalid, `name: must be one of "a", "b" (got "c")`},
		`{"name":"a","digits":[1,2],"count":0}`:     {toolkit.Invalid, "count: must be at least 1, got 0"},
		`{"name":"a","digits":[1,2],"zz":1}`:        {toolkit.Invalid, "Unknown argument: zz"},
		`{"name":"a","name":"b","digits":[1,2]}`:    {toolkit.Invalid, "name: appears twice"},
		`{"NAME":"a","digits":[1,2]}`:               {toolkit.Invalid, "Unknown argument: NAME"},
		`{"name":"a","digits":[1,2]`:                {toolkit.Invalid, "invalid JSON"},
		`{"name":"a","digits":[1,2]} {}`:            {toolkit.Invalid, "unexpected data after the JSON value"},
		`{"name":"a","digits":[1,2],"opt":[1,"y"]}`: {toolkit.Invalid, "digits[1]: must be a digit"},
	}
	for in, tc := range cases {
		_, err := tool.Run(context.Background(), Call{Arguments: json.RawMessage(in)})
		require.Error(t, err, in)
		assert.Equal(t, tc.kind, toolkit.KindOf(err), in)
		assert.Contains(t, toolkit.MessageOf(err), tc.want, in)
	}
}
