package market

import "math"

// resumEvery is how often (in bars) the running window sums of SMA and
// STDDEV are recomputed from scratch, so rounding drift cannot build up on
// long series whose price level changes a lot.
const resumEvery = 1024

// SMALookback is the index of the first SMA value: period - 1.
func SMALookback(period int) int { return period - 1 }

// SMA is the simple moving average of x over period bars (TA-Lib SMA):
// SMA_t = mean(x[t-period+1..t]), first valid at index period-1. period
// must be at least 2. It allocates once (the output values).
func SMA(x []float64, period int) (Series, error) { return SMAInto(nil, x, period) }

// SMAInto is SMA writing into dst when its capacity allows (no allocation).
// The window sum runs incrementally and is recomputed exactly every
// resumEvery bars.
func SMAInto(dst, x []float64, period int) (Series, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return Series{}, err
	}
	lb := SMALookback(period)
	out := grow(dst, len(x)-lb)
	if len(out) > 0 {
		smaKernel(out, x, period)
	}
	return Series{First: lb, Values: out}, nil
}

// smaKernel writes the SMA of x into out (len(out) == len(x)-p+1).
func smaKernel(out, x []float64, p int) {
	fp := float64(p)
	for start := 0; start < len(out); start += resumEvery {
		end := min(start+resumEvery, len(out))
		sum := 0.0
		for _, v := range x[start : start+p-1] {
			sum += v
		}
		win := x[start+p-1 : end+p-1]
		old := x[start : end-1]
		o := out[start:end]
		sum += win[0]
		o[0] = sum / fp
		for i := 1; i < len(o); i++ {
			sum += win[i] - old[i-1]
			o[i] = sum / fp
		}
	}
}

// EMALookback is the index of the first EMA value: period - 1.
func EMALookback(period int) int { return period - 1 }

// EMA is the exponential moving average with alpha = 2/(period+1), seeded
// with the SMA of the first period values (TA-Lib EMA, default
// compatibility): the first value, at index period-1, is that SMA, then
// EMA_t = (1-alpha)·EMA_{t-1} + alpha·x_t. period must be at least 2.
func EMA(x []float64, period int) (Series, error) { return EMAInto(nil, x, period) }

// EMAInto is EMA writing into dst when its capacity allows.
func EMAInto(dst, x []float64, period int) (Series, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return Series{}, err
	}
	lb := EMALookback(period)
	out := grow(dst, len(x)-lb)
	if len(out) > 0 {
		seed := 0.0
		for _, v := range x[:period] {
			seed += v
		}
		emaKernel(out, x[lb:], seed/float64(period), 2/float64(period+1))
	}
	return Series{First: lb, Values: out}, nil
}

// emaKernel writes out[0] = seed and out[i] = (1-k)·out[i-1] + k·x[i].
// The explicit float64 conversions keep the compiler from fusing into an
// FMA, so every architecture gets the same bits.
func emaKernel(out, x []float64, seed, k float64) {
	c := 1 - k
	prev := seed
	out[0] = prev
	x = x[:len(out)]
	for i := 1; i < len(out); i++ {
		prev = float64(c*prev) + float64(k*x[i])
		out[i] = prev
	}
}

// RSILookback is the index of the first RSI value: period.
func RSILookback(period int) int { return period }

// RSI is Wilder's relative strength index (TA-Lib RSI): the gains and
// losses of the first period changes are averaged, then smoothed with
// alpha = 1/period, and RSI = 100·avgGain/(avgGain+avgLoss). The first
// value is at index period. period must be at least 2.
//
// Deliberate deviation from TA-Lib: when there has been no price change at
// all (avgGain+avgLoss is exactly 0), RSI is 50 (neutral), where TA-Lib
// returns 0 whenever the sum is below its absolute epsilon 1e-14 — which
// also wrongly hits prices near 1e-9. Internally the averages are kept as
// period-scaled sums; the ratio is the same to within 1e-13 points.
func RSI(x []float64, period int) (Series, error) { return RSIInto(nil, x, period) }

// RSIInto is RSI writing into dst when its capacity allows.
func RSIInto(dst, x []float64, period int) (Series, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return Series{}, err
	}
	lb := RSILookback(period)
	out := grow(dst, len(x)-lb)
	if len(out) == 0 {
		return Series{First: lb, Values: out}, nil
	}
	var gain, loss float64
	for i := 1; i <= period; i++ {
		d := x[i] - x[i-1]
		a := math.Abs(d)
		gain += (a + d) * 0.5
		loss += (a - d) * 0.5
	}
	out[0] = rsiValue(gain, loss)
	c := float64(period-1) / float64(period)
	x = x[lb:]
	x = x[:len(out)]
	for i := 1; i < len(out); i++ {
		d := x[i] - x[i-1]
		a := math.Abs(d)
		gain = float64(c*gain) + (a+d)*0.5
		loss = float64(c*loss) + (a-d)*0.5
		tot := gain + loss
		v := 50.0
		if tot != 0 {
			v = 100 * (gain / tot)
		}
		out[i] = v
	}
	return Series{First: lb, Values: out}, nil
}

// rsiValue is 100·gain/(gain+loss), or 50 when both are zero.
func rsiValue(gain, loss float64) float64 {
	if tot := gain + loss; tot != 0 {
		return 100 * (gain / tot)
	}
	return 50
}
