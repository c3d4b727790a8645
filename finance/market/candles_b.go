package market

import "math"

// Candlestick recognition with TA-Lib CDL semantics (TA-Lib C 0.6.0-dev,
// default candle settings of ta_global.c). Each recogniser fills out[i]
// with TA-Lib's integer answer for bar i: 0 (no pattern), ±100, or ±80
// for the "matching on one end" variants of engulfing and harami. Slots
// before TA-Lib's lookback are 0, as TA-Lib emits nothing there.
//
// The rolling averages reproduce TA-Lib's running sums term by term (same
// window, same summation order, same start index = lookback), so the
// comparisons against the averages give the same answers as TA-Lib, bit
// for bit, on the same float64 inputs.

// candleRange is TA-Lib's TA_RangeType.
type candleRange uint8

const (
	rangeRealBody candleRange = iota // |close - open|
	rangeHighLow                     // high - low
	rangeShadows                     // upper shadow + lower shadow
)

// candleSetting is one TA-Lib candle setting: the average of a range over
// the avgPeriod bars before the bar, times factor (period 0: the bar's own
// range times factor; Shadows averages are halved).
type candleSetting struct {
	kind   candleRange
	period int
	factor float64
}

// TA-Lib default candle settings (ta_global.c).
var (
	settingBodyLong        = candleSetting{rangeRealBody, 10, 1.0}
	settingBodyShort       = candleSetting{rangeRealBody, 10, 1.0}
	settingBodyDoji        = candleSetting{rangeHighLow, 10, 0.1}
	settingShadowLong      = candleSetting{rangeRealBody, 0, 1.0}
	settingShadowVeryShort = candleSetting{rangeHighLow, 10, 0.1}
	settingNear            = candleSetting{rangeHighLow, 5, 0.2}
	settingFar             = candleSetting{rangeHighLow, 5, 0.6}
)

// Penetration defaults of CDLMORNINGSTAR/CDLEVENINGSTAR (0.3) and
// CDLDARKCLOUDCOVER (0.5); CDLPIERCING uses a fixed 0.5.
const (
	starPenetration      = 0.3
	darkCloudPenetration = 0.5
)

func (k ohlcB) body(i int) float64 { return math.Abs(k.c[i] - k.o[i]) }

// color is TA_CANDLECOLOR: 1 (white) when close >= open, else -1.
func (k ohlcB) color(i int) int {
	if k.c[i] >= k.o[i] {
		return 1
	}
	return -1
}

func (k ohlcB) upperShadow(i int) float64 {
	if k.c[i] >= k.o[i] {
		return k.h[i] - k.c[i]
	}
	return k.h[i] - k.o[i]
}

func (k ohlcB) lowerShadow(i int) float64 {
	if k.c[i] >= k.o[i] {
		return k.o[i] - k.l[i]
	}
	return k.c[i] - k.l[i]
}

func (k ohlcB) bodyTop(i int) float64    { return math.Max(k.o[i], k.c[i]) }
func (k ohlcB) bodyBottom(i int) float64 { return math.Min(k.o[i], k.c[i]) }

// rangeOf is TA_CANDLERANGE.
func (k ohlcB) rangeOf(s candleSetting, i int) float64 {
	switch s.kind {
	case rangeRealBody:
		return k.body(i)
	case rangeHighLow:
		return k.h[i] - k.l[i]
	default:
		return k.upperShadow(i) + k.lowerShadow(i)
	}
}

// average is TA_CANDLEAVERAGE(setting, sum, i).
func (k ohlcB) average(s candleSetting, sum float64, i int) float64 {
	var v float64
	if s.period != 0 {
		v = sum / float64(s.period)
	} else {
		v = k.rangeOf(s, i)
	}
	// Explicit conversions forbid fused multiply-adds (arm64), keeping the
	// rounding of every step identical to TA-Lib's C.
	v = float64(s.factor * v)
	if s.kind == rangeShadows {
		v /= 2
	}
	return v
}

