package catalog

import (
	"context"
	"reflect"
	"strconv"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// marketCategory is the category of the tools on OHLCV bars.
const marketCategory = "market"

// marketIndicatorTools returns the indicator and bar-analysis tools of
// finance/market (docs/tools/README.md#market): calculate_indicators,
// detect_regime, analyze_trend_structure, analyze_liquidity and
// analyze_correlations. Below a tool's bar minimum each answers with
// market.InsufficientBars (never charged) instead of an error.
func marketIndicatorTools() []Tool {
	return []Tool{
		answersBars[*market.IndicatorResult](NewTool(toolSpec(marketCategory, "calculate_indicators", "Technical Indicators (TA-Lib)",
			"TA-Lib-compatible sma, ema, rsi, macd, bb or atr over OHLCV bars: series aligned to the bars, latest values."),
			runIndicators, func(s *jsonschema.Schema) {
				barsSchema(s, "bars")
				minItems(s, "bars", 1)
				prop(s, "indicator").Enum = []any{"sma", "ema", "rsi", "macd", "bb", "atr"}
				intRange(s, "period", 2, limits.MaxItems)
				setDefault(intRange(s, "fast_period", 2, limits.MaxItems), 12)
				setDefault(intRange(s, "slow_period", 2, limits.MaxItems), 26)
				setDefault(intRange(s, "signal_period", 1, limits.MaxItems), 9)
				positives(s, "nbdev")
				setDefault(prop(s, "nbdev"), "2")
				describeAll(s, map[string]string{
					"indicator":     "macd 12/26/9, bb Bollinger (population σ), atr Wilder",
					"period":        "period in bars; default sma/ema/bb 20, rsi/atr 14",
					"fast_period":   "macd fast EMA, bars",
					"slow_period":   "macd slow EMA, bars",
					"signal_period": "macd signal EMA, bars",
					"nbdev":         "bb half-width, a multiple of σ",
				})
				example(prop(s, "period"), 14)
			})),
		barsOnlyTool("detect_regime", "Market Regime",
			"Market regime at the last bar (TRENDING_UP/DOWN, RANGING, LOW_VOLATILITY, VOLATILE) with evidence; needs 200 bars.",
			market.DetectRegime),
		barsOnlyTool("analyze_trend_structure", "Volatility Phase and Squeeze",
			"Volatility phase, Bollinger-Keltner squeeze and momentum shift at the last bar; needs 21 bars.",
			market.AnalyzeTrendStructure),
		answersBars[*market.LiquidityResult](NewTool(toolSpec(marketCategory, "analyze_liquidity", "Liquidity State",
			"Liquidity state of the last bar (NORMAL, THINNING, STRESSED, SPIKE) from volume z-score, relative volume and illiquidity."),
			func(ctx context.Context, _ Call, in liquidityInput) (any, error) {
				return value(market.AnalyzeLiquidity(ctx, in.Bars, in.Period))
			}, func(s *jsonschema.Schema) {
				barsSchema(s, "bars")
				minItems(s, "bars", 1)
				setDefault(intRange(s, "period", 2, limits.MaxItems), market.LiquidityDefaultPeriod)
				describe(s, "period", "baseline window in bars (at most bars-1)")
			})),
		answersBars[*market.CorrelationResult](NewTool(toolSpec(marketCategory, "analyze_correlations", "Cross-Asset Correlation Matrix",
			"Correlation matrix of log returns across symbols with significance and extreme pairs; 2+ symbols, 10+ bars each."),
			runCorrelations, func(s *jsonschema.Schema) {
				minItems(s, "symbols_data", 2)
				describe(s, "symbols_data", "symbols with their bars")
				item := prop(s, "symbols_data").Items
				nonEmpty(item, "symbol")
				describe(item, "symbol", "symbol, unique in symbols_data")
				barsSchema(item, "bars")
				minItems(item, "bars", 1)
				example(prop(item, "symbol"), "AAPL")
				example(prop(s, "symbols_data"), []any{
					map[string]any{"symbol": "AAPL", "bars": sampleBars(0)},
					map[string]any{"symbol": "MSFT", "bars": sampleBars(1)},
				})
			})),
	}
}

// barsInput is the input of the tools that take only bars.
type barsInput struct {
	Bars market.Bars `json:"bars"`
}

// barsOnlyTool is a tool whose only input is bars (at least one); analyse
// answers its result or insufficient_bars (market.Answer).
func barsOnlyTool[R any](name, title, description string, analyse func(ctx context.Context, bars []market.Bar) (market.Answer[R], error)) Tool {
	return answersBars[*R](NewTool(toolSpec(marketCategory, name, title, description),
		func(ctx context.Context, _ Call, in barsInput) (any, error) {
			return value(analyse(ctx, in.Bars))
		}, func(s *jsonschema.Schema) {
			barsSchema(s, "bars")
			minItems(s, "bars", 1)
		}))
}

// answersBars records the answers of bar tool t: an R, or
// *market.InsufficientBars below the tool's bar minimum.
func answersBars[R any](t Tool) Tool {
	t.Results = []reflect.Type{reflect.TypeFor[R](), reflect.TypeFor[*market.InsufficientBars]()}
	return t
}

// liquidityInput is the input of analyze_liquidity.
type liquidityInput struct {
	Bars   market.Bars `json:"bars"`
	Period *int        `json:"period,omitempty"`
}

// correlationsInput is the input of analyze_correlations.
type correlationsInput struct {
	SymbolsData market.SymbolsData `json:"symbols_data"`
}

// value returns a bar analysis's answer as the tool result: the report, or
// the insufficient_bars answer (never charged).
func value[T any](a market.Answer[T], err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return a.Value(), nil
}

func runCorrelations(ctx context.Context, _ Call, in correlationsInput) (any, error) {
	return value(market.AnalyzeCorrelations(ctx, in.SymbolsData))
}

// indicatorsInput is the input of calculate_indicators.
type indicatorsInput struct {
	Bars         market.Bars    `json:"bars"`
	Indicator    string         `json:"indicator"`
	Period       *int           `json:"period,omitempty"`
	FastPeriod   *int           `json:"fast_period,omitempty"`
	SlowPeriod   *int           `json:"slow_period,omitempty"`
	SignalPeriod *int           `json:"signal_period,omitempty"`
	NbDev        *toolkit.Float `json:"nbdev,omitempty"`
}

func runIndicators(ctx context.Context, _ Call, in indicatorsInput) (any, error) {
	req := market.IndicatorRequest{Indicator: in.Indicator, Period: in.Period,
		FastPeriod: in.FastPeriod, SlowPeriod: in.SlowPeriod, SignalPeriod: in.SignalPeriod, NbDev: floatPtr(in.NbDev)}
	return value(market.CalculateIndicators(ctx, in.Bars, req))
}

// barsSchema documents the bars property name. Fewer bars than a tool
// needs is an insufficient_bars answer, not a schema error.
func barsSchema(s *jsonschema.Schema, name string) {
	describe(s, name, "OHLCV bars, oldest first; high >= low")
	bar := prop(s, name).Items
	for _, f := range []string{"open", "high", "low", "close"} {
		positiveDecimal(bar, f, f+" price, currency")
	}
	nonNegativeDecimal(bar, "volume", "volume, in units")
	examples(bar, map[string]any{"open": "100", "high": "101.5", "low": "99.2", "close": "100.8", "volume": "12000"})
}

// sampleBars returns the bars of an example series: 11 daily bars whose
// closes zigzag upwards, the swing shifted by shift bars.
func sampleBars(shift int) []any {
	closes := []int{1000, 1012, 1006, 1019, 1011, 1025, 1018, 1031, 1024, 1038, 1030}
	out := make([]any, len(closes))
	for i := range closes {
		c := closes[(i+shift)%len(closes)] + 10*i
		out[i] = map[string]any{"open": tenths(c - 4), "high": tenths(c + 8), "low": tenths(c - 9), "close": tenths(c),
			"volume": strconv.Itoa(10000 + 500*i)}
	}
	return out
}

// tenths formats x/10 with one decimal.
func tenths(x int) string {
	return strconv.Itoa(x/10) + "." + strconv.Itoa(x%10)
}
