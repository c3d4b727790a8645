package toolkit

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAmountStrict(t *testing.T) {
	for _, ok := range []string{"0", "12", "-0.5", "185.50", "0.000001", "1000000000000", "999999999999999999.9999999999999999"} {
		a, err := ParseAmount(ok)
		require.NoError(t, err, ok)
		assert.Equal(t, ok, a.String(), "text round-trips exactly")
	}
	for _, bad := range []string{"", " 1", "1 ", "+1", "1e+", "1e", "1.e3", "NaN", "nan", "Inf", "-Infinity", "0x10",
		".5", "5.", "1.2.3", "--1", "1,5", "١٢", "00", "007", "01.5", "-00.1", "-", "1e3.5"} {
		_, err := ParseAmount(bad)
		assert.Error(t, err, bad)
	}
	_, err := ParseAmount("1" + string(make([]byte, 64)))
	assert.Error(t, err, "over-long texts are refused")
}

// Exponent forms (what float-based clients write) are accepted and
// normalised to plain digits.
func TestParseAmountExponentForms(t *testing.T) {
	for in, want := range map[string]string{
		"1e3": "1000", "1E3": "1000", "1.5e-05": "0.000015", "1.234e-05": "0.00001234", "-2.5E+2": "-250",
		"0e5": "0", "-0": "0", "0.10000000000000000000": "0.1000000000000000", "1e-16": "0.0000000000000001",
	} {
		a, err := ParseAmount(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, a.String(), in)
	}
}

// The documented input range: magnitude below 1e18, at most 16 decimal
// places, at most 64 characters. Inside it every Amount has at most 34
// digits, so rounding it can never fail.
func TestParseAmountRange(t *testing.T) {
	for _, bad := range []string{"1e18", "1000000000000000000", "-1e18", "1e33", "1e999999999", "0.00000000000000001",
		"1e-17", "1.5e-16"} {
		_, err := ParseAmount(bad)
		assert.Error(t, err, bad)
	}
	biggest := MustParseAmount("999999999999999999.9999999999999999")
	r, err := biggest.Round(16, RoundHalfEven)
	require.NoError(t, err)
	assert.Equal(t, biggest.String(), r.String())
}

// Pitfall: apd's String() switches to exponent form; Amount never does.
func TestStringNeverUsesExponentForm(t *testing.T) {
	assert.Equal(t, "0.0000001", MustParseAmount("0.0000001").String())
	assert.Equal(t, "1000000", MustParseAmount("1000").Mul(MustParseAmount("1000")).String())
	assert.Equal(t, "0.0024", MustParseAmount("0.003").Mul(MustParseAmount("0.8")).String())
	assert.Equal(t, "0.000003", AmountFromMicros(3).String())
}

type holder struct {
	ByValue Amount  `json:"by_value"`
	ByPtr   *Amount `json:"by_ptr"`
}

// Pitfall: a pointer-receiver MarshalJSON is skipped for values held in
// non-addressable places; Amount marshals with a value receiver.
func TestMarshalByValueAndPointer(t *testing.T) {
	p := MustParseAmount("2.50")
	h := holder{ByValue: MustParseAmount("185.50"), ByPtr: &p}
	b, err := json.Marshal(h)
	require.NoError(t, err)
	assert.JSONEq(t, `{"by_value":"185.50","by_ptr":"2.50"}`, string(b))
	assert.Panics(t, func() { MustParseAmount("1E") }, "MustParseAmount is for valid constants only")
}

func TestMarshalInMapAndSlice(t *testing.T) {
	b, err := json.Marshal(map[string]Amount{"a": MustParseAmount("0.10")})
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":"0.10"}`, string(b))
	b, err = json.Marshal([]Amount{MustParseAmount("1"), {}})
	require.NoError(t, err)
	assert.JSONEq(t, `["1","0"]`, string(b))
}

// Pitfall: apd.Decimal copies share their big.Int words. Amount operations
// always write into fresh decimals, so results never alias operands.
func TestCopiesDoNotAlias(t *testing.T) {
	big := MustParseAmount("123456789012345678.5")
	cp := big
	sum := cp.Add(MustParseAmount("1"))
	assert.Equal(t, "123456789012345678.5", big.String())
	assert.Equal(t, "123456789012345679.5", sum.String())
	require.NoError(t, json.Unmarshal([]byte(`"7"`), &cp))
	assert.Equal(t, "123456789012345678.5", big.String(), "decoding into a copy leaves the original")
	trimmed := big.Trim(0)
	assert.Equal(t, big.String(), trimmed.String())
}

func TestUnmarshalJSON(t *testing.T) {
	var a Amount
	require.NoError(t, json.Unmarshal([]byte(`"0.25"`), &a))
	assert.Equal(t, "0.25", a.String())
	require.NoError(t, json.Unmarshal([]byte(`12.5`), &a))
	assert.Equal(t, "12.5", a.String())
	require.NoError(t, json.Unmarshal([]byte(`1e-05`), &a))
	assert.Equal(t, "0.00001", a.String())
	for _, bad := range []string{`null`, `1e18`, `"1e-17"`, `""`, `true`, `"NaN"`, `[1]`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &a), bad)
	}
}