// runningTotal is a TA-Lib period total for the bar at offset off behind
// the current bar: the sum of the setting's range over the period bars
// before bar i-off.
type runningTotal struct {
	s   candleSetting
	off int
	sum float64
}

// newTotal seeds the total for the first evaluated bar start, summing in
// ascending order as TA-Lib does.
func newTotal(k ohlcB, s candleSetting, start, off int) runningTotal {
	t := runningTotal{s: s, off: off}
	for j := start - off - s.period; j < start-off; j++ {
		t.sum += k.rangeOf(s, j)
	}
	return t
}

// avg is the setting's average for the bar i-off while bar i is evaluated.
func (t *runningTotal) avg(k ohlcB, i int) float64 { return k.average(t.s, t.sum, i-t.off) }

// next moves the window on after bar i was evaluated.
func (t *runningTotal) next(k ohlcB, i int) {
	t.sum += k.rangeOf(t.s, i-t.off) - k.rangeOf(t.s, i-t.off-t.s.period)
}

// cdlEngulfing is TA_CDLENGULFING (lookback 2): ±100, or ±80 when the
// bodies match on one end.
func cdlEngulfing(k ohlcB, out []int) {
	for i := 2; i < len(k.c); i++ {
		c1, c0 := k.color(i-1), k.color(i)
		white := c0 == 1 && c1 == -1 &&
			(k.c[i] >= k.o[i-1] && k.o[i] < k.c[i-1] || k.c[i] > k.o[i-1] && k.o[i] <= k.c[i-1])
		black := c0 == -1 && c1 == 1 &&
			(k.o[i] >= k.c[i-1] && k.c[i] < k.o[i-1] || k.o[i] > k.c[i-1] && k.c[i] <= k.o[i-1])
		switch {
		case !white && !black:
			out[i] = 0
		case k.o[i] != k.c[i-1] && k.c[i] != k.o[i-1]:
			out[i] = c0 * 100
		default:
			out[i] = c0 * 80
		}
	}
}

// cdlHammer is TA_CDLHAMMER (lookback 11): small body, lower shadow longer
// than the body, very short upper shadow, body near or below the prior low.
func cdlHammer(k ohlcB, out []int) {
	const start = 11
	if len(k.c) <= start {
		return
	}
	body := newTotal(k, settingBodyShort, start, 0)
	long := newTotal(k, settingShadowLong, start, 0)
	vshort := newTotal(k, settingShadowVeryShort, start, 0)
	near := newTotal(k, settingNear, start, 1)
	for i := start; i < len(k.c); i++ {
		if k.body(i) < body.avg(k, i) &&
			k.lowerShadow(i) > long.avg(k, i) &&
			k.upperShadow(i) < vshort.avg(k, i) &&
			k.bodyBottom(i) <= k.l[i-1]+near.avg(k, i) {
			out[i] = 100
		}
		body.next(k, i)
		long.next(k, i)
		vshort.next(k, i)
		near.next(k, i)
	}
}

// cdlShootingStar is TA_CDLSHOOTINGSTAR (lookback 11): body gapping up from
// the prior body, small body, long upper shadow, very short lower shadow.
func cdlShootingStar(k ohlcB, out []int) {
	const start = 11
	if len(k.c) <= start {
		return
	}
	body := newTotal(k, settingBodyShort, start, 0)
	long := newTotal(k, settingShadowLong, start, 0)
	vshort := newTotal(k, settingShadowVeryShort, start, 0)
	for i := start; i < len(k.c); i++ {
		if k.bodyBottom(i) > k.bodyTop(i-1) &&
			k.body(i) < body.avg(k, i) &&
			k.upperShadow(i) > long.avg(k, i) &&
			k.lowerShadow(i) < vshort.avg(k, i) {
			out[i] = -100
		}
		body.next(k, i)
		long.next(k, i)
		vshort.next(k, i)
	}
}

