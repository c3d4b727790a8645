package catalog

import (
	"context"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// patternsInput is the input of detect_patterns.
type patternsInput struct {
	Bars           market.Bars `json:"bars"`
	BreakoutPeriod *int        `json:"breakout_period,omitempty"`
}

// structuralBreakInput is the input of detect_structural_break.
type structuralBreakInput struct {
	Bars  market.Bars    `json:"bars"`
	Alpha *toolkit.Float `json:"alpha,omitempty"`
	Trim  *toolkit.Float `json:"trim,omitempty"`
}

// priceStructureInput is the input of analyze_price_structure.
type priceStructureInput struct {
	Bars                market.Bars `json:"bars"`
	SwingWindow         *int        `json:"swing_window,omitempty"`
	ConsolidationWindow *int        `json:"consolidation_window,omitempty"`
}

// marketPatternTools returns the pattern and structure tools of
// finance/market (docs/tools/README.md#market): detect_patterns,
// detect_structural_break and analyze_price_structure. Each answers
// insufficient_bars (never charged) below its bar minimum; invalid bars are
// an Invalid error naming the bar.
func marketPatternTools() []Tool {
	return []Tool{
		answersBars[*market.PatternReport](NewTool(toolSpec(marketCategory, "detect_patterns", "Candlestick and Chart Patterns",
			"Candlestick (TA-Lib CDL) and chart patterns (breakouts, SMA crosses, RSI divergences, gaps, double tops/bottoms); needs 35 bars."),
			func(ctx context.Context, _ Call, in patternsInput) (any, error) {
				return value(market.DetectPatterns(ctx, in.Bars, market.PatternOptions{BreakoutPeriod: in.BreakoutPeriod}))
			}, func(s *jsonschema.Schema) {
				barsSchema(s, "bars")
				setDefault(intRange(s, "breakout_period", 5, 100), market.DefaultBreakoutPeriod)
				describe(s, "breakout_period", "range length in bars for breakouts")
			})),
		answersBars[*market.BreakReport](NewTool(toolSpec(marketCategory, "detect_structural_break", "Structural Break Test",
			"Tests log returns for a break in their mean (sup-F/QLR, OLS-CUSUM): location, p-values, mean and volatility around it; needs 221 bars."),
			func(ctx context.Context, _ Call, in structuralBreakInput) (any, error) {
				return value(market.DetectStructuralBreak(ctx, in.Bars, market.BreakOptions{Alpha: floatPtr(in.Alpha), Trim: floatPtr(in.Trim)}))
			}, func(s *jsonschema.Schema) {
				barsSchema(s, "bars")
				describe(s, "alpha", "significance level, a fraction 0.001 to 0.20")
				setDefault(prop(s, "alpha"), "0.05")
				describe(s, "trim", "fraction trimmed at each end, 0.05 to 0.30")
				setDefault(prop(s, "trim"), "0.15")
			})),
		answersBars[*market.PriceStructureReport](NewTool(toolSpec(marketCategory, "analyze_price_structure", "Price Structure (Swings, Support, Resistance)",
			"Swings, HH/HL/LH/LL structure, support and resistance with touch counts, consolidation zones, floor pivots; needs 21 bars."),
			func(ctx context.Context, _ Call, in priceStructureInput) (any, error) {
				return value(market.AnalyzePriceStructure(ctx, in.Bars, market.PriceStructureOptions{
					SwingWindow: in.SwingWindow, ConsolidationWindow: in.ConsolidationWindow}))
			}, func(s *jsonschema.Schema) {
				barsSchema(s, "bars")
				setDefault(intRange(s, "swing_window", 1, 10), market.DefaultSwingWindow)
				setDefault(intRange(s, "consolidation_window", 5, 50), market.DefaultConsolidationWindow)
				describe(s, "swing_window", "bars each side of a swing point")
				describe(s, "consolidation_window", "bars per consolidation window")
			})),
	}
}
