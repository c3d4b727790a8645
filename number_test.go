package toolkit

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloatMarshalsAsPlainDecimalString(t *testing.T) {
	for v, want := range map[float64]string{
		0.0847: `"0.0847"`, 1e-7: `"0.0000001"`, -2.5: `"-2.5"`, 1e21: `"1000000000000000000000"`, 0: `"0"`,
	} {
		b, err := json.Marshal(Float(v))
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
	}
	_, err := json.Marshal(Float(math.NaN()))
	assert.Error(t, err, "NaN must never reach a client")
	_, err = json.Marshal(Float(math.Inf(1)))
	assert.Error(t, err)
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
