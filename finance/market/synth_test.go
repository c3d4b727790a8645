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
