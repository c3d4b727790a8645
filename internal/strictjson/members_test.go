package strictjson

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/require"
)

// TestDecodeFloatsMatchesUnmarshalJSON: the one-pass Floats decoder gives
// what toolkit.Floats.UnmarshalJSON gives, values, emptiness and errors,
// on well-formed arrays and on odd ones.
func TestDecodeFloatsMatchesUnmarshalJSON(t *testing.T) {
	items := []string{`"1.5"`, `-1`, `"2.3e-5"`, `0`, `"-0.5"`, `1e3`, `" 1"`, `"1,5"`, `"\u0031"`, `"abc"`,
		`"1e400"`, `"999999999999999999"`, `12.5E+2`, `""`, `null`}
	spaces := []string{"", " ", "\n\t", "\r "}
	docs := []string{`[]`, ` [ ] `, `[1,]`, `[,1]`, `["1" "2"]`, `{}`, `[1]x`}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var sb strings.Builder
		sb.WriteString(spaces[rng.IntN(len(spaces))] + "[")
		for k := range rng.IntN(5) {
			if k > 0 {
				sb.WriteString(spaces[rng.IntN(len(spaces))] + ",")
			}
			sb.WriteString(spaces[rng.IntN(len(spaces))] + items[rng.IntN(len(items))] + spaces[rng.IntN(len(spaces))])
		}
		sb.WriteString("]" + spaces[rng.IntN(len(spaces))])
		docs = append(docs, sb.String())
	}
	fast := 0
	for _, doc := range docs {
		var want toolkit.Floats
		wantErr := want.UnmarshalJSON([]byte(doc))
		var got toolkit.Floats
		err := decodeFloats(reflect.ValueOf(&got).Elem(), []byte(doc))
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), doc)
			continue
		}
		require.NoError(t, err, doc)
		require.Equal(t, want, got, doc)
		require.Equal(t, want == nil, got == nil, doc)
		if _, ok := parseFloats([]byte(doc)); ok {
			fast++
		}
	}
	require.Greater(t, fast, 100, "most valid arrays take the one-pass path")
}
