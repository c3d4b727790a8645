package market

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Chart patterns of detect_patterns. Every threshold is in units of the
// range scale (ATR14, see rangeScale) so the rules do not depend on the
// price level. Swing points use the Williams fractal (2 bars each side);
// a swing-based pattern is reported at the bar that confirms it, so the
// answer for a bar never changes when later bars arrive.

// Chart-pattern parameters.
const (
	maFast              = 10 // fast SMA of the crossover
	maSlow              = 30 // slow SMA of the crossover
	maSlopeBars         = 5  // slow-SMA slope window for the crossover grade
	divergenceRSIPeriod = 14 // RSI period of the divergences
	divergenceMinBars   = 5  // fewest bars between the two swings
	divergenceMaxBars   = 40 // most bars between the two swings
	patternSwingWindow  = 2  // fractal half-window of the swing points
	doubleMinBars       = 5  // fewest bars between the two peaks
	doubleMaxBars       = 60 // most bars between the two peaks; also the confirmation horizon
	doubleTolerance     = 0.5
	doubleMinDepth      = 1.0
)

// appendBreakouts reports the first close above the highest high (breakout)
// or below the lowest low (breakdown) of the previous period bars. A bar
// whose previous bar already broke out is not reported again. Strength =
// 50 + 50·(distance beyond the level)/ATR, clamped to 0..100.
func appendBreakouts(s *scratch, ps []Pattern, b OHLCV, scale []float64, period int) []Pattern {
	prevUp, prevDown := false, false
	mx, mn := windowExtremes(s, b.High, b.Low, period)
	for i := period; i < b.Len(); i++ {
		hi, lo := mx[i-1], mn[i-1] // the period bars before i
		up, down := b.Close[i] > hi, b.Close[i] < lo
		if up && !prevUp {
			ps = append(ps, Pattern{Index: i, StartIndex: i - period, Name: "breakout", Type: PatternChart,
				Direction: PatternBullish, Strength: patternStrength(50 + 50*(b.Close[i]-hi)/scale[i]), Level: toolkit.Float(hi)})
		}
		if down && !prevDown {
			ps = append(ps, Pattern{Index: i, StartIndex: i - period, Name: "breakdown", Type: PatternChart,
				Direction: PatternBearish, Strength: patternStrength(50 + 50*(lo-b.Close[i])/scale[i]), Level: toolkit.Float(lo)})
		}
		prevUp, prevDown = up, down
	}
	return ps
}

// appendCrossovers reports SMA(10) crossing SMA(30) of the close: the first
// bar whose (fast - slow) sign differs from the last non-zero sign.
// Strength = 50, +25 when the close is beyond both averages in the cross
// direction, +25 when the slow SMA moved in that direction over 5 bars.
func appendCrossovers(s *scratch, ps []Pattern, close []float64) []Pattern {
	fastS, _ := SMAInto(s.floats(len(close)), close, maFast) // constant, valid periods: no error
	slowS, _ := SMAInto(s.floats(len(close)), close, maSlow)
	if len(slowS.Values) == 0 {
		return ps
	}
	// fast[j] and slow[j] are the averages at bar j + maSlow - 1.
	fast, slow := fastS.Values[slowS.First-fastS.First:], slowS.Values
	last := 0
	for j := range slow {
		i := j + slowS.First
		d := fast[j] - slow[j]
		sign := 0
		switch {
		case d > 0:
			sign = 1
		case d < 0:
			sign = -1
		}
		if sign == 0 {
			continue
		}
		if last != 0 && sign != last {
			s := 50
			if float64(sign)*(close[i]-fast[j]) > 0 && float64(sign)*(close[i]-slow[j]) > 0 {
				s += 25
			}
			if j >= maSlopeBars && float64(sign)*(slow[j]-slow[j-maSlopeBars]) > 0 {
				s += 25
			}
			p := Pattern{Index: i, StartIndex: i - 1, Type: PatternChart, Strength: s, Level: toolkit.Float(slow[j])}
			if sign > 0 {
				p.Name, p.Direction = "bullish_ma_crossover", PatternBullish
			} else {
				p.Name, p.Direction = "bearish_ma_crossover", PatternBearish
			}
			ps = append(ps, p)
		}
		last = sign
	}
	return ps
}

// swingPoints returns the fractal swing highs of hi and swing lows of lo
// with w bars each side: hi[t] strictly above the w highs before and at
// least the w highs after (so a flat top is taken at its first bar), and
// lo[t] mirrored. A swing at t is confirmed at bar t+w.
//
// With the window extremes of w bars (windowExtremes) the test is two
// comparisons per bar: hi[t] > max(hi[t-w..t-1]) and hi[t] >=
// max(hi[t+1..t+w]). Two swings of one kind are more than w bars apart
// (each would have to be beyond the other), so each answer is allocated
// once.
func swingPoints(s *scratch, hi, lo []float64, w int) (highs, lows []int) {
	n := len(hi)
	highs, lows = make([]int, 0, n/(w+1)+1), make([]int, 0, n/(w+1)+1)
	mx, mn := windowExtremes(s, hi, lo, w)
	for t := w; t+w < n; t++ {
		if bit(hi[t] > mx[t-1])&bit(hi[t] >= mx[t+w]) != 0 {
			highs = append(highs, t)
		}
		if bit(lo[t] < mn[t-1])&bit(lo[t] <= mn[t+w]) != 0 {
			lows = append(lows, t)
		}
	}
	return highs, lows
}

