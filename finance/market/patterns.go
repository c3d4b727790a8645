package market

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// PatternsMinBars is the fewest bars detect_patterns analyses; below it the
// tool answers insufficient_bars.
const PatternsMinBars = 35

// DefaultBreakoutPeriod is the breakout period of detect_patterns when none
// is given.
const DefaultBreakoutPeriod = 20

// Pattern vocabulary.
const (
	PatternCandlestick = "candlestick"
	PatternChart       = "chart"
	PatternBullish     = "bullish"
	PatternBearish     = "bearish"
	PatternNeutral     = "neutral"
	TrendContextUp     = "uptrend"
	TrendContextDown   = "downtrend"
	TrendContextNone   = "none"
)

// PatternOptions tunes detect_patterns. A nil option takes its default.
type PatternOptions struct {
	// BreakoutPeriod is N of the N-bar range whose break is a breakout or
	// breakdown (default 20, allowed 5..100).
	BreakoutPeriod *int
}

// Pattern is one candlestick or chart pattern found in the bars.
type Pattern struct {
	// Index is the bar at which the pattern is complete and known (for
	// swing-based patterns: the bar that confirms it, never earlier).
	Index int `json:"index"`
	// StartIndex is the first bar the pattern spans.
	StartIndex int    `json:"start_index"`
	Name       string `json:"name"`
	Type       string `json:"type"`      // candlestick | chart
	Direction  string `json:"direction"` // bullish | bearish | neutral
	// Strength is 0..100; see docs/tools/detect_patterns.md for each pattern.
	Strength int `json:"strength"`
	// TALibValue is the raw TA-Lib CDL answer (±100, ±80) of a
	// candlestick; absent for chart patterns.
	TALibValue int `json:"talib_value,omitempty"`
	// TrendContext is the trend before a candlestick pattern:
	// uptrend | downtrend | none.
	TrendContext string `json:"trend_context,omitempty"`
	// Level is the price level of a chart pattern: the broken range edge,
	// the gap edge, the neckline of a double top/bottom, the slow SMA of a
	// crossover, the second swing price of a divergence; absent for
	// candlesticks.
	Level toolkit.Float `json:"level,omitempty"`
}

// PatternSummary counts the patterns found.
type PatternSummary struct {
	Candlestick int `json:"candlestick"`
	Chart       int `json:"chart"`
	Bullish     int `json:"bullish"`
	Bearish     int `json:"bearish"`
	Neutral     int `json:"neutral"`
	// RecentBias is the sign of the summed strengths (bullish +, bearish -)
	// of the patterns in the last RecentWindow bars.
	RecentBias   string `json:"recent_bias"`
	RecentWindow int    `json:"recent_window"`
}

// PatternReport is the result of detect_patterns.
type PatternReport struct {
	BarsAnalyzed   int            `json:"bars_analyzed"`
	BreakoutPeriod int            `json:"breakout_period"`
	Patterns       []Pattern      `json:"patterns"`
	Summary        PatternSummary `json:"summary"`
}

// candleRecogniser ties a TA-Lib CDL function to its reported name(s).
type candleRecogniser struct {
	talib    string // TA-Lib function name
	bullish  string // name when the answer is positive
	bearish  string // name when the answer is negative
	size     int    // candles in the pattern
	lookback int    // TA-Lib lookback: the first bar with an answer
	scan     func(k *candleBars, out []int8)
}

// answer fills out with r's TA-Lib answers on k. A series no longer than
// the lookback gets none, as from TA-Lib.
func (r *candleRecogniser) answer(k *candleBars, out []int8) {
	if len(k.c) > r.lookback {
		r.scan(k, out)
	}
}

// candleRecognisers lists the TA-Lib candlestick functions we mirror.
var candleRecognisers = []candleRecogniser{
	{"CDLENGULFING", "bullish_engulfing", "bearish_engulfing", 2, 2, cdlEngulfing},
	{"CDLHAMMER", "hammer", "", 1, 11, cdlHammer},
	{"CDLSHOOTINGSTAR", "", "shooting_star", 1, 11, cdlShootingStar},
	{"CDLDOJI", "doji", "", 1, 10, cdlDoji},
	{"CDLMORNINGSTAR", "morning_star", "", 3, 12, func(k *candleBars, out []int8) { cdlStar(k, out, 1) }},
	{"CDLEVENINGSTAR", "", "evening_star", 3, 12, func(k *candleBars, out []int8) { cdlStar(k, out, -1) }},
	{"CDL3WHITESOLDIERS", "three_white_soldiers", "", 3, 12, cdlSoldiers},
	{"CDL3BLACKCROWS", "", "three_black_crows", 3, 13, cdlCrows},
	{"CDLHARAMI", "bullish_harami", "bearish_harami", 2, 11, cdlHarami},
	{"CDLPIERCING", "piercing", "", 2, 11, cdlPiercing},
	{"CDLDARKCLOUDCOVER", "", "dark_cloud_cover", 2, 11, cdlDarkCloud},
}

