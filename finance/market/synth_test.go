package market

import (
	"math"
	"math/rand/v2"

	"github.com/agentfinance/toolkit"
)

// synthBars returns n seeded geometric-random-walk bars starting at start,
// with per-bar log drift and volatility vol.
func synthBars(seed uint64, n int, start, drift, vol float64) []Bar {
	r := rand.New(rand.NewPCG(seed, 7))
	bars := make([]Bar, n)
	prev := start
	for i := range bars {
		open := prev * math.Exp(0.2*vol*r.NormFloat64())
		c := open * math.Exp(drift+vol*r.NormFloat64())
		h := max(open, c) * (1 + math.Abs(0.5*vol*r.NormFloat64()))
		l := min(open, c) * (1 - math.Min(0.5, math.Abs(0.5*vol*r.NormFloat64())))
		bars[i] = Bar{Open: toolkit.Float(open), High: toolkit.Float(h), Low: toolkit.Float(l),
			Close: toolkit.Float(c), Volume: toolkit.Float(1000 + 1000*r.Float64())}
		prev = c
	}
	return bars
}

// segment describes a stretch of planted bars: per-bar log drift, the
// volatility, and mean reversion (0: random walk; 0 < mr < 1 pulls the log
// price toward the segment's starting level by that fraction per bar).
type segment struct {
	n          int
	drift, vol float64
	meanRevert float64
}

// plantedBars concatenates segments into one bar series.
func plantedBars(seed uint64, start float64, segs ...segment) []Bar {
	r := rand.New(rand.NewPCG(seed, 11))
	var bars []Bar
	prev := start
	for _, sg := range segs {
		anchor := math.Log(prev)
		for i := 0; i < sg.n; i++ {
			lp := math.Log(prev)
			step := sg.drift + sg.vol*r.NormFloat64() - sg.meanRevert*(lp-anchor)
			open := prev
			c := math.Exp(lp + step)
			wick := func() float64 { return math.Abs(0.5 * sg.vol * r.NormFloat64()) }
			h := max(open, c) * (1 + wick())
			l := min(open, c) * (1 - math.Min(0.5, wick()))
			bars = append(bars, Bar{Open: toolkit.Float(open), High: toolkit.Float(h), Low: toolkit.Float(l),
				Close: toolkit.Float(c), Volume: toolkit.Float(1000 + 500*r.Float64())})
			prev = c
		}
	}
	return bars
}

// randomBars builds n seeded random-walk bars with per-bar volatility vol.
// Only +, *, / are used (normals by the Irwin-Hall sum of 12 uniforms), so
// the series is bit-identical on every platform.
func randomBars(seed uint64, n int, vol float64) []Bar {
	rng := rand.New(rand.NewPCG(seed, 99))
	normal := func() float64 {
		s := -6.0
		for range 12 {
			s += rng.Float64()
		}
		return s
	}
	bars := make([]Bar, n)
	p := 100.0
	for i := range bars {
		o := p * (1 + 0.3*vol*normal())
		c := o * (1 + vol*normal())
		h := max(o, c) * (1 + 0.5*vol*rng.Float64())
		l := min(o, c) * (1 - 0.5*vol*rng.Float64())
		bars[i] = Bar{Open: toolkit.Float(o), High: toolkit.Float(h), Low: toolkit.Float(l), Close: toolkit.Float(c),
			Volume: toolkit.Float(1000 + 10*float64(i%7))}
		p = c
	}
	return bars
}

// pathBars builds bars following the closes: each bar opens at the prior
// close (the first at its own close) with wicks of w beyond the body.
func pathBars(closes []float64, w float64) []Bar {
	bars := make([]Bar, len(closes))
	for i, c := range closes {
		o := c
		if i > 0 {
			o = closes[i-1]
		}
		bars[i] = Bar{Open: toolkit.Float(o), High: toolkit.Float(max(o, c) + w), Low: toolkit.Float(min(o, c) - w),
			Close: toolkit.Float(c), Volume: 1}
	}
	return bars
}

// linePath joins the (index, price) knots with straight lines.
func linePath(knots ...[2]float64) []float64 {
	var out []float64
	for j := 1; j < len(knots); j++ {
		a, b := knots[j-1], knots[j]
		steps := int(b[0] - a[0])
		for s := 0; s < steps; s++ {
			out = append(out, a[1]+(b[1]-a[1])*float64(s)/float64(steps))
		}
		if j == len(knots)-1 {
			out = append(out, b[1])
		}
	}
	return out
}

// ref returns a pointer to v, for an optional input.
func ref[T any](v T) *T { return &v }
