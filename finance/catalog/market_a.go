package catalog

import (
	"context"
	"encoding/json"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// marketATools are the indicator and bar-analysis tools of finance/market
// (calculate_indicators, detect_regime, analyze_trend_structure,
// analyze_correlations, analyze_liquidity). Below a tool's bar minimum each
// answers with market.InsufficientBars (never charged) instead of an error.
func marketATools() []Tool {
	return []Tool{
		NewTool(Spec{
			Name: "calculate_indicators",
			Description: "TA-Lib-compatible indicator over OHLCV bars (sma, ema, rsi, macd, bb, atr): series aligned to the bars " +
				"with null warm-up slots, the first valid index and the latest values.",
			Category:  "market",
			Operation: "calculate_indicators",
		}, runIndicators, func(s *jsonschema.Schema) {
			barsSchema(s, "bars", 1)
			s.Properties["indicator"].Enum = []any{"sma", "ema", "rsi", "macd", "bb", "atr"}
			s.Properties["indicator"].Description = "indicator: sma, ema, rsi, macd (12/26/9), bb (Bollinger, population σ) or atr (Wilder)"
			intRange(s, "period", 2, 100000, "period (defaults: sma/ema 20, rsi 14, atr 14, bb 20)")
			intRange(s, "fast_period", 2, 100000, "macd fast EMA period (default 12)")
			intRange(s, "slow_period", 2, 100000, "macd slow EMA period (default 26)")
			intRange(s, "signal_period", 1, 100000, "macd signal EMA period (default 9)")
			s.Properties["nbdev"].Description = "bb: band width in population standard deviations (default 2)"
			setDefault(s, "fast_period", `12`)
			setDefault(s, "slow_period", `26`)
			setDefault(s, "signal_period", `9`)
			setDefault(s, "nbdev", `"2"`)
		}),
	}
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

// barsSchema documents a bars property and sets its minItems.
func barsSchema(s *jsonschema.Schema, name string, minItems int) {
	p := s.Properties[name]
	p.MinItems = &minItems
	p.Description = "OHLCV bars, oldest first (latest last); each field a decimal string (numbers accepted)"
}

// intRange sets the bounds and description of an integer property.
func intRange(s *jsonschema.Schema, name string, lo, hi float64, desc string) {
	p := s.Properties[name]
	p.Minimum, p.Maximum, p.Description = &lo, &hi, desc
}

// setDefault records the default of an optional property in the schema.
func setDefault(s *jsonschema.Schema, name, raw string) {
	s.Properties[name].Default = json.RawMessage(raw)
}