func TestMicros(t *testing.T) {
	for s, want := range map[string]int64{"1": 1_000_000, "0.003": 3000, "-0.000001": -1, "0.1000000": 100_000, "9223372036854.775807": math.MaxInt64} {
		m, err := MustParseAmount(s).Micros()
		require.NoError(t, err, s)
		assert.Equal(t, want, m, s)
	}
	for _, bad := range []string{"0.0000001", "1.0000005", "9223372036854.775808"} {
		_, err := MustParseAmount(bad).Micros()
		assert.Error(t, err, bad)
	}
	assert.Equal(t, "-1.5", AmountFromMicros(-1_500_000).Trim(0).String())
}

func TestRoundingHelpers(t *testing.T) {
	x := MustParseAmount("2.345")
	round := func(a Amount, places int32, rule Rounding) string {
		r, err := a.Round(places, rule)
		require.NoError(t, err)
		return r.String()
	}
	assert.Equal(t, "2.34", round(x, 2, RoundHalfEven))
	assert.Equal(t, "2.35", round(x, 2, RoundHalfUp))
	assert.Equal(t, "2.34", round(x, 2, RoundDown))
	assert.Equal(t, "2.35", round(x, 2, RoundUp))
	assert.Equal(t, "-3", round(x.Neg(), 0, RoundFloor))
	assert.Equal(t, "-2", round(x.Neg(), 0, RoundCeiling))
	f, err := x.Floor()
	require.NoError(t, err)
	assert.Equal(t, "2", f.String())
	assert.Equal(t, "1.50", MustParseAmount("1.500000").Trim(2).String())
	assert.Equal(t, "0.001", MustParseAmount("0.001000").Trim(2).String())
	assert.Equal(t, "10", MustParseAmount("10.00").Trim(0).String())
}

// The float trap of library-notes §4: float64 floors 25000*0.02/0.1 to
// 4999; Amount gets 5000.
func TestFloatTrap(t *testing.T) {
	e, _ := strconv.ParseFloat("25000", 64)
	r, _ := strconv.ParseFloat("0.02", 64)
	hi, _ := strconv.ParseFloat("10.30", 64)
	lo, _ := strconv.ParseFloat("10.20", 64)
	assert.Equal(t, 4999.0, math.Floor(e*r/(hi-lo)), "the float64 trap is real")
	q, err := MustParseAmount("25000").Mul(MustParseAmount("0.02")).Quo(MustParseAmount("10.30").Sub(MustParseAmount("10.20")))
	require.NoError(t, err)
	f, err := q.Floor()
	require.NoError(t, err)
	assert.Equal(t, "5000", f.String())
	_, err = MustParseAmount("1").Quo(Amount{})
	assert.Error(t, err, "division by zero is an error")
}

func TestArithmeticAndComparison(t *testing.T) {
	a, b := MustParseAmount("0.1"), MustParseAmount("0.2")
	assert.Equal(t, "0.3", a.Add(b).String())
	assert.Equal(t, "-0.1", a.Sub(b).String())
	assert.Equal(t, -1, a.Cmp(b))
	assert.Equal(t, 1, b.Abs().Sign())
	assert.True(t, Amount{}.IsZero())
	assert.InDelta(t, 0.1, a.Float64(), 0)
	n, err := MustParseAmount("42").Int64()
	require.NoError(t, err)
	assert.Equal(t, int64(42), n)
	f, err := AmountFromFloat(0.0847)
	require.NoError(t, err)
	assert.Equal(t, "0.0847", f.String())
	_, err = AmountFromFloat(math.NaN())
	assert.Error(t, err)
	assert.Equal(t, "7", AmountFromInt(7).String())
}

// Regression (robustness finding 1): rounding a value that needs more than
// 34 digits used to panic and stop the MCP server. It is now an error, as
// is every use of an overflowed (non-finite) Amount.
func TestOutOfRangeArithmeticReturnsErrors(t *testing.T) {
	huge := MustParseAmount("999999999999999999").Mul(MustParseAmount("999999999999999999")) // ~1e36
	require.NotPanics(t, func() {
		_, err := huge.Round(2, RoundHalfEven)
		assert.ErrorIs(t, err, ErrNonFinite)
	})
	// Overflow of apd's exponent range gives an infinity that no exit accepts.
	x := huge
	for range 20 {
		x = x.Mul(x)
	}
	require.False(t, x.IsFinite(), "an exponent overflow must not wrap around")
	_, err := x.Floor()
	assert.ErrorIs(t, err, ErrNonFinite)
	_, err = x.Micros()
	assert.ErrorIs(t, err, ErrNonFinite)
	_, err = x.Int64()
	assert.ErrorIs(t, err, ErrNonFinite)
	_, err = json.Marshal(x)
	assert.ErrorIs(t, err, ErrNonFinite)
	_, err = x.Quo(MustParseAmount("2"))
	assert.ErrorIs(t, err, ErrNonFinite)
	_, err = x.Round(0, RoundDown)
	assert.ErrorIs(t, err, ErrNonFinite)
}

func BenchmarkAmountMul(b *testing.B) {
	x, y := MustParseAmount("25000"), MustParseAmount("0.02")
	b.ReportAllocs()
	for b.Loop() {
		_ = x.Mul(y)
	}
}

// TestDecimalPatternMatchesTheParser keeps the schema pattern and the Go
// grammar in step.
func TestDecimalPatternMatchesTheParser(t *testing.T) {
	re := regexp.MustCompile(DecimalPattern)
	for _, s := range []string{"0", "-0.5", "185.50", "10", "00", "007", "1e3", "1.5E-05", "1e+2", "1e", "", "+1", ".5", "5.", "-", "1.2.3", "0.000", "-0"} {
		_, err := ParseAmount(s)
		assert.Equal(t, err == nil, re.MatchString(s), s)
	}
}
