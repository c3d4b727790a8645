package catalog

import (
	"context"
	"slices"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

type confidenceArgs struct {
	RMultiples       toolkit.Floats `json:"r_multiples"`
	Confidence       *toolkit.Float `json:"confidence,omitempty"`
	BootstrapSamples *int           `json:"bootstrap_samples,omitempty"`
	Seed             *uint64        `json:"seed,omitempty"`
}

type consistencyArgs struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	Dates      []string       `json:"dates,omitempty"`
	WindowSize *int           `json:"window_size,omitempty"`
}

type serialArgs struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	Lags       *int           `json:"lags,omitempty"`
}

type distributionArgs struct {
	RMultiples  toolkit.Floats `json:"r_multiples"`
	BucketCount *int           `json:"bucket_count,omitempty"`
}

type riskAdjustedArgs struct {
	RMultiples    toolkit.Floats `json:"r_multiples"`
	TargetR       *toolkit.Float `json:"target_r,omitempty"`
	TradesPerYear *toolkit.Float `json:"trades_per_year,omitempty"`
}

type executionArgs struct {
	RMultiples     toolkit.Floats `json:"r_multiples"`
	MAEValues      toolkit.Floats `json:"mae_values,omitempty"`
	MFEValues      toolkit.Floats `json:"mfe_values,omitempty"`
	HoldTimesHours toolkit.Floats `json:"hold_times_hours,omitempty"`
}

type segmentTradeArg struct {
	PnLR       toolkit.Float  `json:"pnl_r"`
	PnLUSD     toolkit.Amount `json:"pnl_usd"`
	Symbol     string         `json:"symbol,omitempty"`
	DayOfWeek  *int           `json:"day_of_week,omitempty"`
	StrategyID string         `json:"strategy_id,omitempty"`
	Regime     string         `json:"regime,omitempty"`
}

type segmentArgs struct {
	Trades    []segmentTradeArg `json:"trades"`
	SegmentBy string            `json:"segment_by,omitempty"`
}

type pnlArgs struct {
	EntryPrice toolkit.Amount  `json:"entry_price"`
	ExitPrice  toolkit.Amount  `json:"exit_price"`
	Quantity   int64           `json:"quantity"`
	Direction  string          `json:"direction"`
	StopPrice  *toolkit.Amount `json:"stop_price,omitempty"`
	Fees       *toolkit.Amount `json:"fees,omitempty"`
}

type expectedValueArgs struct {
	WinRate    *toolkit.Float `json:"win_rate,omitempty"`
	AvgWin     *toolkit.Float `json:"avg_win,omitempty"`
	AvgLoss    *toolkit.Float `json:"avg_loss,omitempty"`
	RMultiples toolkit.Floats `json:"r_multiples,omitempty"`
}

type tradeOutcomeArgs struct {
	RealizedPnL    toolkit.Amount `json:"realized_pnl"`
	RealizedR      toolkit.Float  `json:"realized_r"`
	MFE            toolkit.Amount `json:"mfe"`
	OneRDollars    toolkit.Amount `json:"one_r_dollars"`
	ExpectedValueR *toolkit.Float `json:"expected_value_r,omitempty"`
}

type signalArgs struct {
	ConditionsMet       int            `json:"conditions_met"`
	TotalConditions     int            `json:"total_conditions"`
	RegimeAligned       bool           `json:"regime_aligned,omitempty"`
	IndicatorConfluence int            `json:"indicator_confluence,omitempty"`
	VolumeConfirmed     bool           `json:"volume_confirmed,omitempty"`
	RiskRewardRatio     *toolkit.Float `json:"risk_reward_ratio,omitempty"`
}

// performanceStatisticsTools returns the confidence, consistency, serial
// correlation, distribution, risk-adjusted, execution-quality,
// segmentation and trade-level tools.
func performanceStatisticsTools() []Tool {
	return slices.Concat(rStatisticsTools(), executionSegmentTools(), tradeLevelTools())
}