// recentPatternWindow is the number of final bars whose patterns set the
// recent bias.
const recentPatternWindow = 10

// DetectPatterns finds candlestick patterns (TA-Lib CDL semantics, with a
// trend-context grade) and chart patterns (N-bar breakouts/breakdowns,
// SMA 10/30 crossovers, RSI(14) divergences, gaps, double tops/bottoms)
// in bars (oldest first). It needs at least PatternsMinBars bars; fewer is
// the InsufficientBars answer (see Answer). Patterns are ordered by Index,
// then type (candlestick first), name and StartIndex.
func DetectPatterns(ctx context.Context, bars []Bar, opt PatternOptions) (Answer[PatternReport], error) {
	return analyse(ctx, "detect_patterns", bars, PatternsMinBars, func() (*PatternReport, error) { return detectPatterns(ctx, bars, opt) })
}

// detectPatterns is DetectPatterns on enough valid bars.
//
// The chart patterns are collected per kind; the candlestick answers are
// one int8 column per recogniser. Both are then ordered at once by sorting
// one integer key per pattern (see patternKey), and the patterns are
// written out in that order.
func detectPatterns(ctx context.Context, bars []Bar, opt PatternOptions) (*PatternReport, error) {
	period := orDefault(opt.BreakoutPeriod, DefaultBreakoutPeriod)
	if period < 5 || period > 100 {
		return nil, invalid("breakout_period", "must be between 5 and 100, got %d", period)
	}
	n := len(bars)
	s := getScratch(patternScratchFloats * n)
	defer s.release()
	b := s.columns(bars)
	scale := rangeScale(s, b)
	chart := s.patterns(n / 4)
	chart = appendBreakouts(s, chart, b, scale, period)
	chart = appendCrossovers(s, chart, b.Close)
	swingHighs, swingLows := swingPoints(s, b.High, b.Low, patternSwingWindow)
	chart = appendDivergences(s, chart, b, swingHighs, swingLows)
	chart = appendGaps(chart, b, scale)
	chart = appendDoubles(chart, b, scale, swingHighs, swingLows)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k := newCandleBars(s, b)
	answers := candleAnswers(s, k)
	keys := s.uint64s(len(chart) + n)[:0] // room for a candle on every third bar; append grows it beyond
	for j := range chart {
		p := &chart[j]
		keys = append(keys, patternKey(p.Index, 1, patternRank[p.Name], p.StartIndex, j))
	}
	for r := range candleRecognisers {
		rec := &candleRecognisers[r]
		col := answers[r*n : (r+1)*n]
		for b := 0; b < n; b += 8 { // most answers are 0: skip them 8 at a time
			end := min(b+8, n)
			if end-b == 8 && [8]int8(col[b:end]) == [8]int8{} {
				continue
			}
			for i := b; i < end; i++ {
				if v := col[i]; v != 0 {
					keys = append(keys, patternKey(i, 0, candleRanks[r][bit(v < 0)], i-rec.size+1, r))
				}
			}
		}
	}
	keys = sortPatternKeys(s, keys, n)
	rep := &PatternReport{BarsAnalyzed: n, BreakoutPeriod: period, Patterns: make([]Pattern, len(keys))}
	tally := patternTally{n: n, summary: PatternSummary{RecentWindow: recentPatternWindow}}
	trends := s.int8s(n) // the trend context before each bar, computed once (0: not yet)
	for j, key := range keys {
		pos := int(key & (1<<keyPositionBits - 1))
		p := &rep.Patterns[j]
		if key>>keyTypeShift&1 == 1 {
			*p = chart[pos]
		} else {
			i := int(key >> keyIndexShift)
			candlePattern(p, k, trends, &candleRecognisers[pos], i, int(answers[pos*n+i]))
		}
		tally.add(p)
	}
	s.pat = chart[:0] // keep a grown array for the next call (its strings are all constants)
	rep.Summary = tally.result()
	return rep, nil
}

