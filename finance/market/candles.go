package market

import "math"

// Candlestick recognition with TA-Lib CDL semantics (TA-Lib C 0.6.0-dev,
// default candle settings of ta_global.c). Each recogniser fills out[i]
// with TA-Lib's integer answer for bar i (as int8): 0 (no pattern), ±100, or ±80
// for the "matching on one end" variants of engulfing and harami. Slots
// before TA-Lib's lookback are 0, as TA-Lib emits nothing there. A
// recogniser needs more bars than its lookback (its const start), which
// candleRecogniser.answer checks once for all of them.
//
// The rolling averages reproduce TA-Lib's running sums term by term (same
// window, same summation order, same start index = lookback, and the update
// sum += (range(new) - range(old))), so the comparisons against the
// averages give the same answers as TA-Lib, bit for bit, on the same
// float64 inputs. The sums are plain local variables (kept in registers),
// which makes the recognisers several times faster than a struct-based
// running total.

// candleBars holds what the recognisers read: the OHLC columns and, per
// bar, the real body |close - open| (rb) and the range high - low (hl).
type candleBars struct {
	o, h, l, c []float64
	rb, hl     []float64
	col        []int8 // TA_CANDLECOLOR per bar (see color)
}

// newCandleBars shares the OHLC columns of b and computes the bodies and
// ranges in scratch memory.
func newCandleBars(s *scratch, b OHLCV) *candleBars {
	n := b.Len()
	buf := s.floats(2 * n)
	k := &candleBars{o: b.Open, h: b.High, l: b.Low, c: b.Close, rb: buf[:n:n], hl: buf[n:], col: s.int8s(n)}
	for i := range n {
		k.rb[i] = math.Abs(k.c[i] - k.o[i])
		k.hl[i] = k.h[i] - k.l[i]
		k.col[i] = int8(2*bit(k.c[i] >= k.o[i]) - 1)
	}
	return k
}

// candleRange is TA-Lib's TA_RangeType.
type candleRange uint8

const (
	rangeRealBody candleRange = iota // |close - open|
	rangeHighLow                     // high - low
	// TA-Lib's third type, Shadows (halved averages), is used by none of
	// the patterns mirrored here.
)

// candleSetting is one TA-Lib candle setting: the average of a range over
// the avgPeriod bars before the bar, times factor (period 0: the bar's own
// range times factor).
type candleSetting struct {
	kind   candleRange
	period int
	factor float64
}

