package market

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPatternVocabularyJSON: every word writes and reads its text; names
// are numbered in the byte order of their text; unknown texts are errors;
// an unset trend context is left out.
func TestPatternVocabularyJSON(t *testing.T) {
	assert.True(t, slices.IsSorted(patternNameTexts[:]), "name numbers follow the text order")
	assert.True(t, slices.IsSorted(patternTypeTexts[:]), "candlestick before chart")
	for n := PatternBearishEngulfing; n <= PatternThreeWhiteSoldiers; n++ {
		b, err := json.Marshal(n)
		require.NoError(t, err)
		assert.Equal(t, `"`+n.String()+`"`, string(b))
		var back PatternName
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, n, back)
	}
	p := Pattern{Index: 3, Name: PatternHammer, Type: PatternCandlestick, Direction: PatternBullish, TrendContext: TrendContextDown}
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, `{"index":3,"start_index":0,"name":"hammer","type":"candlestick","direction":"bullish","strength":0,"trend_context":"downtrend"}`, string(b))
	var back Pattern
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, p, back)
	chart := Pattern{Name: PatternGapUp, Type: PatternChart, Direction: PatternBullish, Level: 5}
	b, err = json.Marshal(chart)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "trend_context", "no context for a chart pattern")

	var d PatternDirection
	assert.Error(t, json.Unmarshal([]byte(`"sideways"`), &d))
	assert.Error(t, json.Unmarshal([]byte(`3`), &d))
	_, err = json.Marshal(PatternName(200))
	assert.Error(t, err)
	assert.Equal(t, "unknown(200)", PatternName(200).String())
}

// TestPatternHoldsNoPointer: a report's patterns are one pointer-free
// allocation the collector never scans.
func TestPatternHoldsNoPointer(t *testing.T) {
	var hasPointer func(reflect.Type) bool
	hasPointer = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan:
			return true
		case reflect.Struct:
			for i := range t.NumField() {
				if hasPointer(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	assert.False(t, hasPointer(reflect.TypeFor[Pattern]()))
}
