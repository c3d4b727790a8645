package market

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
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
	// Strength is 0..100; see docs/tools-market-patterns.md for each pattern.
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
func detectPatterns(ctx context.Context, bars []Bar, opt PatternOptions) (*PatternReport, error) {
	period := orDefault(opt.BreakoutPeriod, DefaultBreakoutPeriod)
	if period < 5 || period > 100 {
		return nil, invalid("breakout_period", "must be between 5 and 100, got %d", period)
	}
	b := Columns(bars)
	scale := rangeScale(b)
	chart := make([]Pattern, 0, len(bars)/16)
	chart = appendBreakouts(chart, b, scale, period)
	chart = appendCrossovers(chart, b.Close)
	swingHighs, swingLows := swingPoints(b.High, patternSwingWindow, true), swingPoints(b.Low, patternSwingWindow, false)
	chart = appendDivergences(chart, b, swingHighs, swingLows)
	chart = appendGaps(chart, b, scale)
	chart = appendDoubles(chart, b, scale, swingHighs, swingLows)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// sort the chart patterns through a permutation (moving int32s, not
	// structs), then interleave them with the candlesticks bar by bar
	order := make([]int32, len(chart))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return comparePatterns(&chart[a], &chart[b]) })
	k := newCandleBars(b)
	answers, hits := candleAnswers(k)
	rep := &PatternReport{BarsAnalyzed: len(bars), BreakoutPeriod: period, Patterns: make([]Pattern, 0, hits+len(chart))}
	j := 0
	for i := range bars { // per bar: its candlesticks (by name), then its chart patterns
		rep.Patterns = appendCandlesAt(rep.Patterns, k, answers, i)
		for ; j < len(order) && chart[order[j]].Index == i; j++ {
			rep.Patterns = append(rep.Patterns, chart[order[j]])
		}
	}
	rep.Summary = summarisePatterns(rep.Patterns, len(bars))
	return rep, nil
}

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
// TA-Lib answer at bar i; hits counts the non-zero answers.
func candleAnswers(k *candleBars) (answers []int8, hits int) {
	n := len(k.c)
	answers = make([]int8, len(candleRecognisers)*n)
	for r := range candleRecognisers {
		candleRecognisers[r].answer(k, answers[r*n:(r+1)*n])
	}
	for _, v := range answers {
		if v != 0 {
			hits++
		}
	}
	return answers, hits
}

// appendCandlesAt appends the candlestick patterns of bar i, ordered by
// name (at most 11 share a bar: insertion sort).
func appendCandlesAt(ps []Pattern, k *candleBars, answers []int8, i int) []Pattern {
	n := len(k.c)
	first := len(ps)
	for r := range candleRecognisers {
		if v := answers[r*n+i]; v != 0 {
			ps = append(ps, candlePattern(k, &candleRecognisers[r], i, int(v)))
		}
	}
	for a := first + 1; a < len(ps); a++ {
		for b := a; b > first && ps[b].Name < ps[b-1].Name; b-- {
			ps[b], ps[b-1] = ps[b-1], ps[b]
		}
	}
	return ps
}

// candlePattern turns the TA-Lib answer v of recogniser r at bar i into a
// pattern: reversal patterns keep |v| as strength when the trend before
// them runs against their direction and get half of it otherwise; a doji
// keeps |v| after any trend and gets half of it without one.
func candlePattern(k *candleBars, r *candleRecogniser, i, v int) Pattern {
	p := Pattern{Index: i, StartIndex: i - r.size + 1, Type: PatternCandlestick, TALibValue: v,
		TrendContext: trendBefore(k, i-r.size)}
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
	return p
}

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

// summarisePatterns counts the patterns and sets the recent bias.
func summarisePatterns(ps []Pattern, n int) PatternSummary {
	s := PatternSummary{RecentWindow: recentPatternWindow}
	net := 0
	for _, p := range ps {
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
		if p.Index >= n-recentPatternWindow {
			net += sign * p.Strength
		}
	}
	switch {
	case net > 0:
		s.RecentBias = PatternBullish
	case net < 0:
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
func rangeScale(b OHLCV) []float64 {
	s := make([]float64, b.Len())
	lb := min(ATRLookback(rangeScalePeriod), len(s))
	_, _ = ATRInto(s[lb:], b.High, b.Low, b.Close, rangeScalePeriod) // writes in place; a constant, valid period: no error
	sum := 0.0
	for i := range lb {
		sum += b.High[i] - b.Low[i]
		s[i] = sum / float64(i+1)
	}
	return s
}

// patternStrength rounds v into 0..100.
func patternStrength(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	return int(math.Round(min(100, max(0, v))))
}
