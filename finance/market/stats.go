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

// windowExtremes returns, for every i >= w-1, the highest of hi[i-w+1..i]
// in mx[i] and the lowest of lo[i-w+1..i] in mn[i] (monotonic deques,
// O(n)); earlier slots are 0.
func windowExtremes(hi, lo []float64, w int) (mx, mn []float64) {
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

// fl converts to the output number type.
func fl(v float64) toolkit.Float { return toolkit.Float(v) }

// flp returns a pointer to v as an output number (for nullable fields).
func flp(v float64) *toolkit.Float { f := toolkit.Float(v); return &f }
