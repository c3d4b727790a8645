package market

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBarsDecodeMatchesGenericPath(t *testing.T) {
	bars := synthBars(4, 300, 100, 0, 0.02)
	raw := barsJSON(bars)
	var fast Bars
	require.NoError(t, json.Unmarshal(raw, &fast))
	var slow []Bar
	require.NoError(t, json.Unmarshal(raw, &slow))
	assert.Equal(t, []Bar(fast), slow)
}

func TestBarNumbersAreCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := math.Exp(r.NormFloat64()*10) * float64(1-2*r.IntN(2))
		for _, prec := range []int{0, 2, 6, 9, 15, 17, 25} {
			s := strconv.FormatFloat(v, 'f', prec, 64)
			want, _ := strconv.ParseFloat(s, 64)
			if math.Abs(want) >= 1e18 {
				continue // outside the input range
			}
			var b Bars
			require.NoError(t, b.UnmarshalJSON([]byte(`[{"open":"`+s+`","high":`+s+`,"low":"1","close":"1","volume":"1"}]`)), s)
			require.Equal(t, want, float64(b[0].Open), s)
			require.Equal(t, want, float64(b[0].High), s)
		}
	}
}

func TestBarsDecodeRules(t *testing.T) {
	good := `{"open":"1.5","high":2,"low":"1","close":"1.25","volume":"100"}`
	var b Bars
	require.NoError(t, b.UnmarshalJSON([]byte(" [ "+good+" , \n"+good+"\t] ")))
	assert.Len(t, b, 2)
	assert.Equal(t, Bar{Open: 1.5, High: 2, Low: 1, Close: 1.25, Volume: 100}, b[0])
	require.NoError(t, b.UnmarshalJSON([]byte(`[]`)))
	assert.Empty(t, b)

	cases := map[string]string{
		`{}`:               "bars: expected an array",
		`[` + good:         "expected ',' or ']'",
		`[1]`:              "bars[0]",
		`[` + good + `] x`: "unexpected data",
		`[{"open":"1","high":"1","low":"1","close":"1"}]`:                           "Missing required argument: bars[0].volume",
		`[{"open":"1","high":"1","low":"1","close":"1","volume":"1","x":"1"}]`:      `Unknown argument: bars[0].x`,
		`[{"open":"1e18","high":"1","low":"1","close":"1","volume":"1"}]`:           `bars[0].open: 1e18 is out of range`,
		`[{"open":1e3e,"high":"1","low":"1","close":"1","volume":"1"}]`:             `bars[0].open: 1e3e is not a number like`,
		`[{"open":"1e","high":"1","low":"1","close":"1","volume":"1"}]`:             `bars[0].open: "1e" is not a number like`,
		`[{"open":"NaN","high":"1","low":"1","close":"1","volume":"1"}]`:            `"NaN" is not a number like`,
		`[{"open":"","high":"1","low":"1","close":"1","volume":"1"}]`:               `"" is not a number like`,
		`[{"open":"+1","high":"1","low":"1","close":"1","volume":"1"}]`:             `"+1" is not a number like`,
		`[{"open":"1.","high":"1","low":"1","close":"1","volume":"1"}]`:             `"1." is not a number like`,
		`[{"open":"01.5","high":"1","low":"1","close":"1","volume":"1"}]`:           `"01.5" is not a number like`,
		`[{"open":"-00","high":"1","low":"1","close":"1","volume":"1"}]`:            `"-00" is not a number like`,
		`[{"open":null,"high":"1","low":"1","close":"1","volume":"1"}]`:             `bars[0].open: null is not a number like`,
		`[{"open":"1","high":"1","low":"1","close":"1","volume":"1"},{"open":"1"}]`: "bars[1]",
		`[{"open":"1" "high":"1"}]`:                                                 "bars[0]: expected ',' or '}'",
	}
	for in, want := range cases {
		err := b.UnmarshalJSON([]byte(in))
		require.Error(t, err, in)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), in)
		assert.Contains(t, toolkit.MessageOf(err), want, in)
	}
}

func TestSymbolsDataDecode(t *testing.T) {
	bar := `{"open":"1","high":"1","low":"1","close":"1","volume":"1"}`
	var sd SymbolsData
	require.NoError(t, json.Unmarshal([]byte(` [ {"symbol":"A\u0042","bars":[`+bar+`]} , {"bars":[],"symbol":"C"} ] `), &sd))
	require.Len(t, sd, 2)
	assert.Equal(t, "AB", sd[0].Symbol)
	assert.Len(t, sd[0].Bars, 1)
	assert.Equal(t, "C", sd[1].Symbol)

	cases := map[string]string{
		`{}`:                                     "symbols_data: expected an array",
		`[{"symbol":"A"}]`:                       "Missing required argument: symbols_data[0].bars",
		`[{"bars":[]}]`:                          "Missing required argument: symbols_data[0].symbol",
		`[{"symbol":"","bars":[]}]`:              "symbols_data[0].symbol: must not be empty",
		`[{"symbol":1,"bars":[]}]`:               "symbols_data[0].symbol: must be a string",
		`[{"symbol":"A","bars":[],"x":1}]`:       `Unknown argument: symbols_data[0].x`,
		`[{"symbol":"A","bars":[{"open":"x"}]}]`: `symbols_data[0].bars[0].open: "x" is not a number like`,
		`[{"symbol":"A","bars":[]}`:              "expected ',' or ']'",
	}
	for in, want := range cases {
		err := sd.UnmarshalJSON([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, toolkit.MessageOf(err), want, in)
	}
}