// rStatisticsTools returns the tools on a list of R-multiples:
// confidence, consistency, serial correlation, distribution and
// risk-adjusted ratios.
func rStatisticsTools() []Tool {
	return []Tool{
		NewTool(toolSpec(performanceCategory, "analyze_confidence", "Confidence Intervals of the Edge", "Bootstrap and Student-t confidence intervals of mean R and win rate, and the probability of a positive edge.").
			WithAliases("calculate_confidence"),
			func(ctx context.Context, _ Call, in confidenceArgs) (*performance.ConfidenceResult, error) {
				opt := performance.ConfidenceOptions{Level: floatPtr(in.Confidence), Samples: in.BootstrapSamples}
				if in.Seed != nil {
					opt.Seed = *in.Seed
				}
				return performance.AnalyzeConfidence(ctx, in.RMultiples, opt)
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "trade results in R")
				describe(s, "confidence", "two-sided confidence level, 0.5 to 0.999")
				setDefault(prop(s, "confidence"), "0.95")
				setDefault(intRange(s, "bootstrap_samples", performance.MinBootstrapSamples, performance.DefaultBootstrapSamples), performance.DefaultBootstrapSamples)
				describe(s, "bootstrap_samples", "number of bootstrap resamples")
				setDefault(prop(s, "seed"), 0)
				describe(s, "seed", "bootstrap PRNG seed, echoed")
			}),
		NewTool(toolSpec(performanceCategory, "analyze_consistency", "Edge Consistency", "Stability of the edge: rolling expectancy and G, profitable blocks, equity-curve R², losing streaks, monthly and weekly buckets."),
			func(ctx context.Context, _ Call, in consistencyArgs) (*performance.ConsistencyResult, error) {
				return performance.AnalyzeConsistency(ctx, in.RMultiples, performance.ConsistencyOptions{Dates: in.Dates, WindowSize: in.WindowSize})
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "R-multiples, oldest first")
				describe(s, "dates", "date of each trade, YYYY-MM-DD or RFC 3339")
				itemExample(s, "dates", "2026-03-09")
				intRange(s, "window_size", 2, performance.MaxConsistencyWindow)
				describe(s, "window_size", "rolling window in trades, at most N; default min(10, N)")
				example(prop(s, "window_size"), 5)
			}),
		NewTool(toolSpec(performanceCategory, "analyze_correlation", "Serial Correlation of Trades", "Serial dependence of trade outcomes: lag-1 autocorrelation, Ljung-Box Q and the runs test, with p-values."),
			func(_ context.Context, _ Call, in serialArgs) (*performance.SerialCorrelationResult, error) {
				return performance.AnalyzeSerialCorrelation(in.RMultiples, in.Lags)
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 3, "R-multiples, oldest first")
				intRange(s, "lags", 1, performance.MaxLjungBoxLags)
				describe(s, "lags", "Ljung-Box lags, < N; default min(10, N/4)")
				example(prop(s, "lags"), 3)
			}),
		NewTool(toolSpec(performanceCategory, "analyze_distribution", "R-Multiple Distribution", "Distribution of R: histogram, mean, median, stdev, skewness, kurtosis, Jarque-Bera, quantiles, tail ratios."),
			func(_ context.Context, _ Call, in distributionArgs) (*performance.DistributionResult, error) {
				return performance.AnalyzeDistribution(in.RMultiples, in.BucketCount)
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "trade results in R")
				setDefault(intRange(s, "bucket_count", 1, performance.MaxBucketCount), performance.DefaultBucketCount)
				describe(s, "bucket_count", "number of histogram buckets")
			}),
		NewTool(toolSpec(performanceCategory, "analyze_risk_adjusted", "Risk-Adjusted Ratios (Sharpe, Sortino, Calmar)", "Sharpe, Sortino and Calmar ratios of R-multiples, per trade and annualised, with the conventions stated.").
			WithAliases("calculate_risk_adjusted"),
			func(_ context.Context, _ Call, in riskAdjustedArgs) (*performance.RiskAdjustedResult, error) {
				opt := performance.RiskAdjustedOptions{TradesPerYear: floatPtr(in.TradesPerYear)}
				if in.TargetR != nil {
					opt.TargetR = float64(*in.TargetR)
				}
				return performance.AnalyzeRiskAdjusted(in.RMultiples, opt)
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "R-multiples, oldest first")
				describe(s, "target_r", "Sortino minimum acceptable return, R per trade")
				setDefault(prop(s, "target_r"), "0")
				positiveDecimal(s, "trades_per_year", "trades per year; annualises the ratios")
				example(prop(s, "trades_per_year"), "120")
			}),
	}
}