// TA-Lib default candle settings (ta_global.c).
var (
	settingBodyLong  = candleSetting{rangeRealBody, 10, 1.0}
	settingBodyShort = candleSetting{rangeRealBody, 10, 1.0}
	settingBodyDoji  = candleSetting{rangeHighLow, 10, 0.1}
	// ShadowLong is {RealBody, 0, 1.0}: a shadow longer than the bar's own
	// body, written inline as "shadow > rb[i]".
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

// color is TA_CANDLECOLOR: 1 (white) when close >= open, else -1.
func (k *candleBars) color(i int) int { return int(k.col[i]) }

func (k *candleBars) upperShadow(i int) float64 {
	if k.c[i] >= k.o[i] {
		return k.h[i] - k.c[i]
	}
	return k.h[i] - k.o[i]
}

func (k *candleBars) lowerShadow(i int) float64 {
	if k.c[i] >= k.o[i] {
		return k.o[i] - k.l[i]
	}
	return k.c[i] - k.l[i]
}

// bodyTop and bodyBottom are fmax/fmin of open and close (prices are
// finite and positive, so a plain comparison is the same).
func (k *candleBars) bodyTop(i int) float64 {
	if k.o[i] > k.c[i] {
		return k.o[i]
	}
	return k.c[i]
}

func (k *candleBars) bodyBottom(i int) float64 {
	if k.o[i] < k.c[i] {
		return k.o[i]
	}
	return k.c[i]
}

// seedSum is TA-Lib's seeding loop: vals[from..to) summed in ascending
// order.
func seedSum(vals []float64, from, to int) float64 {
	s := 0.0
	for j := from; j < to; j++ {
		s += vals[j]
	}
	return s
}

// bit is 1 for true: ANDing bits instead of chaining && evaluates a group
// of cheap conditions without a branch each (random bars make such
// branches unpredictable), then one rarely-taken branch decides.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// avgOf is TA_CANDLEAVERAGE of a setting with a non-zero period:
// factor·(sum/period). The explicit conversion forbids a fused
// multiply-add (arm64), keeping TA-Lib's rounding. (With period 0, as for
// ShadowLong, the average is factor·range of the bar itself.)
func avgOf(s candleSetting, sum float64) float64 {
	return float64(s.factor * (sum / float64(s.period)))
}

// cdlEngulfing is TA_CDLENGULFING (lookback 2): ±100, or ±80 when the
// bodies match on one end.
func cdlEngulfing(k *candleBars, out []int8) {
	for i := 2; i < len(k.c); i++ {
		c1, c0 := k.color(i-1), k.color(i)
		white := bit(c0 == 1) & bit(c1 == -1) &
			(bit(k.c[i] >= k.o[i-1])&bit(k.o[i] < k.c[i-1]) | bit(k.c[i] > k.o[i-1])&bit(k.o[i] <= k.c[i-1]))
		black := bit(c0 == -1) & bit(c1 == 1) &
			(bit(k.o[i] >= k.c[i-1])&bit(k.c[i] < k.o[i-1]) | bit(k.o[i] > k.c[i-1])&bit(k.c[i] <= k.o[i-1]))
		switch {
		case white|black == 0:
			out[i] = 0
		case k.o[i] != k.c[i-1] && k.c[i] != k.o[i-1]:
			out[i] = int8(c0 * 100)
		default:
			out[i] = int8(c0 * 80)
		}
	}
}

// cdlHammer is TA_CDLHAMMER (lookback 11): small body, lower shadow longer
// than the body, very short upper shadow, body near or below the prior low.
// Conditions are ordered cheapest first (they have no side effects).
func cdlHammer(k *candleBars, out []int8) {
	const start = 11
	n := len(k.c)
	rb, hl := k.rb, k.hl
	body := seedSum(rb, start-10, start)
	vshort := seedSum(hl, start-10, start)
	near := seedSum(hl, start-1-5, start-1)
	for i := start; i < n; i++ {
		if bit(k.lowerShadow(i) > rb[i])&bit(k.upperShadow(i) < avgOf(settingShadowVeryShort, vshort)) != 0 &&
			rb[i] < avgOf(settingBodyShort, body) &&
			k.bodyBottom(i) <= k.l[i-1]+avgOf(settingNear, near) {
			out[i] = 100
		}
		body += rb[i] - rb[i-10]
		vshort += hl[i] - hl[i-10]
		near += hl[i-1] - hl[i-1-5]
	}
}

// cdlShootingStar is TA_CDLSHOOTINGSTAR (lookback 11): body gapping up from
// the prior body, small body, long upper shadow, very short lower shadow.
func cdlShootingStar(k *candleBars, out []int8) {
	const start = 11
	n := len(k.c)
	rb, hl := k.rb, k.hl
	body := seedSum(rb, start-10, start)
	vshort := seedSum(hl, start-10, start)
	for i := start; i < n; i++ {
		if bit(k.bodyBottom(i) > k.bodyTop(i-1))&bit(k.upperShadow(i) > rb[i]) != 0 &&
			k.lowerShadow(i) < avgOf(settingShadowVeryShort, vshort) &&
			rb[i] < avgOf(settingBodyShort, body) {
			out[i] = -100
		}
		body += rb[i] - rb[i-10]
		vshort += hl[i] - hl[i-10]
	}
}

// cdlDoji is TA_CDLDOJI (lookback 10): body at most 10 % of the average
// high-low range of the 10 prior bars. Always +100 (indecision).
func cdlDoji(k *candleBars, out []int8) {
	const start = 10
	n := len(k.c)
	rb, hl := k.rb, k.hl
	doji := seedSum(hl, 0, start)
	for i := start; i < n; i++ {
		if rb[i] <= avgOf(settingBodyDoji, doji) {
			out[i] = 100
		}
		doji += hl[i] - hl[i-10]
	}
}

// cdlStar is TA_CDLMORNINGSTAR (sign +1) and TA_CDLEVENINGSTAR (sign -1),
// lookback 12, penetration 0.3: long first body against the move, short
// star gapping away, third body of the opposite colour closing well inside
// the first body.
func cdlStar(k *candleBars, out []int8, sign int) {
	const start = 12
	n := len(k.c)
	rb := k.rb
	long := seedSum(rb, start-2-10, start-2)
	short1 := seedSum(rb, start-1-10, start-1)
	short0 := seedSum(rb, start-10, start)
	for i := start; i < n; i++ {
		var shape int
		if sign > 0 {
			shape = bit(k.color(i-2) == -1) & bit(k.color(i) == 1) &
				bit(k.bodyTop(i-1) < k.bodyBottom(i-2)) &
				bit(k.c[i] > k.c[i-2]+float64(rb[i-2]*starPenetration))
		} else {
			shape = bit(k.color(i-2) == 1) & bit(k.color(i) == -1) &
				bit(k.bodyBottom(i-1) > k.bodyTop(i-2)) &
				bit(k.c[i] < k.c[i-2]-float64(rb[i-2]*starPenetration))
		}
		if shape != 0 &&
			rb[i-2] > avgOf(settingBodyLong, long) &&
			rb[i-1] <= avgOf(settingBodyShort, short1) &&
			rb[i] > avgOf(settingBodyShort, short0) {
			out[i] = int8(sign * 100)
		}
		long += rb[i-2] - rb[i-2-10]
		short1 += rb[i-1] - rb[i-1-10]
		short0 += rb[i] - rb[i-10]
	}
}

// cdlSoldiers is TA_CDL3WHITESOLDIERS (lookback 12): three white candles
// with higher closes, very short upper shadows, each opening within or
// near the prior body and not far shorter than it, the last not short.
func cdlSoldiers(k *candleBars, out []int8) {
	const start = 12
	n := len(k.c)
	rb, hl, o, c := k.rb, k.hl, k.o, k.c
	vs2, vs1, vs0 := seedSum(hl, start-2-10, start-2), seedSum(hl, start-1-10, start-1), seedSum(hl, start-10, start)
	near2, near1 := seedSum(hl, start-2-5, start-2), seedSum(hl, start-1-5, start-1)
	far2, far1 := near2, near1 // same range, window and seeding as Near
	short := seedSum(rb, start-10, start)
	for i := start; i < n; i++ {
		if bit(k.color(i-2) == 1)&bit(k.color(i-1) == 1)&bit(k.color(i) == 1)&
			bit(c[i] > c[i-1])&bit(c[i-1] > c[i-2])&
			bit(o[i-1] > o[i-2])&bit(o[i] > o[i-1]) != 0 &&
			k.upperShadow(i-2) < avgOf(settingShadowVeryShort, vs2) &&
			k.upperShadow(i-1) < avgOf(settingShadowVeryShort, vs1) &&
			k.upperShadow(i) < avgOf(settingShadowVeryShort, vs0) &&
			o[i-1] <= c[i-2]+avgOf(settingNear, near2) &&
			o[i] <= c[i-1]+avgOf(settingNear, near1) &&
			rb[i-1] > rb[i-2]-avgOf(settingFar, far2) &&
			rb[i] > rb[i-1]-avgOf(settingFar, far1) &&
			rb[i] > avgOf(settingBodyShort, short) {
			out[i] = 100
		}
		vs2 += hl[i-2] - hl[i-2-10]
		vs1 += hl[i-1] - hl[i-1-10]
		vs0 += hl[i] - hl[i-10]
		far2 += hl[i-2] - hl[i-2-5]
		near2 += hl[i-2] - hl[i-2-5]
		far1 += hl[i-1] - hl[i-1-5]
		near1 += hl[i-1] - hl[i-1-5]
		short += rb[i] - rb[i-10]
	}
}

// cdlCrows is TA_CDL3BLACKCROWS (lookback 13): a white candle, then three
// declining black candles with very short lower shadows, each opening
// inside the prior body, the first closing under the white candle's high.
func cdlCrows(k *candleBars, out []int8) {
	const start = 13
	n := len(k.c)
	hl, o, c := k.hl, k.o, k.c
	vs2, vs1, vs0 := seedSum(hl, start-2-10, start-2), seedSum(hl, start-1-10, start-1), seedSum(hl, start-10, start)
	for i := start; i < n; i++ {
		if bit(k.color(i-3) == 1)&bit(k.color(i-2) == -1)&bit(k.color(i-1) == -1)&bit(k.color(i) == -1)&
			bit(o[i-1] < o[i-2])&bit(o[i-1] > c[i-2])&
			bit(o[i] < o[i-1])&bit(o[i] > c[i-1])&
			bit(k.h[i-3] > c[i-2])&
			bit(c[i-2] > c[i-1])&bit(c[i-1] > c[i]) != 0 &&
			k.lowerShadow(i-2) < avgOf(settingShadowVeryShort, vs2) &&
			k.lowerShadow(i-1) < avgOf(settingShadowVeryShort, vs1) &&
			k.lowerShadow(i) < avgOf(settingShadowVeryShort, vs0) {
			out[i] = -100
		}
		vs2 += hl[i-2] - hl[i-2-10]
		vs1 += hl[i-1] - hl[i-1-10]
		vs0 += hl[i] - hl[i-10]
	}
}

// cdlHarami is TA_CDLHARAMI (lookback 11): a long body followed by a short
// body inside it; ±100, or ±80 when the bodies match on one end. The sign
// is opposite to the first candle's colour.
func cdlHarami(k *candleBars, out []int8) {
	const start = 11
	n := len(k.c)
	rb := k.rb
	long := seedSum(rb, start-1-10, start-1)
	short := seedSum(rb, start-10, start)
	for i := start; i < n; i++ {
		if bit(rb[i-1] > avgOf(settingBodyLong, long))&bit(rb[i] <= avgOf(settingBodyShort, short)) != 0 {
			top, bot, ptop, pbot := k.bodyTop(i), k.bodyBottom(i), k.bodyTop(i-1), k.bodyBottom(i-1)
			switch {
			case top < ptop && bot > pbot:
				out[i] = int8(-k.color(i-1) * 100)
			case top <= ptop && bot >= pbot:
				out[i] = int8(-k.color(i-1) * 80)
			}
		}
		long += rb[i-1] - rb[i-1-10]
		short += rb[i] - rb[i-10]
	}
}

// cdlPiercing is TA_CDLPIERCING (lookback 11): a long black candle, then a
// long white candle opening below its low and closing above the midpoint
// of its body but below its open.
func cdlPiercing(k *candleBars, out []int8) {
	const start = 11
	n := len(k.c)
	rb := k.rb
	long1 := seedSum(rb, start-1-10, start-1)
	long0 := seedSum(rb, start-10, start)
	for i := start; i < n; i++ {
		if bit(k.color(i-1) == -1)&bit(k.color(i) == 1)&
			bit(k.o[i] < k.l[i-1])&bit(k.c[i] < k.o[i-1])&
			bit(k.c[i] > k.c[i-1]+float64(rb[i-1]*0.5)) != 0 &&
			rb[i-1] > avgOf(settingBodyLong, long1) &&
			rb[i] > avgOf(settingBodyLong, long0) {
			out[i] = 100
		}
		long1 += rb[i-1] - rb[i-1-10]
		long0 += rb[i] - rb[i-10]
	}
}

// cdlDarkCloud is TA_CDLDARKCLOUDCOVER (lookback 11, penetration 0.5): a
// long white candle, then a black candle opening above its high and
// closing below the midpoint of its body but above its open.
func cdlDarkCloud(k *candleBars, out []int8) {
	const start = 11
	n := len(k.c)
	rb := k.rb
	long := seedSum(rb, start-1-10, start-1)
	for i := start; i < n; i++ {
		if bit(k.color(i-1) == 1)&bit(k.color(i) == -1)&
			bit(k.o[i] > k.h[i-1])&bit(k.c[i] > k.o[i-1])&
			bit(k.c[i] < k.c[i-1]-float64(rb[i-1]*darkCloudPenetration)) != 0 &&
			rb[i-1] > avgOf(settingBodyLong, long) {
			out[i] = -100
		}
		long += rb[i-1] - rb[i-1-10]
	}
}
