package market

import "math"

// This file holds the small unexported series helpers used by the pattern,
// structural-break and price-structure analyses. They follow TA-Lib
// semantics (SMA window mean, Wilder RSI/ATR seeded with a simple mean) but
// are private on purpose: the exported indicators belong to
// calculate_indicators. The "B" suffix keeps the names distinct.

// ohlcB holds the OHLC prices of a bar slice as parallel float64 slices.
type ohlcB struct {
	o, h, l, c []float64
	// rb and hl are the real bodies |c-o| and ranges h-l, precomputed by
	// withRanges for the candle averages.
	rb, hl []float64
}

// withRanges returns k with rb and hl filled.
func (k ohlcB) withRanges() ohlcB {
	n := len(k.c)
	buf := make([]float64, 2*n)
	k.rb, k.hl = buf[:n:n], buf[n:]
	for i := range n {
		k.rb[i] = math.Abs(k.c[i] - k.o[i])
		k.hl[i] = k.h[i] - k.l[i]
	}
	return k
}

// ohlcOfB copies bars into one backing array of 4n float64 values (rb
// and hl stay nil; see withRanges).
func ohlcOfB(bars []Bar) ohlcB {
	n := len(bars)
	buf := make([]float64, 4*n)
	k := ohlcB{o: buf[:n:n], h: buf[n : 2*n : 2*n], l: buf[2*n : 3*n : 3*n], c: buf[3*n:]}
	for i, b := range bars {
		k.o[i], k.h[i], k.l[i], k.c[i] = float64(b.Open), float64(b.High), float64(b.Low), float64(b.Close)
	}
	return k
}

// smaSeriesB returns the simple moving average of x over p values; out[i]
// is valid from i = p-1 on (earlier slots are 0).
func smaSeriesB(x []float64, p int) []float64 {
	out := make([]float64, len(x))
	if p <= 0 || len(x) < p {
		return out
	}
	sum := 0.0
	for i := 0; i < p; i++ {
		sum += x[i]
	}
	out[p-1] = sum / float64(p)
	for i := p; i < len(x); i++ {
		sum += x[i] - x[i-p]
		out[i] = sum / float64(p)
	}
	return out
}

// atrSeriesB returns Wilder's ATR over p bars (TA-Lib semantics: true range
// from bar 1, seed = mean of TR_1..TR_p, first value at bar p; earlier
// slots are 0).
func atrSeriesB(k ohlcB, p int) []float64 {
	n := len(k.c)
	out := make([]float64, n)
	if p <= 0 || n <= p {
		return out
	}
	sum := 0.0
	for i := 1; i <= p; i++ {
		sum += trueRangeB(k, i)
	}
	a := sum / float64(p)
	out[p] = a
	for i := p + 1; i < n; i++ {
		a = (a*float64(p-1) + trueRangeB(k, i)) / float64(p)
		out[i] = a
	}
	return out
}

// trueRangeB is max(h-l, |h-c[i-1]|, |l-c[i-1]|) for i >= 1 and h-l at 0.
func trueRangeB(k ohlcB, i int) float64 {
	tr := k.h[i] - k.l[i]
	if i == 0 {
		return tr
	}
	pc := k.c[i-1]
	if d := math.Abs(k.h[i] - pc); d > tr {
		tr = d
	}
	if d := math.Abs(k.l[i] - pc); d > tr {
		tr = d
	}
	return tr
}

// rsiSeriesB returns Wilder's RSI over p closes (TA-Lib semantics: seed =
// mean gain and loss of the first p changes, first value at index p;
// earlier slots are 0). A window without any movement gives 50.
func rsiSeriesB(c []float64, p int) []float64 {
	n := len(c)
	out := make([]float64, n)
	if p <= 0 || n <= p {
		return out
	}
	gain, loss := 0.0, 0.0
	for i := 1; i <= p; i++ {
		d := c[i] - c[i-1]
		if d > 0 {
			gain += d
		} else {
			loss -= d
		}
	}
	gain /= float64(p)
	loss /= float64(p)
	out[p] = rsiValueB(gain, loss)
	for i := p + 1; i < n; i++ {
		d := c[i] - c[i-1]
		g, l := 0.0, 0.0
		if d > 0 {
			g = d
		} else {
			l = -d
		}
		gain = (gain*float64(p-1) + g) / float64(p)
		loss = (loss*float64(p-1) + l) / float64(p)
		out[i] = rsiValueB(gain, loss)
	}
	return out
}

func rsiValueB(gain, loss float64) float64 {
	if gain+loss == 0 {
		return 50
	}
	return 100 * gain / (gain + loss)
}

// clampB limits v to [lo, hi].
func clampB(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}

// windowExtremesB returns, for every i >= w-1, the highest of hi[i-w+1..i]
// in mx[i] and the lowest of lo[i-w+1..i] in mn[i] (monotonic deques,
// O(n)); earlier slots are 0.
func windowExtremesB(hi, lo []float64, w int) (mx, mn []float64) {
	n := len(hi)
	buf := make([]float64, 2*n)
	mx, mn = buf[:n:n], buf[n:]
	qi := make([]int32, 2*n)
	qmax, qmin := qi[:0:n], qi[n:n]
	hmax, hmin := 0, 0
	for i := 0; i < n; i++ {
		for len(qmax) > hmax && hi[qmax[len(qmax)-1]] <= hi[i] {
			qmax = qmax[:len(qmax)-1]
		}
		qmax = append(qmax, int32(i))
		for len(qmin) > hmin && lo[qmin[len(qmin)-1]] >= lo[i] {
			qmin = qmin[:len(qmin)-1]
		}
		qmin = append(qmin, int32(i))
		if int(qmax[hmax]) <= i-w {
			hmax++
		}
		if int(qmin[hmin]) <= i-w {
			hmin++
		}
		if i >= w-1 {
			mx[i], mn[i] = hi[qmax[hmax]], lo[qmin[hmin]]
		}
	}
	return mx, mn
}
