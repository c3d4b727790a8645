package market

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	talib "github.com/markcheno/go-talib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMicroPriceStdDevDoesNotCollapse pins the documented STDDEV/BBANDS
// deviation: at prices near 1e-6 TA-Lib zeroes σ (absolute epsilon 1e-14 on
// the variance); ours keeps the exact σ, and scales with the price.
func TestMicroPriceStdDevDoesNotCollapse(t *testing.T) {
	c := Columns(synthBars(21, 500, 1, 0, 0.01)).Close
	micro := make([]float64, len(c))
	for i, v := range c {
		micro[i] = v * 1e-6
	}
	ref := talib.StdDev(micro, 20, 1)
	assert.Equal(t, 0.0, ref[100], "TA-Lib collapses")
	sd, err := StdDev(micro, 20)
	require.NoError(t, err)
	big, err := StdDev(c, 20)
	require.NoError(t, err)
	for k, v := range sd.Values {
		_, ex := twoPass(micro[k:k+20], 0)
		require.InDelta(t, math.Sqrt(ex), v, 1e-12*1e-6)
		require.InEpsilon(t, big.Values[k]*1e-6, v, 1e-9)
	}
}

// TestRSIAndADXAreScaleFree pins the exact-zero deviation of RSI and ADX.
func TestRSIAndADXAreScaleFree(t *testing.T) {
	cols := Columns(synthBars(22, 400, 1, 0, 0.01))
	s := 1e-15
	sc := func(x []float64) []float64 {
		out := make([]float64, len(x))
		for i, v := range x {
			out[i] = v * s
		}
		return out
	}
	r1, _ := RSI(cols.Close, 14)
	r2, _ := RSI(sc(cols.Close), 14)
	d1, _ := Directional(cols.High, cols.Low, cols.Close, 14)
	d2, _ := Directional(sc(cols.High), sc(cols.Low), sc(cols.Close), 14)
	for k := range r1.Values {
		require.InDelta(t, r1.Values[k], r2.Values[k], 1e-9)
	}
	for k := range d1.ADX.Values {
		require.InDelta(t, d1.ADX.Values[k], d2.ADX.Values[k], 1e-9)
	}
	// TA-Lib's absolute epsilon silences both at this scale.
	assert.Equal(t, 0.0, talib.Rsi(sc(cols.Close), 14)[200])
}

func TestIndicatorArgumentErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	_, e1 := SMA(x, 1)
	_, e2 := EMA(x, 0)
	_, e3 := RSI(x, -1)
	_, e4 := ATR(x, x, x[:2], 14)
	_, e5 := MACD(x, 12, 12, 9)
	_, e6 := BBands(x, 20, 0)
	_, e7 := StdDev(x, limits.MaxItems+1)
	_, e8 := MACD(x, 12, 26, 0)
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7, e8} {
		require.Error(t, err, i)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), i)
	}
	assert.Contains(t, toolkit.MessageOf(e5), "fast_period: must be less than slow_period")
	assert.Contains(t, toolkit.MessageOf(e8), "signal_period: must be at least 1")

	// Too short for one value: an empty series with the lookback stated.
	s, err := SMA(x, 5)
	require.NoError(t, err)
	assert.Equal(t, 4, s.First)
	assert.Empty(t, s.Values)
	_, ok := s.Last()
	assert.False(t, ok)
}

func TestIntoReusesBuffers(t *testing.T) {
	c := Columns(synthBars(23, 300, 100, 0, 0.01))
	buf := make([]float64, 300)
	allocs := testing.AllocsPerRun(20, func() {
		_, _ = SMAInto(buf, c.Close, 20)
		_, _ = EMAInto(buf, c.Close, 20)
		_, _ = RSIInto(buf, c.Close, 14)
		_, _ = ATRInto(buf, c.High, c.Low, c.Close, 14)
		_, _ = MACDInto(buf, buf, buf, c.Close, 12, 26, 9)
	})
	assert.Zero(t, allocs)
	assert.Equal(t, 1.0, testing.AllocsPerRun(20, func() { _, _ = SMA(c.Close, 20) }))
	assert.Equal(t, 3.0, testing.AllocsPerRun(20, func() { _, _ = BBands(c.Close, 20, 2) }))
	assert.Equal(t, 3.0, testing.AllocsPerRun(20, func() { _, _ = MACD(c.Close, 12, 26, 9) }))
}
