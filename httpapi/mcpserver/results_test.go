package mcpserver

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encodedLen counts what encoding/json writes, so the answer cap holds
// what the SDK sends.
func TestEncodedLenIsWhatEncodingJSONWrites(t *testing.T) {
	texts := []string{"", `{"a":"1.5","b":[1,2]}`, "tab\tline\nquote\"back\\slash", "\x00\x01\x1f\b\f\x7f",
		"<a href='x'>&amp;</a>", "é€😀", "\u2028\u2029", "\xff\xfe bad \xc3", "\u0085"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, len(want), encodedLen([]byte(s), true), "as text: %q", s)
	}
	for _, raw := range []string{`{"a":"1.5","b":[1,2,null,true]}`, `{"html":"<b>&</b>","sep":"` + "\u2028" + `","é":"😀"}`, `[]`, `"x"`} {
		want, err := json.Marshal(json.RawMessage(raw))
		require.NoError(t, err)
		assert.Equal(t, len(want), encodedLen([]byte(raw), false), "as structuredContent: %s", raw)
	}
}

func TestReadsStructured(t *testing.T) {
	for v, want := range map[string]bool{"2024-11-05": false, "2025-03-26": false, "2025-06-18": true, "2025-11-25": true,
		"2026-07-28": true, "2099-01-01": true, "1999-01-01": true, "": true} {
		assert.Equal(t, want, readsStructured(v), v)
	}
}

// An answer carries the result twice only while both copies fit the cap;
// past it, once: in structuredContent with a pointer as text for a client
// that reads it, as text for an older one.
func TestCarriageCarriesTheResultTwiceOnlyWithinTheCap(t *testing.T) {
	result := []byte(`{"values":["` + strings.Repeat(`1.5","`, 99) + `1.5"]}`)
	raw, quoted := encodedLen(result, false), encodedLen(result, true)
	pointer := encodedLen([]byte(pointerText(len(result), raw+quoted-1)), true)
	cases := []struct {
		name             string
		c                carriage
		text, structured bool
		size             int
		overCap          bool
	}{
		{"both fit", carriage{structured: true, max: raw + quoted}, true, true, raw + quoted, false},
		{"both fit, older client", carriage{structured: false, max: raw + quoted}, true, true, raw + quoted, false},
		{"over, structuredContent", carriage{structured: true, max: raw + quoted - 1}, false, true, raw + pointer, false},
		{"over, text only", carriage{structured: false, max: raw + quoted - 1}, true, false, quoted, false},
		{"over even once", carriage{structured: false, max: quoted - 1}, true, false, quoted, true},
	}
	for _, tc := range cases {
		text, structured, size := tc.c.layout(result)
		assert.Equal(t, tc.text, text, tc.name)
		assert.Equal(t, tc.structured, structured, tc.name)
		assert.Equal(t, tc.size, size, tc.name)
		assert.Equal(t, tc.overCap, size > tc.c.max, tc.name)
		assert.Equal(t, size, tc.c.size(result), tc.name)
	}
	assert.Greater(t, quoted, raw, "the text escapes every quote")
	assert.True(t, json.Valid([]byte(pointerText(len(result), 100))), "the pointer is a JSON text, as a result's is")
}