// appendDivergences reports regular RSI(14) divergences between two
// consecutive swing lows (highs) 5..40 bars apart: price makes a lower low
// (higher high) while RSI makes a higher low (lower high), with the first
// RSI reading below (above) 50. Reported at the bar confirming the second
// swing. Strength = 40 + 2·|RSI difference|, clamped to 0..100.
func appendDivergences(s *scratch, ps []Pattern, b OHLCV, swingHighs, swingLows []int) []Pattern {
	rsiS, _ := RSIInto(s.floats(b.Len()), b.Close, divergenceRSIPeriod) // constant, valid period: no error
	rsi := func(t int) float64 { return rsiS.Values[t-rsiS.First] }
	w := patternSwingWindow
	check := func(sw []int, x []float64, bullish bool) {
		for j := 1; j < len(sw); j++ {
			t1, t2 := sw[j-1], sw[j]
			if t1 < divergenceRSIPeriod || t2-t1 < divergenceMinBars || t2-t1 > divergenceMaxBars {
				continue
			}
			var ok bool
			if bullish {
				ok = x[t2] < x[t1] && rsi(t2) > rsi(t1) && rsi(t1) < 50
			} else {
				ok = x[t2] > x[t1] && rsi(t2) < rsi(t1) && rsi(t1) > 50
			}
			if !ok {
				continue
			}
			p := Pattern{Index: t2 + w, StartIndex: t1, Type: PatternChart, Level: toolkit.Float(x[t2]),
				Strength: patternStrength(40 + 2*math.Abs(rsi(t2)-rsi(t1)))}
			if bullish {
				p.Name, p.Direction = "bullish_rsi_divergence", PatternBullish
			} else {
				p.Name, p.Direction = "bearish_rsi_divergence", PatternBearish
			}
			ps = append(ps, p)
		}
	}
	check(swingLows, b.Low, true)
	check(swingHighs, b.High, false)
	return ps
}

// appendGaps reports price gaps: low[i] > high[i-1] (gap_up) or
// high[i] < low[i-1] (gap_down). Level is the edge of the prior bar;
// strength = 100·gap/ATR, clamped to 0..100.
func appendGaps(ps []Pattern, b OHLCV, scale []float64) []Pattern {
	for i := 1; i < b.Len(); i++ {
		switch {
		case b.Low[i] > b.High[i-1]:
			ps = append(ps, Pattern{Index: i, StartIndex: i - 1, Name: "gap_up", Type: PatternChart, Direction: PatternBullish,
				Strength: patternStrength(100 * (b.Low[i] - b.High[i-1]) / scale[i-1]), Level: toolkit.Float(b.High[i-1])})
		case b.High[i] < b.Low[i-1]:
			ps = append(ps, Pattern{Index: i, StartIndex: i - 1, Name: "gap_down", Type: PatternChart, Direction: PatternBearish,
				Strength: patternStrength(100 * (b.Low[i-1] - b.High[i]) / scale[i-1]), Level: toolkit.Float(b.Low[i-1])})
		}
	}
	return ps
}

// appendDoubles reports double tops (bottoms): two consecutive swing highs
// (lows) 5..60 bars apart whose prices differ by at most 0.5·ATR, with a
// trough (peak) between them at least 1·ATR away from the nearer extreme
// (ATR at the second swing). The pattern is confirmed by the first close
// beyond that trough (the neckline) from the bar confirming the second
// swing up to 60 bars after it, unless a close beyond the farther extreme
// comes first. Strength = 60 + 40·min(1, depth/(3·ATR)).
func appendDoubles(ps []Pattern, b OHLCV, scale []float64, swingHighs, swingLows []int) []Pattern {
	w := patternSwingWindow
	find := func(sw []int, top bool) {
		for j := 1; j < len(sw); j++ {
			p1, p2 := sw[j-1], sw[j]
			if p2-p1 < doubleMinBars || p2-p1 > doubleMaxBars {
				continue
			}
			atr := scale[p2]
			var e1, e2 float64
			if top {
				e1, e2 = b.High[p1], b.High[p2]
			} else {
				e1, e2 = b.Low[p1], b.Low[p2]
			}
			if math.Abs(e1-e2) > doubleTolerance*atr {
				continue
			}
			neck := b.Low[p1]
			if !top {
				neck = b.High[p1]
			}
			for t := p1 + 1; t < p2; t++ {
				if top {
					neck = min(neck, b.Low[t])
				} else {
					neck = max(neck, b.High[t])
				}
			}
			depth := min(e1, e2) - neck
			far := max(e1, e2)
			if !top {
				depth = neck - max(e1, e2)
				far = min(e1, e2)
			}
			if depth < doubleMinDepth*atr {
				continue
			}
			for i := p2 + 1; i < b.Len() && i <= p2+doubleMaxBars; i++ {
				if top && b.Close[i] > far || !top && b.Close[i] < far {
					break // invalidated: a new extreme
				}
				if i < p2+w {
					continue
				}
				if top && b.Close[i] < neck || !top && b.Close[i] > neck {
					p := Pattern{Index: i, StartIndex: p1, Type: PatternChart, Level: toolkit.Float(neck),
						Strength: patternStrength(60 + 40*min(1, depth/(3*atr)))}
					if top {
						p.Name, p.Direction = "double_top", PatternBearish
					} else {
						p.Name, p.Direction = "double_bottom", PatternBullish
					}
					ps = append(ps, p)
					break
				}
			}
		}
	}
	find(swingHighs, true)
	find(swingLows, false)
	return ps
}