// cdlDoji is TA_CDLDOJI (lookback 10): body at most 10 % of the average
// high-low range of the 10 prior bars. Always +100 (indecision).
func cdlDoji(k ohlcB, out []int) {
	const start = 10
	if len(k.c) <= start {
		return
	}
	doji := newTotal(k, settingBodyDoji, start, 0)
	for i := start; i < len(k.c); i++ {
		if k.body(i) <= doji.avg(k, i) {
			out[i] = 100
		}
		doji.next(k, i)
	}
}

// cdlStar is TA_CDLMORNINGSTAR (sign +1) and TA_CDLEVENINGSTAR (sign -1),
// lookback 12, penetration 0.3: long first body against the move, short
// star gapping away, third body of the opposite colour closing well inside
// the first body.
func cdlStar(k ohlcB, out []int, sign int) {
	const start = 12
	if len(k.c) <= start {
		return
	}
	long := newTotal(k, settingBodyLong, start, 2)
	short1 := newTotal(k, settingBodyShort, start, 1)
	short0 := newTotal(k, settingBodyShort, start, 0)
	for i := start; i < len(k.c); i++ {
		var shape bool
		if sign > 0 {
			shape = k.color(i-2) == -1 && k.color(i) == 1 &&
				k.bodyTop(i-1) < k.bodyBottom(i-2) &&
				k.c[i] > k.c[i-2]+float64(k.body(i-2)*starPenetration)
		} else {
			shape = k.color(i-2) == 1 && k.color(i) == -1 &&
				k.bodyBottom(i-1) > k.bodyTop(i-2) &&
				k.c[i] < k.c[i-2]-float64(k.body(i-2)*starPenetration)
		}
		if shape &&
			k.body(i-2) > long.avg(k, i) &&
			k.body(i-1) <= short1.avg(k, i) &&
			k.body(i) > short0.avg(k, i) {
			out[i] = sign * 100
		}
		long.next(k, i)
		short1.next(k, i)
		short0.next(k, i)
	}
}

// cdlSoldiers is TA_CDL3WHITESOLDIERS (lookback 12): three white candles
// with higher closes, very short upper shadows, each opening within or
// near the prior body and not far shorter than it, the last not short.
func cdlSoldiers(k ohlcB, out []int) {
	const start = 12
	if len(k.c) <= start {
		return
	}
	var vs, near, far [3]runningTotal
	for t := 2; t >= 0; t-- {
		vs[t] = newTotal(k, settingShadowVeryShort, start, t)
	}
	for t := 2; t >= 1; t-- {
		near[t] = newTotal(k, settingNear, start, t)
		far[t] = newTotal(k, settingFar, start, t)
	}
	short := newTotal(k, settingBodyShort, start, 0)
	for i := start; i < len(k.c); i++ {
		if k.color(i-2) == 1 && k.upperShadow(i-2) < vs[2].avg(k, i) &&
			k.color(i-1) == 1 && k.upperShadow(i-1) < vs[1].avg(k, i) &&
			k.color(i) == 1 && k.upperShadow(i) < vs[0].avg(k, i) &&
			k.c[i] > k.c[i-1] && k.c[i-1] > k.c[i-2] &&
			k.o[i-1] > k.o[i-2] && k.o[i-1] <= k.c[i-2]+near[2].avg(k, i) &&
			k.o[i] > k.o[i-1] && k.o[i] <= k.c[i-1]+near[1].avg(k, i) &&
			k.body(i-1) > k.body(i-2)-far[2].avg(k, i) &&
			k.body(i) > k.body(i-1)-far[1].avg(k, i) &&
			k.body(i) > short.avg(k, i) {
			out[i] = 100
		}
		for t := 2; t >= 0; t-- {
			vs[t].next(k, i)
		}
		for t := 2; t >= 1; t-- {
			far[t].next(k, i)
			near[t].next(k, i)
		}
		short.next(k, i)
	}
}

