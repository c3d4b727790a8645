package catalog

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// marketIndicatorTools are the indicator and bar-analysis tools of finance/market
// (calculate_indicators, detect_regime, analyze_trend_structure,
// analyze_correlations, analyze_liquidity). Below a tool's bar minimum each
// answers with market.InsufficientBars (never charged) instead of an error.
func marketIndicatorTools() []Tool {
	return []Tool{
		NewTool(Spec{
			Name: "calculate_indicators",
			Description: "TA-Lib-compatible indicator over OHLCV bars (sma, ema, rsi, macd, bb, atr): series aligned to the bars " +
				"with null warm-up slots, the first valid index and the latest values.",
			Category:  "market",
			Operation: "calculate_indicators",
		}, runIndicators, func(s *jsonschema.Schema) {
			describeBarsWithMin(s, "bars", 1)
			prop(s, "indicator").Enum = []any{"sma", "ema", "rsi", "macd", "bb", "atr"}
			intRange(s, "period", 2, 100000)
			setDefault(intRange(s, "fast_period", 2, 100000), 12)
			setDefault(intRange(s, "slow_period", 2, 100000), 26)
			setDefault(intRange(s, "signal_period", 1, 100000), 9)
			setDefault(prop(s, "nbdev"), "2")
			describeAll(s, map[string]string{
				"indicator":     "indicator: sma, ema, rsi, macd (12/26/9), bb (Bollinger, population σ) or atr (Wilder)",
				"period":        "period (defaults: sma/ema 20, rsi 14, atr 14, bb 20)",
				"fast_period":   "macd fast EMA period (default 12)",
				"slow_period":   "macd slow EMA period (default 26)",
				"signal_period": "macd signal EMA period (default 9)",
				"nbdev":         "bb: band width in population standard deviations (default 2)",
			})
		}),
		NewTool(Spec{
			Name: "detect_regime",
			Description: "Market regime at the last bar (TRENDING_UP, TRENDING_DOWN, RANGING, LOW_VOLATILITY, VOLATILE) " +
				"with confidence and evidence (ADX, NATR percentile, 200-SMA slope); needs 200 bars.",
			Category:  "market",
			Operation: "detect_regime",
		}, func(_ context.Context, _ Call, in barsInput) (any, error) {
			return barAnalysis("detect_regime", in.Bars, market.RegimeMinBars, func() (any, error) { return market.DetectRegime(in.Bars) })
		}, func(s *jsonschema.Schema) { describeBarsWithMin(s, "bars", 1) }),
		NewTool(Spec{
			Name: "analyze_trend_structure",
			Description: "Volatility phase (EXPANSION, COMPRESSION, TRANSITION), Bollinger-inside-Keltner squeeze " +
				"(NONE, FORMING, ACTIVE, FIRING) and momentum shift (ACCELERATING, DECELERATING, STEADY); needs 21 bars.",
			Category:  "market",
			Operation: "analyze_trend_structure",
		}, func(_ context.Context, _ Call, in barsInput) (any, error) {
			return barAnalysis("analyze_trend_structure", in.Bars, market.TrendMinBars, func() (any, error) {
				return market.AnalyzeTrendStructure(in.Bars)
			})
		}, func(s *jsonschema.Schema) { describeBarsWithMin(s, "bars", 1) }),
		NewTool(Spec{
			Name: "analyze_liquidity",
			Description: "Liquidity state of the last bar (NORMAL, THINNING, STRESSED, SPIKE) from the log-volume z-score, " +
				"relative volume, range expansion and Amihud illiquidity against a baseline window; needs 2 bars.",
			Category:  "market",
			Operation: "analyze_liquidity",
		}, func(_ context.Context, _ Call, in liquidityInput) (any, error) {
			return barAnalysis("analyze_liquidity", in.Bars, market.LiquidityMinBars, func() (any, error) {
				return market.AnalyzeLiquidity(in.Bars, in.Period)
			})
		}, func(s *jsonschema.Schema) {
			describeBarsWithMin(s, "bars", 1)
			setDefault(intRange(s, "period", 2, 100000), 20)
			describe(s, "period", "baseline window in bars (default 20; shrunk to bars-1 when fewer bars)")
		}),
		NewTool(Spec{
			Name: "analyze_correlations",
			Description: "Correlation matrix of log returns across symbols (aligned at the latest bar), with " +
				"significance and the most and least correlated pairs; 2+ symbols, 10+ bars each.",
			Category:  "market",
			Operation: "analyze_correlations",
		}, runCorrelations, func(s *jsonschema.Schema) {
			minItems(s, "symbols_data", 2)
			describe(s, "symbols_data", "symbols with their OHLCV bars (oldest first; series are aligned at their latest bar)")
			item := prop(s, "symbols_data").Items
			nonEmpty(item, "symbol")
			describeBarsWithMin(item, "bars", 1)
		}),
	}
}

