package catalog

import (
	"context"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// patternsInput is the input of detect_patterns.
type patternsInput struct {
	Bars           []market.Bar `json:"bars"`
	BreakoutPeriod *int         `json:"breakout_period,omitempty"`
}

// structuralBreakInput is the input of detect_structural_break.
type structuralBreakInput struct {
	Bars  []market.Bar   `json:"bars"`
	Alpha *toolkit.Float `json:"alpha,omitempty"`
	Trim  *toolkit.Float `json:"trim,omitempty"`
}

// priceStructureInput is the input of analyze_price_structure.
type priceStructureInput struct {
	Bars                []market.Bar `json:"bars"`
	SwingWindow         *int         `json:"swing_window,omitempty"`
	ConsolidationWindow *int         `json:"consolidation_window,omitempty"`
}

// marketPatternTools returns detect_patterns, detect_structural_break and
// analyze_price_structure. Each answers insufficient_bars (never charged)
// below its bar minimum; invalid bars are an Invalid error naming the bar.
func marketPatternTools() []Tool {
	return []Tool{
		NewTool(Spec{
			Name: "detect_patterns",
			Description: "Candlestick patterns (TA-Lib CDL semantics: engulfing, hammer, shooting star, doji, morning/evening star, " +
				"three white soldiers/black crows, harami, piercing, dark cloud cover) and chart patterns (N-bar breakouts, " +
				"SMA 10/30 crossovers, RSI divergences, gaps, double tops/bottoms) with bar index, direction and strength 0-100. " +
				"Needs at least 35 OHLCV bars, latest last.",
			Category:  "market",
			Operation: "detect_patterns",
		}, func(_ context.Context, _ Call, in patternsInput) (any, error) {
			if err := market.ValidateBars("bars", in.Bars); err != nil {
				return nil, err
			}
			if len(in.Bars) < market.PatternsMinBars {
				return market.NewInsufficientBars("detect_patterns", len(in.Bars), market.PatternsMinBars), nil
			}
			opt := market.PatternOptions{}
			if in.BreakoutPeriod != nil {
				opt.BreakoutPeriod = *in.BreakoutPeriod
			}
			return market.DetectPatterns(in.Bars, opt)
		}, func(s *jsonschema.Schema) {
			describeBars(s)
			setDefault(intRange(s, "breakout_period", 5, 100), 20)
			describe(s, "breakout_period", "bars in the range whose break is a breakout or breakdown")
		}),
		NewTool(Spec{
			Name: "detect_structural_break",
			Description: "Tests the log returns for a break in their mean (sup-F / Andrews QLR with trimming, and OLS-CUSUM): " +
				"break detected, location, statistics, p-values, and mean and volatility before and after. " +
				"Needs at least 221 OHLCV bars, latest last.",
			Category:  "market",
			Operation: "detect_structural_break",
		}, func(_ context.Context, _ Call, in structuralBreakInput) (any, error) {
			if err := market.ValidateBars("bars", in.Bars); err != nil {
				return nil, err
			}
			if len(in.Bars) < market.StructuralBreakMinBars {
				return market.NewInsufficientBars("detect_structural_break", len(in.Bars), market.StructuralBreakMinBars), nil
			}
			opt := market.BreakOptions{}
			if in.Alpha != nil {
				opt.Alpha = float64(*in.Alpha)
			}
			if in.Trim != nil {
				opt.Trim = float64(*in.Trim)
			}
			return market.DetectStructuralBreak(in.Bars, opt)
		}, func(s *jsonschema.Schema) {
			describeBars(s)
			describe(s, "alpha", "significance level of both tests, 0.001 to 0.20 (default 0.05)")
			setDefault(prop(s, "alpha"), "0.05")
			describe(s, "trim", "fraction trimmed at each end of the sup-F search, 0.05 to 0.30 (default 0.15)")
			setDefault(prop(s, "trim"), "0.15")
		}),
		NewTool(Spec{
			Name: "analyze_price_structure",
			Description: "Swing highs and lows (fractals), the HH/HL/LH/LL sequence and structure (uptrend, downtrend, range), " +
				"support and resistance levels (clustered swings with touch counts), consolidation zones and floor pivots. " +
				"Needs at least 21 OHLCV bars, latest last.",
			Category:  "market",
			Operation: "analyze_price_structure",
		}, func(_ context.Context, _ Call, in priceStructureInput) (any, error) {
			if err := market.ValidateBars("bars", in.Bars); err != nil {
				return nil, err
			}
			if len(in.Bars) < market.PriceStructureMinBars {
				return market.NewInsufficientBars("analyze_price_structure", len(in.Bars), market.PriceStructureMinBars), nil
			}
			opt := market.PriceStructureOptions{}
			if in.SwingWindow != nil {
				opt.SwingWindow = *in.SwingWindow
			}
			if in.ConsolidationWindow != nil {
				opt.ConsolidationWindow = *in.ConsolidationWindow
			}
			return market.AnalyzePriceStructure(in.Bars, opt)
		}, func(s *jsonschema.Schema) {
			describeBars(s)
			setDefault(intRange(s, "swing_window", 1, 10), 2)
			setDefault(intRange(s, "consolidation_window", 5, 50), 10)
			describe(s, "swing_window", "fractal half-window: bars each side of a swing point")
			describe(s, "consolidation_window", "bars in a consolidation window")
		}),
	}
}

// describeBars documents the bars property (no minItems: too few bars is an
// insufficient_bars answer, not a schema error).
func describeBars(s *jsonschema.Schema) {
	describe(s, "bars", "OHLCV bars, oldest first (latest last); open, high, low, close, volume as decimal strings")
}
