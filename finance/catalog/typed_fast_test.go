package catalog

import (
	"context"
	"encoding/json"
	"strconv"
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

	// Escaped keys are not split: the generic path decodes them the same way.
	out, err = tool.Run(context.Background(), Call{Arguments: json.RawMessage(`{"na\u006de":"b","digits":[7,8]}`)})
	require.NoError(t, err)
	assert.Equal(t, fastInput{Digits: digits{7, 8}, Name: "b"}, out)

	cases := map[string]string{
		`{"name":"a"}`:                              "Missing required argument: digits",
		`{"digits":[1,2]}`:                          "Missing required argument: name",
		`{"name":"a","digits":[1]}`:                 "digits: minItems",
		`{"name":"a","digits":[1,2,3,4]}`:           "digits: maxItems",
		`{"name":"a","digits":[1,"x"]}`:             "digits[1]: must be a digit",
		`{"name":"c","digits":[1,2]}`:               "name: enum",
		`{"name":"a","digits":[1,2],"count":0}`:     "count: minimum",
		`{"name":"a","digits":[1,2],"zz":1}`:        "Unknown argument: zz",
		`{"name":"a","digits":[1,2]`:                "not valid JSON",
		`{"name":"a","digits":[1,2]} {}`:            "not valid JSON",
		`{"name":"a","digits":[1,2],"opt":[1,"y"]}`: "digits[1]: must be a digit",
	}
	for in, want := range cases {
		_, err := tool.Run(context.Background(), Call{Arguments: json.RawMessage(in)})
		require.Error(t, err, in)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), in)
		assert.Contains(t, toolkit.MessageOf(err), want, in)
	}
}

func TestSkipValue(t *testing.T) {
	for in, want := range map[string]int{
		`"a,b"`: 5, `{"a":[1,{"b":"}"}]}`: 19, `[1,2]`: 5, `12,`: 2, `true}`: 4, `"x\"y"`: 6,
	} {
		end, ok := skipValue([]byte(in), 0)
		require.True(t, ok, in)
		assert.Equal(t, want, end, in+" "+strconv.Itoa(end))
	}
	for _, in := range []string{`"abc`, `[1,2`, `{"a":1`} {
		_, ok := skipValue([]byte(in), 0)
		assert.False(t, ok, in)
	}
}