// executionSegmentTools returns the execution-quality and segmentation
// tools.
func executionSegmentTools() []Tool {
	return []Tool{
		NewTool(toolSpec(performanceCategory, "analyze_execution_quality", "Execution Quality (MAE/MFE)", "Execution quality from MAE/MFE in R: edge ratio, capture and exit efficiency, give-back, stop breaches."),
			func(_ context.Context, _ Call, in executionArgs) (*performance.ExecutionQualityResult, error) {
				return performance.AnalyzeExecutionQuality(performance.ExecutionInput{
					RMultiples: in.RMultiples, MAE: in.MAEValues, MFE: in.MFEValues, HoldTimesHours: in.HoldTimesHours,
				})
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "trade results in R")
				describeAll(s, map[string]string{
					"mae_values":       "max adverse excursion per trade, in R",
					"mfe_values":       "max favourable excursion per trade, in R",
					"hold_times_hours": "holding time per trade, in hours",
				})
				itemExample(s, "mae_values", "0.4")
				itemExample(s, "mfe_values", "2.1")
				itemExample(s, "hold_times_hours", "6.5")
			}),
		NewTool(toolSpec(performanceCategory, "segment_trades", "Trade Segmentation", "Count, win rate, expectancy, G, total R and USD P&L per segment: symbol, day of week, strategy or regime.").
			WithAliases("analyze_segmentation"),
			func(ctx context.Context, _ Call, in segmentArgs) (*performance.SegmentResult, error) {
				trades := make([]performance.SegmentTrade, len(in.Trades))
				for i, t := range in.Trades {
					trades[i] = performance.SegmentTrade{
						PnLR: float64(t.PnLR), PnLUSD: t.PnLUSD, Symbol: t.Symbol,
						DayOfWeek: t.DayOfWeek, StrategyID: t.StrategyID, Regime: t.Regime,
					}
				}
				return performance.SegmentTrades(ctx, trades, in.SegmentBy)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "trades", 1)
				describe(s, "trades", "closed trades to segment")
				item := prop(s, "trades").Items
				intRange(item, "day_of_week", 0, 6)
				nonEmpty(item, "symbol", "strategy_id", "regime")
				describeAll(item, map[string]string{
					"pnl_r":       "realised result in R",
					"pnl_usd":     "realised P&L in USD",
					"day_of_week": "weekday, 0 = Monday to 6 = Sunday",
					"symbol":      "instrument symbol, a segment key",
					"strategy_id": "strategy id, a segment key",
					"regime":      "market regime at entry, a segment key",
				})
				examples(item, map[string]any{"pnl_r": "1.5", "pnl_usd": "150", "day_of_week": 2, "symbol": "MSFT",
					"strategy_id": "breakout", "regime": "TRENDING_UP"})
				describe(s, "segment_by", "key the trades are grouped by")
				by := prop(s, "segment_by")
				by.Enum = []any{performance.SegmentBySymbol, performance.SegmentByDayOfWeek, performance.SegmentByStrategy, performance.SegmentByRegime}
				setDefault(by, performance.SegmentBySymbol)
			}),
	}
}

