package market

import (
	"bytes"
	"fmt"
	"strconv"
)

// The words of detect_patterns are small enumerations rather than strings,
// so a Pattern holds no pointer: a report of thousands of patterns is one
// pointer-free allocation that the collector never scans. Each type writes
// and reads its text in JSON ("bullish_engulfing") and prints it with
// String; its zero value is the empty text.

// PatternName is the name of a pattern. Names are numbered in the byte
// order of their text, so comparing two names compares their text.
type PatternName uint8

// The pattern names (docs/tools-market-patterns.md defines each).
const (
	PatternBearishEngulfing PatternName = iota + 1
	PatternBearishHarami
	PatternBearishMACrossover
	PatternBearishRSIDivergence
	PatternBreakdown
	PatternBreakout
	PatternBullishEngulfing
	PatternBullishHarami
	PatternBullishMACrossover
	PatternBullishRSIDivergence
	PatternDarkCloudCover
	PatternDoji
	PatternDoubleBottom
	PatternDoubleTop
	PatternEveningStar
	PatternGapDown
	PatternGapUp
	PatternHammer
	PatternMorningStar
	PatternPiercing
	PatternShootingStar
	PatternThreeBlackCrows
	PatternThreeWhiteSoldiers
)

var patternNameTexts = [...]string{"",
	"bearish_engulfing", "bearish_harami", "bearish_ma_crossover", "bearish_rsi_divergence", "breakdown",
	"breakout", "bullish_engulfing", "bullish_harami", "bullish_ma_crossover", "bullish_rsi_divergence",
	"dark_cloud_cover", "doji", "double_bottom", "double_top", "evening_star", "gap_down", "gap_up", "hammer",
	"morning_star", "piercing", "shooting_star", "three_black_crows", "three_white_soldiers",
}

// PatternType is candlestick or chart (candlestick < chart, as their text).
type PatternType uint8

// The pattern types.
const (
	PatternCandlestick PatternType = iota + 1
	PatternChart
)

var patternTypeTexts = [...]string{"", "candlestick", "chart"}

// PatternDirection is bullish, bearish or neutral.
type PatternDirection uint8

// The pattern directions.
const (
	PatternBullish PatternDirection = iota + 1
	PatternBearish
	PatternNeutral
)

var patternDirectionTexts = [...]string{"", "bullish", "bearish", "neutral"}

// TrendContext is the trend before a candlestick pattern: uptrend,
// downtrend or none. Chart patterns have none set (the zero value, left
// out of the JSON).
type TrendContext uint8

// The trend contexts.
const (
	TrendContextUp TrendContext = iota + 1
	TrendContextDown
	TrendContextNone
)

var trendContextTexts = [...]string{"", "uptrend", "downtrend", "none"}

// quotedTexts returns the JSON strings of texts, built once.
func quotedTexts(texts []string) [][]byte {
	q := make([][]byte, len(texts))
	for i, t := range texts {
		q[i] = strconv.AppendQuote(nil, t)
	}
	return q
}

var (
	patternNameJSON      = quotedTexts(patternNameTexts[:])
	patternTypeJSON      = quotedTexts(patternTypeTexts[:])
	patternDirectionJSON = quotedTexts(patternDirectionTexts[:])
	trendContextJSON     = quotedTexts(trendContextTexts[:])
)

// labelText returns the text of v, or a placeholder for an unknown value.
func labelText[T ~uint8](v T, texts []string) string {
	if int(v) < len(texts) {
		return texts[v]
	}
	return fmt.Sprintf("unknown(%d)", uint8(v))
}

// labelJSON returns the JSON string of v (a shared slice: callers must not
// modify it).
func labelJSON[T ~uint8](v T, quoted [][]byte, kind string) ([]byte, error) {
	if int(v) < len(quoted) {
		return quoted[v], nil
	}
	return nil, fmt.Errorf("market: %s %d is not a known value", kind, uint8(v))
}

// parseLabel reads the JSON string b as one of texts.
func parseLabel[T ~uint8](b []byte, texts []string, kind string) (T, error) {
	s, err := strconv.Unquote(string(bytes.TrimSpace(b)))
	if err != nil {
		return 0, fmt.Errorf("market: %s must be a JSON string", kind)
	}
	for i, t := range texts {
		if t == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("market: %q is not a known %s", s, kind)
}

// String returns the name's text ("hammer").
func (n PatternName) String() string { return labelText(n, patternNameTexts[:]) }

// MarshalJSON writes the name's text as a JSON string.
func (n PatternName) MarshalJSON() ([]byte, error) {
	return labelJSON(n, patternNameJSON, "pattern name")
}

// UnmarshalJSON reads a name from its text.
func (n *PatternName) UnmarshalJSON(b []byte) (err error) {
	*n, err = parseLabel[PatternName](b, patternNameTexts[:], "pattern name")
	return err
}

// String returns the type's text ("candlestick").
func (t PatternType) String() string { return labelText(t, patternTypeTexts[:]) }

// MarshalJSON writes the type's text as a JSON string.
func (t PatternType) MarshalJSON() ([]byte, error) {
	return labelJSON(t, patternTypeJSON, "pattern type")
}

// UnmarshalJSON reads a type from its text.
func (t *PatternType) UnmarshalJSON(b []byte) (err error) {
	*t, err = parseLabel[PatternType](b, patternTypeTexts[:], "pattern type")
	return err
}

// String returns the direction's text ("bullish").
func (d PatternDirection) String() string { return labelText(d, patternDirectionTexts[:]) }

// MarshalJSON writes the direction's text as a JSON string.
func (d PatternDirection) MarshalJSON() ([]byte, error) {
	return labelJSON(d, patternDirectionJSON, "pattern direction")
}

// UnmarshalJSON reads a direction from its text.
func (d *PatternDirection) UnmarshalJSON(b []byte) (err error) {
	*d, err = parseLabel[PatternDirection](b, patternDirectionTexts[:], "pattern direction")
	return err
}

// String returns the context's text ("uptrend"; "" when unset).
func (c TrendContext) String() string { return labelText(c, trendContextTexts[:]) }

// MarshalJSON writes the context's text as a JSON string.
func (c TrendContext) MarshalJSON() ([]byte, error) {
	return labelJSON(c, trendContextJSON, "trend context")
}

// UnmarshalJSON reads a context from its text.
func (c *TrendContext) UnmarshalJSON(b []byte) (err error) {
	*c, err = parseLabel[TrendContext](b, trendContextTexts[:], "trend context")
	return err
}
