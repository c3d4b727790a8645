package market

import (
	"testing"

	talib "github.com/markcheno/go-talib"
)

// benchN is the series length of the indicator benchmarks (issue 6).
const benchN = 10_000

func benchCols() OHLCV { return Columns(synthBars(42, benchN, 100, 0, 0.01)) }

// Each benchmark pair runs ours and go-talib on the same 10,000 bars in one
// `go test -bench` run; ns/op ÷ 10,000 is ns per bar.
func BenchmarkIndicators(b *testing.B) {
	c := benchCols()
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	run("SMA20/ours", func() { _, _ = SMA(c.Close, 20) })
	run("SMA20/gotalib", func() { talib.Sma(c.Close, 20) })
	run("EMA20/ours", func() { _, _ = EMA(c.Close, 20) })
	run("EMA20/gotalib", func() { talib.Ema(c.Close, 20) })
	run("RSI14/ours", func() { _, _ = RSI(c.Close, 14) })
	run("RSI14/gotalib", func() { talib.Rsi(c.Close, 14) })
	run("ATR14/ours", func() { _, _ = ATR(c.High, c.Low, c.Close, 14) })
	run("ATR14/gotalib", func() { talib.Atr(c.High, c.Low, c.Close, 14) })
	run("MACD/ours", func() { _, _ = MACD(c.Close, 12, 26, 9) })
	run("MACD/gotalib", func() { talib.Macd(c.Close, 12, 26, 9) })
	run("BBANDS20/ours", func() { _, _ = BBands(c.Close, 20, 2) })
	run("BBANDS20/gotalib", func() { talib.BBands(c.Close, 20, 2, 2, talib.SMA) })
	run("ADX14/ours", func() { _, _ = Directional(c.High, c.Low, c.Close, 14) })
	run("ADX14/gotalib", func() { talib.Adx(c.High, c.Low, c.Close, 14) })
}

// BenchmarkIndicatorsInto measures the kernels alone, writing into reused
// buffers (zero allocations).
func BenchmarkIndicatorsInto(b *testing.B) {
	c := benchCols()
	d1, d2, d3 := make([]float64, benchN), make([]float64, benchN), make([]float64, benchN)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	run("SMA20", func() { _, _ = SMAInto(d1, c.Close, 20) })
	run("EMA20", func() { _, _ = EMAInto(d1, c.Close, 20) })
	run("RSI14", func() { _, _ = RSIInto(d1, c.Close, 14) })
	run("ATR14", func() { _, _ = ATRInto(d1, c.High, c.Low, c.Close, 14) })
	run("MACD", func() { _, _ = MACDInto(d1, d2, d3, c.Close, 12, 26, 9) })
	run("BBANDS20", func() { _, _ = BBandsInto(d1, d2, d3, c.Close, 20, 2) })
}