// sortPatternKeys sorts the keys of patterns on n bars: a counting sort on
// the bar index (the leading key field), then an insertion sort of the few
// keys of each bar. It returns the sorted keys (scratch memory).
func sortPatternKeys(s *scratch, keys []uint64, n int) []uint64 {
	start := s.int32s(n + 1)
	clear(start)
	for _, key := range keys {
		start[key>>keyIndexShift+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	out := s.uint64s(len(keys))
	for _, key := range keys {
		i := key >> keyIndexShift
		out[start[i]] = key
		start[i]++
	}
	lo := 0
	for i := range n { // start[i] is now the end of bar i's keys
		hi := int(start[i])
		for a := lo + 1; a < hi; a++ {
			for b := a; b > lo && out[b] < out[b-1]; b-- {
				out[b], out[b-1] = out[b-1], out[b]
			}
		}
		lo = hi
	}
	return out
}

// patternScratchFloats is the float64 scratch of detect_patterns per bar:
// the columns (5), the range scale, two window extremes (4 each), two
// SMAs, the RSI, and the bodies and ranges of the candles (2).
const patternScratchFloats = 20

// Layout of the sort key of a pattern, most significant bits first: Index,
// type (0 candlestick, 1 chart), the rank of Name (patternRank), StartIndex
// and the position of the pattern among its kind (its index in the chart
// slice, or the recogniser of a candlestick), which also makes every key
// unique. Sorting the keys orders the patterns as comparePatterns does.
const (
	keyIndexBits    = 17 // indexes below 2^17 > limits.MaxItems
	keyRankBits     = 5
	keyPositionBits = 24 // the chart patterns (at most a few per bar)
	keyStartShift   = keyPositionBits
	keyRankShift    = keyStartShift + keyIndexBits
	keyTypeShift    = keyRankShift + keyRankBits
	keyIndexShift   = keyTypeShift + 1
)

// Bar indexes and start indexes fit in keyIndexBits: this constant does
// not compile once limits.MaxItems reaches 2^keyIndexBits.
const _ = uint(1<<keyIndexBits - 1 - limits.MaxItems)

// patternKey builds the sort key of a pattern (see keyIndexBits).
func patternKey(index, chart int, rank uint64, start, pos int) uint64 {
	return uint64(index)<<keyIndexShift | uint64(chart)<<keyTypeShift | rank<<keyRankShift |
		uint64(start)<<keyStartShift | uint64(pos)
}

// chartPatternNames are the names of the chart patterns.
var chartPatternNames = []string{
	"breakout", "breakdown", "bullish_ma_crossover", "bearish_ma_crossover", "bullish_rsi_divergence",
	"bearish_rsi_divergence", "gap_up", "gap_down", "double_top", "double_bottom",
}

// patternRank ranks every pattern name in byte order, so that comparing
// ranks compares names.
var patternRank = func() map[string]uint64 {
	names := slices.Clone(chartPatternNames)
	for _, r := range candleRecognisers {
		for _, name := range []string{r.bullish, r.bearish} {
			if name != "" && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	if len(names) > 1<<keyRankBits {
		panic("market: too many pattern names for the sort key")
	}
	rank := make(map[string]uint64, len(names))
	for i, name := range names {
		rank[name] = uint64(i)
	}
	return rank
}()

// candleRanks holds the patternRank of each recogniser's names: index 0
// for a positive answer, 1 for a negative one.
var candleRanks = func() [][2]uint64 {
	ranks := make([][2]uint64, len(candleRecognisers))
	for r, rec := range candleRecognisers {
		ranks[r] = [2]uint64{patternRank[rec.bullish], patternRank[rec.bearish]}
		if rec.talib == "CDLDOJI" { // doji is neutral: one name for any sign
			ranks[r][1] = ranks[r][0]
		}
	}
	return ranks
}()

// comparePatterns orders patterns by Index, Type (candlestick first), Name
// and StartIndex.
func comparePatterns(a, b *Pattern) int {
	if a.Index != b.Index {
		return a.Index - b.Index
	}
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return a.StartIndex - b.StartIndex
}

// candleAnswers runs every recogniser: answers[r·n + i] is recogniser r's
// TA-Lib answer at bar i.
func candleAnswers(s *scratch, k *candleBars) []int8 {
	n := len(k.c)
	answers := s.int8s(len(candleRecognisers) * n)
	for r := range candleRecognisers {
		candleRecognisers[r].answer(k, answers[r*n:(r+1)*n])
	}
	return answers
}

// candlePattern writes into p (a zero Pattern) the pattern of the TA-Lib
// answer v of recogniser r at bar i, field by field (no struct copy with
// its write barriers): reversal patterns keep |v| as strength when the trend before
// them runs against their direction and get half of it otherwise; a doji
// keeps |v| after any trend and gets half of it without one.
//
// trends caches the trend before each bar (trendCodes; 0 until computed).
func candlePattern(p *Pattern, k *candleBars, trends []int8, r *candleRecogniser, i, v int) {
	j := i - r.size
	if j >= 0 && trends[j] == 0 {
		trends[j] = int8(slices.Index(trendCodes[:], trendBefore(k, j)))
	}
	ctx := TrendContextNone
	if j >= 0 {
		ctx = trendCodes[trends[j]]
	}
	p.Index, p.StartIndex, p.Type, p.TALibValue, p.TrendContext = i, i-r.size+1, PatternCandlestick, v, ctx
	strength := max(v, -v)
	switch {
	case r.talib == "CDLDOJI":
		p.Name, p.Direction = r.bullish, PatternNeutral
		if p.TrendContext == TrendContextNone {
			strength /= 2
		}
	case v > 0:
		p.Name, p.Direction = r.bullish, PatternBullish
		if p.TrendContext != TrendContextDown {
			strength /= 2
		}
	default:
		p.Name, p.Direction = r.bearish, PatternBearish
		if p.TrendContext != TrendContextUp {
			strength /= 2
		}
	}
	p.Strength = strength
}

// trendCodes numbers the trend contexts for candlePattern's cache (0 is
// "not computed").
var trendCodes = [...]string{"", TrendContextUp, TrendContextDown, TrendContextNone}

// trendContextBars is how far back trendBefore looks.
const trendContextBars = 10

// trendBefore classifies the trend into bar j (the bar before a pattern):
// uptrend when close[j] - close[j-10] is at least the mean high-low range
// of bars j-9..j, downtrend when it is at most minus that range, none
// otherwise or when fewer than 10 earlier bars exist.
func trendBefore(k *candleBars, j int) string {
	if j-trendContextBars < 0 {
		return TrendContextNone
	}
	rng := 0.0
	for t := j - trendContextBars + 1; t <= j; t++ {
		rng += k.h[t] - k.l[t]
	}
	rng /= trendContextBars
	move := k.c[j] - k.c[j-trendContextBars]
	switch {
	case rng > 0 && move >= rng:
		return TrendContextUp
	case rng > 0 && move <= -rng:
		return TrendContextDown
	}
	return TrendContextNone
}

// patternTally builds the PatternSummary of the patterns on n bars, one
// pattern at a time.
type patternTally struct {
	n       int
	net     int // summed strengths of the recent patterns, bullish + and bearish -
	summary PatternSummary
}

// add counts p.
func (t *patternTally) add(p *Pattern) {
	s := &t.summary
	if p.Type == PatternCandlestick {
		s.Candlestick++
	} else {
		s.Chart++
	}
	sign := 0
	switch p.Direction {
	case PatternBullish:
		s.Bullish++
		sign = 1
	case PatternBearish:
		s.Bearish++
		sign = -1
	default:
		s.Neutral++
	}
	if p.Index >= t.n-recentPatternWindow {
		t.net += sign * p.Strength
	}
}

// result returns the summary with the recent bias.
func (t *patternTally) result() PatternSummary {
	s := t.summary
	switch {
	case t.net > 0:
		s.RecentBias = PatternBullish
	case t.net < 0:
		s.RecentBias = PatternBearish
	default:
		s.RecentBias = PatternNeutral
	}
	return s
}

// rangeScalePeriod is the ATR period of rangeScale.
const rangeScalePeriod = 14

// rangeScale is the price scale of the chart patterns and the price
// structure, one value per bar: Wilder's ATR(14) (see ATR) from bar 14 on,
// and the mean high-low range of bars 0..i before.
func rangeScale(s *scratch, b OHLCV) []float64 {
	out := s.floats(b.Len())
	lb := min(ATRLookback(rangeScalePeriod), len(out))
	_, _ = ATRInto(out[lb:], b.High, b.Low, b.Close, rangeScalePeriod) // writes in place; a constant, valid period: no error
	sum := 0.0
	for i := range lb {
		sum += b.High[i] - b.Low[i]
		out[i] = sum / float64(i+1)
	}
	return out
}

// patternStrength rounds v into 0..100.
func patternStrength(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	return int(math.Round(min(100, max(0, v))))
}
