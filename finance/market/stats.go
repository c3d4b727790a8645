package market

import "github.com/agentfinance/toolkit"

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

// fl converts to the output number type.
func fl(v float64) toolkit.Float { return toolkit.Float(v) }

// flp returns a pointer to v as an output number (for nullable fields).
func flp(v float64) *toolkit.Float { f := toolkit.Float(v); return &f }
