package market

import "math"

// TrueRangeLookback is the index of the first true range: 1.
const TrueRangeLookback = 1

// trueRange is max(h-l, |h-pc|, |l-pc|) = max(h, pc) - min(l, pc), bit for
// bit (the subtraction picked is the one TA-Lib's comparison picks).
func trueRange(h, l, pc float64) float64 { return max(h, pc) - min(l, pc) }

// TrueRange is TA-Lib TRANGE: TR_t = max(h_t-l_t, |h_t-c_{t-1}|,
// |l_t-c_{t-1}|), defined from bar 1 (bar 0 has no previous close).
func TrueRange(high, low, close []float64) (Series, error) {
	if err := checkOHLC(high, low, close); err != nil {
		return Series{}, err
	}
	out := grow(nil, len(close)-1)
	for i := range out {
		out[i] = trueRange(high[i+1], low[i+1], close[i])
	}
	return Series{First: TrueRangeLookback, Values: out}, nil
}

// ATRLookback is the index of the first ATR value: period.
func ATRLookback(period int) int { return period }

// ATR is Wilder's average true range (TA-Lib ATR): the seed is the mean of
// TR_1..TR_period, at index period; then ATR_t = (ATR_{t-1}·(period-1) +
// TR_t)/period. period must be at least 2.
func ATR(high, low, close []float64, period int) (Series, error) {
	return ATRInto(nil, high, low, close, period)
}

// ATRInto is ATR writing into dst when its capacity allows.
func ATRInto(dst, high, low, close []float64, period int) (Series, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return Series{}, err
	}
	if err := checkOHLC(high, low, close); err != nil {
		return Series{}, err
	}
	lb := ATRLookback(period)
	out := grow(dst, len(close)-lb)
	if len(out) == 0 {
		return Series{First: lb, Values: out}, nil
	}
	sum := 0.0
	for i := 1; i <= period; i++ {
		sum += trueRange(high[i], low[i], close[i-1])
	}
	fp := float64(period)
	atr := sum / fp
	out[0] = atr
	c, k := (fp-1)/fp, 1/fp
	h, l, pc := high[lb:], low[lb:], close[lb-1:]
	h, l, pc = h[:len(out)], l[:len(out)], pc[:len(out)]
	for i := 1; i < len(out); i++ {
		atr = float64(c*atr) + float64(k*trueRange(h[i], l[i], pc[i]))
		out[i] = atr
	}
	return Series{First: lb, Values: out}, nil
}

// relEpsilon is the relative floor of STDDEV: a variance at or below
// (relEpsilon·|mean|)² is exactly zero.
const relEpsilon = 1e-12

// StdDevLookback is the index of the first STDDEV value: period - 1.
func StdDevLookback(period int) int { return period - 1 }

// StdDev is the rolling population standard deviation (divide by N, as
// TA-Lib STDDEV with nbdev 1 and Bollinger's bands). period must be at
// least 2.
//
// Deliberate deviations from TA-Lib: the variance comes from sums of
// deviations from a recent data value (re-anchored every max(period, 64)
// bars, with an exact two-pass fallback on near-flat windows), not TA-Lib's
// raw one-pass E[x²]-E[x]², so it does not lose digits at high price levels
// or return rounding noise on flat windows; and a variance at or below (1e-12·|mean|)² is zero
// (a relative epsilon), where TA-Lib zeroes anything below an absolute
// 1e-14 and so collapses every band on prices around 1e-6.
func StdDev(x []float64, period int) (Series, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return Series{}, err
	}
	lb := StdDevLookback(period)
	out := grow(nil, len(x)-lb)
	if len(out) > 0 {
		rollingMeanSD(nil, out, x, period)
	}
	return Series{First: lb, Values: out}, nil
}

// rollingMeanSD writes the rolling mean (when mean != nil) and population
// standard deviation of x over p bars into mean and sd (len(x)-p+1 each).
//
// The window sums run over deviations from an anchor (a data value
// re-chosen every max(p, 64) bars), so their rounding error is of the order
// eps·big, where big is the largest squared deviation in the block. When a
// window's variance is below 1e-6·big, that rounding could show, and the
// window is recomputed exactly with two passes (rare: a near-flat window).
// So the result is within about 1e-11 of the price level of the exact σ.
func rollingMeanSD(mean, sd, x []float64, p int) {
	fp := float64(p)
	block := max(p, 64)
	for start := 0; start < len(sd); start += block {
		end := min(start+block, len(sd))
		anchor := x[start+p-1]
		var s1, s2, big float64
		for _, v := range x[start : start+p-1] {
			d := v - anchor
			s1 += d
			s2 += d * d
			big = max(big, d*d)
		}
		for j := start; j < end; j++ {
			d := x[j+p-1] - anchor
			s1 += d
			s2 += d * d
			big = max(big, d*d)
			m := s1 / fp
			v := s2/fp - m*m
			if v < 1e-6*big {
				m, v = twoPass(x[j:j+p], anchor)
			}
			mu := anchor + m
			eps := relEpsilon * mu
			s := 0.0
			if v > eps*eps {
				s = math.Sqrt(v)
			}
			sd[j] = s
			if mean != nil {
				mean[j] = mu
			}
			d = x[j] - anchor
			s1 -= d
			s2 -= d * d
		}
	}
}

// twoPass returns the mean deviation of w from anchor and the population
// variance of w, computed exactly in two passes.
func twoPass(w []float64, anchor float64) (m, v float64) {
	for _, x := range w {
		m += x - anchor
	}
	m /= float64(len(w))
	for _, x := range w {
		d := x - anchor - m
		v += d * d
	}
	return m, v / float64(len(w))
}

// BBandsResult holds the three Bollinger series, all starting at period-1.
type BBandsResult struct {
	Upper  Series // Middle + nbdev·σ
	Middle Series // SMA over period
	Lower  Series // Middle - nbdev·σ
}

// BBandsLookback is the index of the first band value: period - 1.
func BBandsLookback(period int) int { return period - 1 }

// BBands are Bollinger Bands (TA-Lib BBANDS with MA type SMA and equal up
// and down deviations): middle = SMA(period), upper/lower = middle ±
// nbdev·σ with σ the population standard deviation (÷N), computed as in
// StdDev (same deviations from TA-Lib). period must be at least 2 and
// nbdev positive. It allocates the three output series only.
func BBands(x []float64, period int, nbdev float64) (BBandsResult, error) {
	return BBandsInto(nil, nil, nil, x, period, nbdev)
}

// BBandsInto is BBands writing into the given buffers when their capacity
// allows.
func BBandsInto(dstUpper, dstMiddle, dstLower, x []float64, period int, nbdev float64) (BBandsResult, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return BBandsResult{}, err
	}
	if !(nbdev > 0) || math.IsInf(nbdev, 0) {
		return BBandsResult{}, invalid("nbdev", "must be a positive number (got %v)", nbdev)
	}
	lb := BBandsLookback(period)
	n := len(x) - lb
	u, m, l := grow(dstUpper, n), grow(dstMiddle, n), grow(dstLower, n)
	if n > 0 {
		rollingMeanSD(m, u, x, period) // σ goes into u first
		l = l[:len(u)]
		for i, s := range u {
			w := nbdev * s
			u[i] = m[i] + w
			l[i] = m[i] - w
		}
	}
	return BBandsResult{Upper: Series{lb, u}, Middle: Series{lb, m}, Lower: Series{lb, l}}, nil
}
