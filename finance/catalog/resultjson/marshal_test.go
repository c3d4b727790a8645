package resultjson_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/catalog/resultjson"
	"github.com/stretchr/testify/require"
)

// TestMarshalMatchesEncodingJSON encodes random values of every result
// type of the catalog, and of types exercising the fallbacks, with Marshal
// and with json.Marshal: the bytes, and whether it fails, must agree.
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[edgeCases](), reflect.TypeFor[*edgeCases](), reflect.TypeFor[[]edgeCases](),
		reflect.TypeFor[recursive](), reflect.TypeFor[withEmbedded](), reflect.TypeFor[withPointerMarshaler](),
		reflect.TypeFor[*withPointerMarshaler](), reflect.TypeFor[withStringOption](), reflect.TypeFor[map[string]int](),
	}
	for _, tool := range catalog.Default().Tools() {
		for _, rt := range tool.Results {
			types = append(types, rt, reflect.PointerTo(rt))
		}
	}
	require.Greater(t, len(types), 40, "the catalog's result types are listed")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rt := range types {
		for i := range 60 {
			v := reflect.New(rt).Elem()
			fill(rng, v, 0, i%10 == 0)
			want, wantErr := json.Marshal(v.Interface())
			got, err := resultjson.Marshal(v.Interface())
			if wantErr != nil {
				require.EqualError(t, err, wantErr.Error(), "%s", rt)
				continue
			}
			require.NoError(t, err, "%s", rt)
			require.Equal(t, string(want), string(got), "%s", rt)
		}
	}
}

// TestMarshalNil: a nil interface and typed nil pointers are null.
func TestMarshalNil(t *testing.T) {
	for _, v := range []any{nil, (*edgeCases)(nil), []int(nil)} {
		got, err := resultjson.Marshal(v)
		require.NoError(t, err)
		require.Equal(t, "null", string(got))
	}
}

// TestMarshalNonFinite: a NaN statistic fails as encoding/json fails,
// wrapping toolkit.ErrNonFinite.
func TestMarshalNonFinite(t *testing.T) {
	_, err := resultjson.Marshal(edgeCases{Float: toolkit.Float(math.NaN())})
	require.ErrorIs(t, err, toolkit.ErrNonFinite)
	_, err = resultjson.Marshal(struct{ X float64 }{math.Inf(1)})
	_, wantErr := json.Marshal(struct{ X float64 }{math.Inf(1)})
	require.EqualError(t, err, wantErr.Error())
}

// edgeCases holds the kinds and options results use, and a few they do
// not yet.
type edgeCases struct {
	Float     toolkit.Float             `json:"float"`
	FloatPtr  *toolkit.Float            `json:"float_ptr"`
	Floats    toolkit.Floats            `json:"floats"`
	Amount    toolkit.Amount            `json:"amount"`
	AmountPtr *toolkit.Amount           `json:"amount_ptr,omitempty"`
	Amounts   []toolkit.Amount          `json:"amounts"`
	Plain     float64                   `json:"plain"`
	Small     float32                   `json:"small,omitempty"`
	Int       int                       `json:"int"`
	Int8      int8                      `json:"int8,omitempty"`
	Uint      uint64                    `json:"uint"`
	Bool      bool                      `json:"bool,omitempty"`
	Text      string                    `json:"text"`
	Named     named                     `json:"named"`
	Texts     []string                  `json:"texts,omitempty"`
	Array     [3]int                    `json:"array"`
	Bytes     []byte                    `json:"bytes"`
	Map       map[string]toolkit.Float  `json:"map"`
	Any       any                       `json:"any"`
	Time      time.Time                 `json:"time"`
	Nested    *edgeCases                `json:"nested,omitempty"`
	Items     []struct{ A, B int }      `json:"items"`
	Raw       json.RawMessage           `json:"raw,omitempty"`
	Untagged  int                       // encoded under its Go name
	Skipped   int                       `json:"-"`
	Keyed     map[named]*toolkit.Amount `json:"keyed,omitempty"`
	hidden    int                       // never encoded
}

var _ = edgeCases{hidden: 1} // hidden is set by fill through reflection only

type named string

type recursive struct {
	Value    int          `json:"value"`
	Children []*recursive `json:"children,omitempty"`
}

type withEmbedded struct {
	recursive
	Extra string `json:"extra"`
}

type pointerMarshaler struct{ N int }

func (p *pointerMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

type withPointerMarshaler struct {
	P  pointerMarshaler  `json:"p"`
	PP *pointerMarshaler `json:"pp"`
}

type withStringOption struct {
	N int `json:"n,string"`
}

// fill sets v to a random value; pointers, slices and maps are sometimes
// nil or empty, strings sometimes need escapes, floats are sometimes
// extreme (sparse: NaN too).
func fill(rng *rand.Rand, v reflect.Value, depth int, sparse bool) {
	if !v.CanSet() {
		return
	}
	switch v.Type() {
	case reflect.TypeFor[toolkit.Amount]():
		a, err := toolkit.ParseAmount(randomDecimal(rng))
		if err == nil {
			v.Set(reflect.ValueOf(a))
		}
		return
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).UTC()))
		return
	case reflect.TypeFor[json.RawMessage]():
		if rng.IntN(2) == 0 {
			v.SetBytes([]byte(`{"a": [1, 2]}`))
		}
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int: // counts and indexes (a Series' First) are never negative
		v.SetInt(rng.Int64N(100))
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int64N(200) - 100)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rng.Uint64N(200))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(randomFloat(rng, sparse))
	case reflect.String:
		v.SetString(randomString(rng))
	case reflect.Pointer:
		if depth < 3 && rng.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fill(rng, p.Elem(), depth+1, sparse)
			v.Set(p)
		}
	case reflect.Slice:
		if depth < 3 && rng.IntN(4) > 0 {
			n := rng.IntN(4)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(rng, s.Index(i), depth+1, sparse)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(rng, v.Index(i), depth+1, sparse)
		}
	case reflect.Map:
		if depth < 3 && rng.IntN(3) > 0 {
			m := reflect.MakeMap(v.Type())
			for range rng.IntN(3) {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(rng, k, depth+1, sparse)
				fill(rng, e, depth+1, sparse)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		switch rng.IntN(3) {
		case 0:
			v.Set(reflect.ValueOf(randomString(rng)))
		case 1:
			v.Set(reflect.ValueOf(toolkit.Float(randomFloat(rng, false))))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(rng, v.Field(i), depth+1, sparse)
		}
	}
}

func randomFloat(rng *rand.Rand, sparse bool) float64 {
	switch rng.IntN(8) {
	case 0:
		return 0
	case 1:
		return (rng.Float64() - 0.5) * 1e-9
	case 2:
		return (rng.Float64() - 0.5) * 1e25
	case 3:
		if sparse {
			return math.NaN()
		}
	case 4:
		return float64(rng.IntN(100))
	}
	return (rng.Float64() - 0.5) * 1000
}

func randomDecimal(rng *rand.Rand) string {
	return []string{"0", "1.5", "-0.003", "100000", "185.50", "0.000001", "123456789.123456789"}[rng.IntN(7)]
}

func randomString(rng *rand.Rand) string {
	return []string{"", "long", "R = 0 is a breakeven", "a<b", "b>a", "a&b", "quote\"", "back\\slash", "line\nfeed",
		"tab\t", "ctl\x01", "ünïcödé", "\u2028sep", "bad\xffutf8", "del\x7f"}[rng.IntN(15)]
}
