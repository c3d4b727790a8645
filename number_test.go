package toolkit

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloatMarshalsAsPlainDecimalString(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0.0847, "0.0847"},
		{1e-7, "0.0000001"},
		{-2.5, "-2.5"},
		{1e21, "1000000000000000000000"},
		{0, "0"},
		{math.Copysign(0, -1), "0"}, // -0 prints 0
		{2.9701000000000066, "2.9701"},
		{67336.5, "67336.5"},
		{1.0 / 3, "0.333333333333"},
		{2.0 / 3, "0.666666666667"},
		{-2.0 / 3, "-0.666666666667"},
		{123456789012.5, "123456789012"},   // a tie on the 13th digit: to even (2)
		{123456789013.5, "123456789014"},   // to even (4)
		{1.0000000000005, "1"},             // shortest digits 10000000000005: a tie, to even (0)
		{1.000000000015, "1.00000000002"},  // a tie, to even (2)
		{1.000000000025, "1.00000000002"},  // a tie, to even (2)
		{1.0000000000251, "1.00000000003"}, // beyond the tie: up
		{999999999999.5, "1000000000000"},  // the carry adds a digit
		{0.99999999999951, "1"},
		{1.234567890123456e-9, "0.00000000123456789012"},
		{1.234567890126e25, "12345678901300000000000000"},
		{5e-324, "0." + strings.Repeat("0", 323) + "5"},
		{math.MaxFloat64, "179769313486" + strings.Repeat("0", 297)},
	}
	for _, c := range cases {
		b, err := json.Marshal(Float(c.v))
		require.NoError(t, err)
		assert.Equal(t, `"`+c.want+`"`, string(b), "%v", c.v)
		assert.NotContains(t, string(b), "e", "never exponent form")
		back, err := strconv.ParseFloat(c.want, 64)
		require.NoError(t, err)
		if c.v != 0 {
			assert.InEpsilon(t, c.v, back, 5.0001e-12, "at most a half unit of the 12th digit")
		}
	}
	_, err := json.Marshal(Float(math.NaN()))
	assert.Error(t, err, "NaN must never reach a client")
	_, err = json.Marshal(Float(math.Inf(1)))
	assert.Error(t, err)
}

// TestAppendFloatAgreesWithStrconv: over random magnitudes the text has at
// most 12 significant digits, no exponent, and equals strconv's own
// 12-digit rounding of the shortest digits.
func TestAppendFloatAgreesWithStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := math.Float64frombits(rng.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		got := string(AppendFloat(nil, v))
		require.NotContains(t, got, "e")
		digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(got, "-"), ".", ""), "0")
		assert.LessOrEqual(t, len(strings.TrimRight(digits, "0")), SignificantDigits, got)
		back, err := strconv.ParseFloat(got, 64)
		require.NoError(t, err)
		shortest, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', -1, 64), 64)
		want, _ := strconv.ParseFloat(strconv.FormatFloat(shortest, 'e', SignificantDigits-1, 64), 64)
		if back != want { // strconv rounds the binary value: only exact decimal ties may differ
			assert.InEpsilon(t, want, back, 1.1e-11, "%v: %s", v, got)
		}
	}
}

func TestFloatUnmarshalsStringsAndNumbers(t *testing.T) {
	var f Float
	require.NoError(t, json.Unmarshal([]byte(`"1.25"`), &f))
	assert.Equal(t, Float(1.25), f)
	require.NoError(t, json.Unmarshal([]byte(`-3`), &f))
	assert.Equal(t, Float(-3), f)
	require.NoError(t, json.Unmarshal([]byte(`1e-05`), &f))
	assert.Equal(t, Float(1e-05), f, "exponent forms from float-based clients")
	require.NoError(t, json.Unmarshal([]byte(`"1.234E3"`), &f))
	assert.Equal(t, Float(1234), f)
	for _, bad := range []string{`""`, `"NaN"`, `"Inf"`, `"1e18"`, `1e63`, `-1e308`, `"+1"`, `".5"`, `"5."`, `"0x10"`, `" 1"`, `null`, `true`, `"1e"`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &f), bad)
	}
}

func TestFloatsRoundTrip(t *testing.T) {
	var fs Floats
	require.NoError(t, json.Unmarshal([]byte(`["1.5", -1 , "0.25",2]`), &fs))
	assert.Equal(t, Floats{1.5, -1, 0.25, 2}, fs)
	b, err := json.Marshal(fs)
	require.NoError(t, err)
	assert.Equal(t, `["1.5","-1","0.25","2"]`, string(b))
	require.NoError(t, json.Unmarshal([]byte(`[]`), &fs))
	assert.Empty(t, fs)
	for _, bad := range []string{`[1,]`, `[,1]`, `["1,5"]`, `{"a":1}`, `[[1]]`, `["x"]`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &fs), bad)
	}
}

// TestFloatStringIsTheFieldText: a statistic quoted in a sentence reads
// exactly as its JSON field (12 significant digits, plain notation).
func TestFloatStringIsTheFieldText(t *testing.T) {
	for _, v := range []float64{0.5666666666666667, 1e-7, -2.5, 0, 1e21, 2.9701000000000066} {
		b, err := Float(v).MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(b[1:len(b)-1]), Float(v).String(), "%v", v)
	}
	assert.Equal(t, "0.566666666667", fmt.Sprintf("mean R %s", Float(0.5666666666666667))[7:])
	assert.Equal(t, "+Inf", Float(math.Inf(1)).String())
	assert.Equal(t, "-Inf", Float(math.Inf(-1)).String())
	assert.Equal(t, "NaN", Float(math.NaN()).String())
}