// cdlCrows is TA_CDL3BLACKCROWS (lookback 13): a white candle, then three
// declining black candles with very short lower shadows, each opening
// inside the prior body, the first closing under the white candle's high.
func cdlCrows(k ohlcB, out []int) {
	const start = 13
	if len(k.c) <= start {
		return
	}
	var vs [3]runningTotal
	for t := 2; t >= 0; t-- {
		vs[t] = newTotal(k, settingShadowVeryShort, start, t)
	}
	for i := start; i < len(k.c); i++ {
		if k.color(i-3) == 1 && k.color(i-2) == -1 && k.color(i-1) == -1 && k.color(i) == -1 &&
			k.o[i-1] < k.o[i-2] && k.o[i-1] > k.c[i-2] &&
			k.o[i] < k.o[i-1] && k.o[i] > k.c[i-1] &&
			k.h[i-3] > k.c[i-2] &&
			k.c[i-2] > k.c[i-1] && k.c[i-1] > k.c[i] &&
			k.lowerShadow(i-2) < vs[2].avg(k, i) &&
			k.lowerShadow(i-1) < vs[1].avg(k, i) &&
			k.lowerShadow(i) < vs[0].avg(k, i) {
			out[i] = -100
		}
		for t := 2; t >= 0; t-- {
			vs[t].next(k, i)
		}
	}
}

// cdlHarami is TA_CDLHARAMI (lookback 11): a long body followed by a short
// body inside it; ±100, or ±80 when the bodies match on one end. The sign
// is opposite to the first candle's colour.
func cdlHarami(k ohlcB, out []int) {
	const start = 11
	if len(k.c) <= start {
		return
	}
	long := newTotal(k, settingBodyLong, start, 1)
	short := newTotal(k, settingBodyShort, start, 0)
	for i := start; i < len(k.c); i++ {
		if k.body(i-1) > long.avg(k, i) && k.body(i) <= short.avg(k, i) {
			top, bot, ptop, pbot := k.bodyTop(i), k.bodyBottom(i), k.bodyTop(i-1), k.bodyBottom(i-1)
			switch {
			case top < ptop && bot > pbot:
				out[i] = -k.color(i-1) * 100
			case top <= ptop && bot >= pbot:
				out[i] = -k.color(i-1) * 80
			}
		}
		long.next(k, i)
		short.next(k, i)
	}
}

// cdlPiercing is TA_CDLPIERCING (lookback 11): a long black candle, then a
// long white candle opening below its low and closing above the midpoint
// of its body but below its open.
func cdlPiercing(k ohlcB, out []int) {
	const start = 11
	if len(k.c) <= start {
		return
	}
	long1 := newTotal(k, settingBodyLong, start, 1)
	long0 := newTotal(k, settingBodyLong, start, 0)
	for i := start; i < len(k.c); i++ {
		if k.color(i-1) == -1 && k.body(i-1) > long1.avg(k, i) &&
			k.color(i) == 1 && k.body(i) > long0.avg(k, i) &&
			k.o[i] < k.l[i-1] && k.c[i] < k.o[i-1] &&
			k.c[i] > k.c[i-1]+float64(k.body(i-1)*0.5) {
			out[i] = 100
		}
		long1.next(k, i)
		long0.next(k, i)
	}
}

// cdlDarkCloud is TA_CDLDARKCLOUDCOVER (lookback 11, penetration 0.5): a
// long white candle, then a black candle opening above its high and
// closing below the midpoint of its body but above its open.
func cdlDarkCloud(k ohlcB, out []int) {
	const start = 11
	if len(k.c) <= start {
		return
	}
	long := newTotal(k, settingBodyLong, start, 1)
	for i := start; i < len(k.c); i++ {
		if k.color(i-1) == 1 && k.body(i-1) > long.avg(k, i) &&
			k.color(i) == -1 && k.o[i] > k.h[i-1] && k.c[i] > k.o[i-1] &&
			k.c[i] < k.c[i-1]-float64(k.body(i-1)*darkCloudPenetration) {
			out[i] = -100
		}
		long.next(k, i)
	}
}