// tradeLevelTools returns the tools on one trade or signal: P&L, expected
// value, trade outcome and signal score.
func tradeLevelTools() []Tool {
	return []Tool{
		NewTool(toolSpec(performanceCategory, "calculate_pnl", "Trade P&L", "Gross and net P&L, fees, return and (with a stop) the R-multiple of a closed trade, in exact decimals."),
			func(_ context.Context, _ Call, in pnlArgs) (*performance.PnLResult, error) {
				return performance.CalculatePnL(performance.PnLInput{
					EntryPrice: in.EntryPrice, ExitPrice: in.ExitPrice, Quantity: in.Quantity,
					Direction: in.Direction, StopPrice: in.StopPrice, Fees: in.Fees,
				})
			},
			func(s *jsonschema.Schema) {
				positiveDecimal(s, "entry_price", "average entry price, currency")
				positiveDecimal(s, "exit_price", "average exit price, currency")
				intAtLeast(s, "quantity", 1)
				describe(s, "quantity", "units traded, a whole number")
				direction(s)
				positiveDecimal(s, "stop_price", "initial stop, currency; adds the R-multiple")
				nonNegativeDecimal(s, "fees", "round-trip fees, currency")
				setDefault(prop(s, "fees"), "0")
				examples(s, map[string]any{"entry_price": "100.50", "exit_price": "103.25", "quantity": 100, "stop_price": "99"})
			}),
		NewTool(toolSpec(performanceCategory, "calculate_expected_value", "Expected Value per Trade", "Expected value per trade from win rate and average win and loss, or from R-multiples, with payoff ratio and breakeven.").
			WithExample(map[string]any{"win_rate": "0.45", "avg_win": "2.1", "avg_loss": "1"}),
			func(_ context.Context, _ Call, in expectedValueArgs) (*performance.ExpectedValueResult, error) {
				return performance.CalculateExpectedValue(performance.ExpectedValueInput{
					WinRate: floatPtr(in.WinRate), AvgWin: floatPtr(in.AvgWin), AvgLoss: floatPtr(in.AvgLoss),
					RMultiples: in.RMultiples,
				})
			},
			func(s *jsonschema.Schema) {
				rMultiples(s, 2, "alternatively, trade results in R")
				examples(s, map[string]any{"win_rate": "0.45", "avg_win": "2.1", "avg_loss": "1"})
				describeAll(s, map[string]string{
					"win_rate": "probability of a win, a fraction 0 to 1",
					"avg_win":  "average win >= 0, in R or currency (as avg_loss)",
					"avg_loss": "average loss in avg_win's unit (sign ignored)",
				})
				NeedsOneOf(s, true, []string{"win_rate", "avg_win", "avg_loss"}, []string{"r_multiples"})
			}),
		NewTool(toolSpec(performanceCategory, "analyze_trade_outcome", "Trade Outcome Grade", "Grades one closed trade: WIN/LOSS/BREAKEVEN, efficiency, edge captured from the MFE, accuracy against expected R."),
			func(_ context.Context, _ Call, in tradeOutcomeArgs) (*performance.TradeOutcomeResult, error) {
				return performance.AnalyzeTradeOutcome(performance.TradeOutcomeInput{
					RealizedPnL: in.RealizedPnL, RealizedR: float64(in.RealizedR), MFE: in.MFE,
					OneRDollars: in.OneRDollars, ExpectedValueR: floatPtr(in.ExpectedValueR),
				})
			}, func(s *jsonschema.Schema) {
				describeAll(s, map[string]string{
					"realized_pnl":     "realised P&L, currency",
					"realized_r":       "realised result in R",
					"mfe":              "max favourable excursion, currency",
					"one_r_dollars":    "initial risk (1R), currency",
					"expected_value_r": "system's expected result per trade, in R",
				})
				positives(s, "one_r_dollars")
				examples(s, map[string]any{"realized_pnl": "250", "realized_r": "2.5", "mfe": "400", "one_r_dollars": "100",
					"expected_value_r": "0.4"})
				prop(s, "mfe").Minimum = f64(0)
			}),
		NewTool(toolSpec(performanceCategory, "score_signal", "Signal Quality Score", "0-100 quality score of a trade signal from conditions met, regime, indicator confluence, volume and risk/reward."),
			func(_ context.Context, _ Call, in signalArgs) (*performance.SignalScore, error) {
				return performance.ScoreSignal(performance.SignalInput{
					ConditionsMet: in.ConditionsMet, TotalConditions: in.TotalConditions,
					RegimeAligned: in.RegimeAligned, IndicatorConfluence: in.IndicatorConfluence,
					VolumeConfirmed: in.VolumeConfirmed, RiskRewardRatio: floatPtr(in.RiskRewardRatio),
				})
			},
			func(s *jsonschema.Schema) {
				intAtLeast(s, "conditions_met", 0)
				intAtLeast(s, "total_conditions", 1)
				intAtLeast(s, "indicator_confluence", 0)
				describeAll(s, map[string]string{
					"conditions_met":       "entry conditions met, at most total_conditions",
					"total_conditions":     "number of entry conditions checked",
					"regime_aligned":       "signal agrees with the market regime",
					"indicator_confluence": "count of agreeing indicators (3+ count fully)",
					"volume_confirmed":     "volume confirms the signal",
					"risk_reward_ratio":    "reward / risk multiple (3+ counts fully)",
				})
				examples(s, map[string]any{"conditions_met": 4, "total_conditions": 5, "indicator_confluence": 2, "risk_reward_ratio": "2.5"})
			}),
	}
}