// barsInput is the input of the tools that take only bars.
type barsInput struct {
	Bars market.Bars `json:"bars"`
}

// liquidityInput is the input of analyze_liquidity.
type liquidityInput struct {
	Bars   market.Bars `json:"bars"`
	Period int         `json:"period,omitempty"`
}

// correlationsInput is the input of analyze_correlations.
type correlationsInput struct {
	SymbolsData market.SymbolsData `json:"symbols_data"`
}

// barAnalysis validates the bars, answers InsufficientBars below the
// tool's minimum, and otherwise runs the analysis.
func barAnalysis(tool string, bars []market.Bar, required int, run func() (any, error)) (any, error) {
	if err := market.ValidateBars("bars", bars); err != nil {
		return nil, err
	}
	if len(bars) < required {
		return market.NewInsufficientBars(tool, len(bars), required), nil
	}
	return run()
}

func runCorrelations(_ context.Context, _ Call, in correlationsInput) (any, error) {
	for i, d := range in.SymbolsData {
		if err := market.ValidateBars(fmt.Sprintf("symbols_data[%d].bars", i), d.Bars); err != nil {
			return nil, err
		}
		if len(d.Bars) < market.CorrelationMinBars {
			ib := market.NewInsufficientBars("analyze_correlations", len(d.Bars), market.CorrelationMinBars)
			ib.Message = fmt.Sprintf("analyze_correlations needs at least %d bars per symbol (latest last); symbol %q has %d. Fetch more history and retry.",
				market.CorrelationMinBars, d.Symbol, len(d.Bars))
			return ib, nil
		}
	}
	return market.AnalyzeCorrelations(in.SymbolsData)
}

// indicatorsInput is the input of calculate_indicators.
type indicatorsInput struct {
	Bars         market.Bars    `json:"bars"`
	Indicator    string         `json:"indicator"`
	Period       int            `json:"period,omitempty"`
	FastPeriod   int            `json:"fast_period,omitempty"`
	SlowPeriod   int            `json:"slow_period,omitempty"`
	SignalPeriod int            `json:"signal_period,omitempty"`
	NbDev        *toolkit.Float `json:"nbdev,omitempty"`
}

func runIndicators(_ context.Context, _ Call, in indicatorsInput) (any, error) {
	req := market.IndicatorRequest{Indicator: in.Indicator, Period: in.Period,
		FastPeriod: in.FastPeriod, SlowPeriod: in.SlowPeriod, SignalPeriod: in.SignalPeriod}
	if in.NbDev != nil {
		if *in.NbDev <= 0 {
			return nil, toolkit.Errorf(toolkit.Invalid, "nbdev: must be positive (got %v)", float64(*in.NbDev))
		}
		req.NbDev = float64(*in.NbDev)
	}
	if err := market.ValidateBars("bars", in.Bars); err != nil {
		return nil, err
	}
	if need := market.IndicatorMinBars(req); len(in.Bars) < need {
		return market.NewInsufficientBars("calculate_indicators", len(in.Bars), need), nil
	}
	return market.CalculateIndicators(in.Bars, req)
}

// describeBarsWithMin documents a bars property and sets its minItems.
func describeBarsWithMin(s *jsonschema.Schema, name string, min int) {
	minItems(s, name, min)
	describe(s, name, "OHLCV bars, oldest first (latest last); each field a decimal string (numbers accepted)")
}
