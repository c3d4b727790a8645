package market

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// clamp01 limits x to [0, 1].
func clamp01(x float64) float64 { return min(1, max(0, x)) }

// meanOf returns the arithmetic mean of xs (0 when empty).
func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// slopeOf returns the least-squares slope of xs against 0..len-1 (0 for
// fewer than 2 values).
func slopeOf(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	n := float64(len(xs))
	mx, my := (n-1)/2, meanOf(xs)
	var sxy, sxx float64
	for i, y := range xs {
		dx := float64(i) - mx
		sxy += dx * (y - my)
		sxx += dx * dx
	}
	return sxy / sxx
}

// directExtremes is the longest window whose extremes windowExtremes takes
// directly (w-1 comparisons per bar) rather than by blocks (three).
const directExtremes = 4

// windowExtremes returns, for every i >= w-1, the highest of hi[i-w+1..i]
// in mx[i] and the lowest of lo[i-w+1..i] in mn[i], in scratch memory;
// earlier slots are unspecified. Beyond directExtremes bars it uses the
// van Herk/Gil-Werman blocks:
// within blocks of w bars, running extremes from the block start (written
// into mx, mn) and to the block end (sufHi, sufLo); the window ending at i
// is then the extreme of the suffix at its first bar and the prefix at i,
// three comparisons per bar and no data-dependent branch.
//
// hi and lo are prices: positive, never NaN (ValidateBars). The IEEE 754
// bit patterns of such doubles order as their values do, so the extremes
// are taken on the bits (an integer compare and conditional move, see
// priceBits): the same values as Go's float max and min, whose NaN and
// signed-zero handling makes each step several times longer.
func windowExtremes(s *scratch, hi, lo []float64, w int) (mx, mn []float64) {
	n := len(hi)
	mx, mn = s.floats(n), s.floats(n)
	if w <= directExtremes { // short windows: the extremes of w values directly
		for i := w - 1; i < n; i++ {
			h, l := priceBits(hi[i]), priceBits(lo[i])
			for _, v := range hi[i-w+1 : i] {
				h = max(h, priceBits(v))
			}
			for _, v := range lo[i-w+1 : i] {
				l = min(l, priceBits(v))
			}
			mx[i], mn[i] = bitsPrice(h), bitsPrice(l)
		}
		return mx, mn
	}
	sufHi, sufLo := s.floats(n), s.floats(n)
	for b := 0; b < n; b += w {
		e := min(b+w, n)
		h, l := priceBits(hi[b]), priceBits(lo[b])
		for i := b; i < e; i++ {
			h, l = max(h, priceBits(hi[i])), min(l, priceBits(lo[i]))
			mx[i], mn[i] = bitsPrice(h), bitsPrice(l)
		}
		h, l = priceBits(hi[e-1]), priceBits(lo[e-1])
		for i := e - 1; i >= b; i-- {
			h, l = max(h, priceBits(hi[i])), min(l, priceBits(lo[i]))
			sufHi[i], sufLo[i] = bitsPrice(h), bitsPrice(l)
		}
	}
	for i := w - 1; i < n; i++ { // mx[i], mn[i] still hold the prefix extremes at i
		j := i - w + 1
		mx[i] = bitsPrice(max(priceBits(sufHi[j]), priceBits(mx[i])))
		mn[i] = bitsPrice(min(priceBits(sufLo[j]), priceBits(mn[i])))
	}
	return mx, mn
}

// priceBits is the bit pattern of a price, ordered as the prices are (see
// windowExtremes); bitsPrice is its inverse.
func priceBits(p float64) uint64 { return math.Float64bits(p) }

func bitsPrice(b uint64) float64 { return math.Float64frombits(b) }

// closeLogReturns writes ln(close_{i+1}/close_i) of bars into dst
// (len(bars)-1 values) and returns it.
func closeLogReturns(dst []float64, bars []Bar) []float64 {
	for i := range dst {
		dst[i] = math.Log(float64(bars[i+1].Close) / float64(bars[i].Close))
	}
	return dst
}

// fl converts to the output number type.
func fl(v float64) toolkit.Float { return toolkit.Float(v) }

// flp returns a pointer to v as an output number (for nullable fields).
func flp(v float64) *toolkit.Float { f := toolkit.Float(v); return &f }
