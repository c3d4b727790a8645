package catalog

import (
	"context"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

type confidenceArgs struct {
	RMultiples       toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples, one per trade (at least 2)"`
	Confidence       *toolkit.Float `json:"confidence,omitempty" jsonschema:"two-sided confidence level, 0.5 to 0.999 (default 0.95)"`
	BootstrapSamples *int           `json:"bootstrap_samples,omitempty" jsonschema:"bootstrap resamples, 100 to 10000 (default 10000)"`
	Seed             *uint64        `json:"seed,omitempty" jsonschema:"PRNG seed (default 0); echoed in the output"`
}

type consistencyArgs struct {
	RMultiples toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples in chronological order (at least 2)"`
	Dates      []string       `json:"dates,omitempty" jsonschema:"trade dates parallel to r_multiples: YYYY-MM-DD or RFC 3339"`
	WindowSize *int           `json:"window_size,omitempty" jsonschema:"rolling window in trades, 2 to min(n, 1000) (default min(10, n))"`
}

type serialArgs struct {
	RMultiples toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples in chronological order (at least 3)"`
	Lags       *int           `json:"lags,omitempty" jsonschema:"Ljung-Box lags, 1 to min(100, n-1) (default max(1, min(10, n/4)))"`
}

type distributionArgs struct {
	RMultiples  toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples (at least 2)"`
	BucketCount *int           `json:"bucket_count,omitempty" jsonschema:"histogram buckets, 1 to 1000 (default 10)"`
}

type riskAdjustedArgs struct {
	RMultiples    toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples in chronological order (at least 2)"`
	TargetR       *toolkit.Float `json:"target_r,omitempty" jsonschema:"minimum acceptable R per trade for Sortino (default 0)"`
	TradesPerYear *toolkit.Float `json:"trades_per_year,omitempty" jsonschema:"trades per year, > 0, to annualise (default: per trade only)"`
}

type executionArgs struct {
	RMultiples     toolkit.Floats `json:"r_multiples" jsonschema:"R-multiples (at least 2)"`
	MAEValues      toolkit.Floats `json:"mae_values,omitempty" jsonschema:"maximum adverse excursion per trade in R, parallel (sign ignored)"`
	MFEValues      toolkit.Floats `json:"mfe_values,omitempty" jsonschema:"maximum favourable excursion per trade in R, parallel (sign ignored)"`
	HoldTimesHours toolkit.Floats `json:"hold_times_hours,omitempty" jsonschema:"holding time per trade in hours, parallel, >= 0"`
}

type segmentTradeArg struct {
	PnLR       toolkit.Float  `json:"pnl_r" jsonschema:"realised R"`
	PnLUSD     toolkit.Amount `json:"pnl_usd" jsonschema:"realised P&L in USD"`
	Symbol     string         `json:"symbol,omitempty"`
	DayOfWeek  *int           `json:"day_of_week,omitempty" jsonschema:"0 = Monday to 6 = Sunday"`
	StrategyID string         `json:"strategy_id,omitempty"`
	Regime     string         `json:"regime,omitempty"`
}

type segmentArgs struct {
	Trades    []segmentTradeArg `json:"trades" jsonschema:"trades (at least 1)"`
	SegmentBy string            `json:"segment_by,omitempty" jsonschema:"symbol, day_of_week, strategy or regime (default symbol)"`
}

type pnlArgs struct {
	EntryPrice toolkit.Amount  `json:"entry_price" jsonschema:"entry price, > 0"`
	ExitPrice  toolkit.Amount  `json:"exit_price" jsonschema:"exit price, > 0"`
	Quantity   int64           `json:"quantity" jsonschema:"units, at least 1"`
	Direction  string          `json:"direction" jsonschema:"long or short (letter case ignored)"`
	StopPrice  *toolkit.Amount `json:"stop_price,omitempty" jsonschema:"initial stop; enables the R-multiple"`
	Fees       *toolkit.Amount `json:"fees,omitempty" jsonschema:"total round-trip fees, >= 0 (default 0)"`
}

type expectedValueArgs struct {
	WinRate    *toolkit.Float `json:"win_rate,omitempty" jsonschema:"probability of a win, 0 to 1"`
	AvgWin     *toolkit.Float `json:"avg_win,omitempty" jsonschema:"average win, >= 0"`
	AvgLoss    *toolkit.Float `json:"avg_loss,omitempty" jsonschema:"average loss (sign ignored)"`
	RMultiples toolkit.Floats `json:"r_multiples,omitempty" jsonschema:"alternatively, R-multiples (at least 2)"`
}

type tradeOutcomeArgs struct {
	RealizedPnL    toolkit.Amount `json:"realized_pnl" jsonschema:"realised P&L in money"`
	RealizedR      toolkit.Float  `json:"realized_r" jsonschema:"realised R-multiple"`
	MFE            toolkit.Amount `json:"mfe" jsonschema:"maximum favourable excursion in money, >= 0"`
	OneRDollars    toolkit.Amount `json:"one_r_dollars" jsonschema:"initial risk in money, > 0"`
	ExpectedValueR *toolkit.Float `json:"expected_value_r,omitempty" jsonschema:"expected R per trade of the system"`
}

type signalArgs struct {
	ConditionsMet       int            `json:"conditions_met" jsonschema:"entry conditions met, 0 to total_conditions"`
	TotalConditions     int            `json:"total_conditions" jsonschema:"entry conditions checked, at least 1"`
	RegimeAligned       bool           `json:"regime_aligned,omitempty" jsonschema:"signal agrees with the market regime (default false)"`
	IndicatorConfluence int            `json:"indicator_confluence,omitempty" jsonschema:"number of agreeing indicators, >= 0 (default 0)"`
	VolumeConfirmed     bool           `json:"volume_confirmed,omitempty" jsonschema:"volume confirms the signal (default false)"`
	RiskRewardRatio     *toolkit.Float `json:"risk_reward_ratio,omitempty" jsonschema:"reward/risk, >= 0"`
}

// performanceStatisticsTools returns the confidence, consistency, serial
// correlation, distribution, risk-adjusted, execution-quality,
// segmentation and trade-level tools.
func performanceStatisticsTools() []Tool {
	return []Tool{
		NewTool(performanceSpec("analyze_confidence", "Bootstrap and Student-t confidence intervals for mean R and win rate, and the probability that the edge is positive (seeded)."),
			func(_ context.Context, _ Call, in confidenceArgs) (any, error) {
				opt := performance.ConfidenceOptions{Level: floatPtr(in.Confidence), Samples: in.BootstrapSamples}
				if in.Seed != nil {
					opt.Seed = *in.Seed
				}
				return performance.AnalyzeConfidence(in.RMultiples, opt)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "r_multiples", 2)
				setDefault(intRange(s, "bootstrap_samples", performance.MinBootstrapSamples, performance.DefaultBootstrapSamples), performance.DefaultBootstrapSamples)
				setDefault(prop(s, "seed"), 0)
			}),
		NewTool(performanceSpec("analyze_consistency", "Rolling stability of the edge: rolling expectancy and G, profitable blocks, equity-curve R², losing streaks, and monthly/ISO-week buckets when dates are given."),
			func(_ context.Context, _ Call, in consistencyArgs) (any, error) {
				return performance.AnalyzeConsistency(in.RMultiples, performance.ConsistencyOptions{Dates: in.Dates, WindowSize: in.WindowSize})
			},
			func(s *jsonschema.Schema) {
				minItems(s, "r_multiples", 2)
				intRange(s, "window_size", 2, performance.MaxConsistencyWindow)
			}),
		NewTool(performanceSpec("analyze_correlation", "Serial dependence of chronological trade outcomes: lag-1 autocorrelation, Ljung-Box Q and the Wald-Wolfowitz runs test with p-values."),
			func(_ context.Context, _ Call, in serialArgs) (any, error) {
				return performance.AnalyzeSerialCorrelation(in.RMultiples, in.Lags)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "r_multiples", 3)
				intRange(s, "lags", 1, performance.MaxLjungBoxLags)
			}),
		NewTool(performanceSpec("analyze_distribution", "Distribution of R: histogram, mean, median, stdev, skewness, excess kurtosis, Jarque-Bera normality test, quantiles and tail ratios."),
			func(_ context.Context, _ Call, in distributionArgs) (any, error) {
				return performance.AnalyzeDistribution(in.RMultiples, in.BucketCount)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "r_multiples", 2)
				setDefault(intRange(s, "bucket_count", 1, performance.MaxBucketCount), performance.DefaultBucketCount)
			}),
		NewTool(performanceSpec("analyze_risk_adjusted", "Sharpe (ddof 1), Sortino (full downside deviation) and Calmar (on the cumulative R curve) ratios, with the conventions stated in the output."),
			func(_ context.Context, _ Call, in riskAdjustedArgs) (any, error) {
				opt := performance.RiskAdjustedOptions{TradesPerYear: floatPtr(in.TradesPerYear)}
				if in.TargetR != nil {
					opt.TargetR = float64(*in.TargetR)
				}
				return performance.AnalyzeRiskAdjusted(in.RMultiples, opt)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "r_multiples", 2)
				setDefault(prop(s, "target_r"), "0")
			}),
		NewTool(performanceSpec("analyze_execution_quality", "Execution quality from MAE/MFE in R: edge ratio, capture and exit efficiency, give-back, stop breaches, excursion and holding-time statistics."),
			func(_ context.Context, _ Call, in executionArgs) (any, error) {
				return performance.AnalyzeExecutionQuality(performance.ExecutionInput{
					RMultiples: in.RMultiples, MAE: in.MAEValues, MFE: in.MFEValues, HoldTimesHours: in.HoldTimesHours,
				})
			},
			func(s *jsonschema.Schema) { minItems(s, "r_multiples", 2) }),
		NewTool(performanceSpec("segment_trades", "Per-segment count, win rate, expectancy, G, total R and exact USD P&L, by symbol, day of week, strategy or regime."),
			func(_ context.Context, _ Call, in segmentArgs) (any, error) {
				trades := make([]performance.SegmentTrade, len(in.Trades))
				for i, t := range in.Trades {
					trades[i] = performance.SegmentTrade{
						PnLR: float64(t.PnLR), PnLUSD: t.PnLUSD, Symbol: t.Symbol,
						DayOfWeek: t.DayOfWeek, StrategyID: t.StrategyID, Regime: t.Regime,
					}
				}
				return performance.SegmentTrades(trades, in.SegmentBy)
			},
			func(s *jsonschema.Schema) {
				minItems(s, "trades", 1)
				item := prop(s, "trades").Items
				intRange(item, "day_of_week", 0, 6)
				nonEmpty(item, "symbol", "strategy_id", "regime")
				by := prop(s, "segment_by")
				by.Enum = []any{performance.SegmentBySymbol, performance.SegmentByDayOfWeek, performance.SegmentByStrategy, performance.SegmentByRegime}
				setDefault(by, performance.SegmentBySymbol)
			}),
		NewTool(performanceSpec("calculate_pnl", "Gross and net P&L, fees, return and (with a stop) the R-multiple of a closed trade, in exact decimal arithmetic."),
			func(_ context.Context, _ Call, in pnlArgs) (any, error) {
				return performance.CalculatePnL(performance.PnLInput{
					EntryPrice: in.EntryPrice, ExitPrice: in.ExitPrice, Quantity: in.Quantity,
					Direction: in.Direction, StopPrice: in.StopPrice, Fees: in.Fees,
				})
			},
			func(s *jsonschema.Schema) {
				intAtLeast(s, "quantity", 1)
				direction(s)
				setDefault(prop(s, "fees"), "0")
			}),
		NewTool(performanceSpec("calculate_expected_value", "Expected value per trade from win rate, average win and average loss, or from a list of R-multiples, with payoff ratio and breakeven win rate."),
			func(_ context.Context, _ Call, in expectedValueArgs) (any, error) {
				return performance.CalculateExpectedValue(performance.ExpectedValueInput{
					WinRate: floatPtr(in.WinRate), AvgWin: floatPtr(in.AvgWin), AvgLoss: floatPtr(in.AvgLoss),
					RMultiples: in.RMultiples,
				})
			},
			func(s *jsonschema.Schema) { minItems(s, "r_multiples", 2) }),
		NewTool(performanceSpec("analyze_trade_outcome", "Grades one closed trade: WIN/LOSS/BREAKEVEN, efficiency score, edge captured from the MFE, and accuracy against the expected R."),
			func(_ context.Context, _ Call, in tradeOutcomeArgs) (any, error) {
				return performance.AnalyzeTradeOutcome(performance.TradeOutcomeInput{
					RealizedPnL: in.RealizedPnL, RealizedR: float64(in.RealizedR), MFE: in.MFE,
					OneRDollars: in.OneRDollars, ExpectedValueR: floatPtr(in.ExpectedValueR),
				})
			}, nil),
		NewTool(performanceSpec("score_signal", "Confidence and quality score (0-100) of a trade signal from conditions met, regime alignment, indicator confluence, volume and risk/reward (documented formula)."),
			func(_ context.Context, _ Call, in signalArgs) (any, error) {
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
			}),
	}
}
