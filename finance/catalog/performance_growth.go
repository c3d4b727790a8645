package catalog

import (
	"context"
	"crypto/rand"
	"encoding/binary"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

// performanceCategory is the category of the R-multiple analytics tools.
const performanceCategory = "performance"

// performanceGrowthTools returns the R-multiple tools about equity growth
// (docs/tools-performance-growth.md): Monte Carlo, Kelly, drawdown, win/loss,
// what-if, variance killers, rolling G, equity curve, system score,
// peak/valley and recovery.
func performanceGrowthTools() []Tool {
	return []Tool{
		monteCarloTool(),
		kellyTool(),
		drawdownTool(),
		varianceKillersTool(),
		winLossTool(),
		whatIfTool(),
		rollingGTool(),
		equityCurveTool(),
		systemScoreTool(),
		peakValleyTool(),
		recoveryTool(),
	}
}

type monteCarloInput struct {
	RMultiples          toolkit.Floats `json:"r_multiples"`
	StartingEquity      toolkit.Amount `json:"starting_equity"`
	NumSimulations      *int           `json:"num_simulations,omitempty"`
	TradesPerSimulation *int           `json:"trades_per_simulation,omitempty"`
	RiskPerTrade        *toolkit.Float `json:"risk_per_trade,omitempty"`
	Seed                *uint64        `json:"seed,omitempty"`
}

func monteCarloTool() Tool {
	return NewTool(Spec{Name: "run_monte_carlo", Operation: "run_monte_carlo", Category: performanceCategory,
		Description: "Monte Carlo of compounded equity paths by resampling R-multiples with replacement: probabilities of profit, +20 %, 20 % and 50 % drawdown, final-equity percentiles, median max drawdown; seeded and reproducible."},
		func(_ context.Context, _ Call, in monteCarloInput) (any, error) {
			opt := performance.MonteCarloOptions{StartingEquity: in.StartingEquity.Float64(), Seed: in.Seed, SeedSource: randomSeed}
			opt.NumSimulations = intOr(in.NumSimulations, performance.DefaultSimulations)
			opt.TradesPerSimulation = intOr(in.TradesPerSimulation, performance.DefaultTradesPerSimulation)
			risk, err := positiveOr("risk_per_trade", in.RiskPerTrade, performance.DefaultRiskPerTrade)
			if err != nil {
				return nil, err
			}
			opt.RiskPerTrade = risk
			return performance.RunMonteCarlo(in.RMultiples, opt)
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 2)
			setDefault(intRange(s, "num_simulations", 1, performance.MaxSimulations), performance.DefaultSimulations)
			setDefault(intRange(s, "trades_per_simulation", 1, performance.MaxTradesPerSimulation), performance.DefaultTradesPerSimulation)
			intRange(s, "seed", 0, performance.MaxSeed)
			describe(s, "seed", "optional seed; omitted: one is picked and echoed in the result")
			setDefault(prop(s, "risk_per_trade"), "0.01")
		})
}

// randomSeed picks a seed from crypto/rand, below 2^53 so that JSON
// clients read it back exactly.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
	return binary.LittleEndian.Uint64(b[:]) & performance.MaxSeed
}

type kellyInput struct {
	RMultiples   toolkit.Floats `json:"r_multiples"`
	RiskPerTrade *toolkit.Float `json:"risk_per_trade,omitempty"`
	RuinDrawdown *toolkit.Float `json:"ruin_drawdown,omitempty"`
}

func kellyTool() Tool {
	return NewTool(Spec{Name: "calculate_kelly", Operation: "calculate_kelly", Category: performanceCategory,
		Description: "Kelly fractions of an R-multiple series (full, half, quarter: the numeric optimum of mean ln(1+f·R), with the binary closed form) and the risk of ruin."},
		func(_ context.Context, _ Call, in kellyInput) (any, error) {
			v, err := positivesOr([]string{"risk_per_trade", "ruin_drawdown"}, []*toolkit.Float{in.RiskPerTrade, in.RuinDrawdown},
				[]float64{performance.DefaultRiskPerTrade, performance.DefaultRuinDrawdown})
			if err != nil {
				return nil, err
			}
			return performance.CalculateKelly(in.RMultiples, performance.KellyOptions{RiskPerTrade: v[0], RuinDrawdown: v[1]})
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 2)
			setDefault(prop(s, "risk_per_trade"), "0.01")
			setDefault(prop(s, "ruin_drawdown"), "0.5")
		})
}

type drawdownInput struct {
	EquityValues   toolkit.Floats `json:"equity_values,omitempty"`
	RMultiples     toolkit.Floats `json:"r_multiples,omitempty"`
	StartingEquity toolkit.Amount `json:"starting_equity"`
	NetProfit      *toolkit.Float `json:"net_profit,omitempty"`
	RiskPerTrade   *toolkit.Float `json:"risk_per_trade,omitempty"`
}

func drawdownTool() Tool {
	return NewTool(Spec{Name: "analyze_drawdown", Operation: "analyze_drawdown", Category: performanceCategory,
		Description: "Drawdown analysis of an equity curve (equity_values, or r_multiples compounded at risk_per_trade): max drawdown in % and currency, current and average drawdown, episodes, durations, time in drawdown, recovery factor, Ulcer index."},
		func(_ context.Context, _ Call, in drawdownInput) (any, error) {
			var np *float64
			if in.NetProfit != nil {
				v := float64(*in.NetProfit)
				np = &v
			}
			start := in.StartingEquity.Float64()
			switch {
			case in.EquityValues != nil && in.RMultiples != nil:
				return nil, toolkit.Errorf(toolkit.Invalid, "equity_values: give either equity_values or r_multiples, not both")
			case in.EquityValues != nil:
				return performance.AnalyzeDrawdown(in.EquityValues, start, np)
			case in.RMultiples != nil:
				risk, err := positiveOr("risk_per_trade", in.RiskPerTrade, performance.DefaultRiskPerTrade)
				if err != nil {
					return nil, err
				}
				return performance.AnalyzeDrawdownR(in.RMultiples, start, risk, np)
			}
			return nil, toolkit.Errorf(toolkit.Invalid, "Missing required argument: equity_values (or r_multiples)")
		},
		func(s *jsonschema.Schema) {
			minItems(s, "equity_values", 1)
			minItems(s, "r_multiples", 1)
			setDefault(prop(s, "risk_per_trade"), "0.01")
			describe(s, "risk_per_trade", "with r_multiples: fraction of equity risked per 1R")
		})
}

type killersInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	TradeIDs   []string       `json:"trade_ids,omitempty"`
	Symbols    []string       `json:"symbols,omitempty"`
	TopN       *int           `json:"top_n,omitempty"`
}

func varianceKillersTool() Tool {
	return NewTool(Spec{Name: "find_variance_killers", Operation: "find_variance_killers", Category: performanceCategory,
		Description: "Trades whose removal raises G the most (leave-one-out), with index, id, symbol, R and G impact, plus variance shares of big losses and top outcomes."},
		func(_ context.Context, _ Call, in killersInput) (any, error) {
			return performance.FindVarianceKillers(in.RMultiples, performance.KillerOptions{
				TradeIDs: in.TradeIDs, Symbols: in.Symbols, TopN: intOr(in.TopN, performance.DefaultKillerCount)})
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 2)
			setDefault(intRange(s, "top_n", 1, performance.MaxKillerCount), performance.DefaultKillerCount)
			nonEmptyItems(s, "trade_ids")
			nonEmptyItems(s, "symbols")
		})
}

type winLossInput struct {
	RMultiples toolkit.Floats   `json:"r_multiples"`
	PnLValues  []toolkit.Amount `json:"pnl_values,omitempty"`
}

func winLossTool() Tool {
	return NewTool(Spec{Name: "analyze_win_loss", Operation: "analyze_win_loss", Category: performanceCategory,
		Description: "Win/loss statistics of R-multiples: win rate, average win and loss R, payoff ratio, profit factor, expectancy, streaks (R = 0 is a breakeven); currency figures when pnl_values are given."},
		func(_ context.Context, _ Call, in winLossInput) (any, error) {
			if len(in.PnLValues) > limits.MaxItems {
				return nil, toolkit.Errorf(toolkit.TooLarge, "pnl_values: at most %d values are accepted, got %d", limits.MaxItems, len(in.PnLValues))
			}
			return performance.AnalyzeWinLoss(in.RMultiples, in.PnLValues)
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 1)
			describe(s, "pnl_values", "optional P&L of each trade in currency, parallel to r_multiples")
		})
}

type whatIfInput struct {
	RMultiples      toolkit.Floats `json:"r_multiples"`
	RemoveCount     *int           `json:"remove_count,omitempty"`
	LossCap         *toolkit.Float `json:"loss_cap,omitempty"`
	WinnerScale     *toolkit.Float `json:"winner_scale,omitempty"`
	SkipAfterLosses *int           `json:"skip_after_losses,omitempty"`
}

func whatIfTool() Tool {
	return NewTool(Spec{Name: "run_what_if", Operation: "run_what_if", Category: performanceCategory,
		Description: "G and expectancy under what-if scenarios: remove the worst or best trades, cap losses, scale winners, skip the trade after a losing streak."},
		func(_ context.Context, _ Call, in whatIfInput) (any, error) {
			v, err := positivesOr([]string{"loss_cap", "winner_scale"}, []*toolkit.Float{in.LossCap, in.WinnerScale},
				[]float64{performance.DefaultLossCap, performance.DefaultWinnerScale})
			if err != nil {
				return nil, err
			}
			return performance.RunWhatIf(in.RMultiples, performance.WhatIfOptions{
				RemoveCount: intOr(in.RemoveCount, 0), LossCap: v[0], WinnerScale: v[1],
				SkipAfterLosses: intOr(in.SkipAfterLosses, performance.DefaultSkipAfterLosses),
			})
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 2)
			intRange(s, "remove_count", 1, limits.MaxItems)
			describe(s, "remove_count", "trades removed by remove_worst/remove_best; default ceil(5 % of N), at most N-1")
			setDefault(intRange(s, "skip_after_losses", 1, limits.MaxItems), performance.DefaultSkipAfterLosses)
			setDefault(prop(s, "loss_cap"), "1")
			setDefault(prop(s, "winner_scale"), "0.9")
		})
}

type rollingGInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	WindowSize *int           `json:"window_size,omitempty"`
}

func rollingGTool() Tool {
	return NewTool(Spec{Name: "calculate_rolling_g", Operation: "calculate_rolling_g", Category: performanceCategory,
		Description: "G over rolling windows of trades and the trend of the edge (IMPROVING, STABLE, DECLINING) from the last two non-overlapping windows."},
		func(_ context.Context, _ Call, in rollingGInput) (any, error) {
			return performance.CalculateRollingG(in.RMultiples, intOr(in.WindowSize, performance.DefaultWindowSize))
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 2)
			setDefault(intRange(s, "window_size", 2, limits.MaxItems), performance.DefaultWindowSize)
		})
}

type equityCurveInput struct {
	RMultiples     toolkit.Floats  `json:"r_multiples"`
	StartingEquity *toolkit.Amount `json:"starting_equity,omitempty"`
	RiskPerTrade   *toolkit.Float  `json:"risk_per_trade,omitempty"`
	TradesPerYear  *toolkit.Float  `json:"trades_per_year,omitempty"`
}

func equityCurveTool() Tool {
	return NewTool(Spec{Name: "calculate_equity_curve", Operation: "calculate_equity_curve", Category: performanceCategory,
		Description: "Compounded equity curve of R-multiples at a fixed risk per trade: total return, max drawdown, the curve and the cumulative R; CAGR when trades_per_year is given."},
		func(_ context.Context, _ Call, in equityCurveInput) (any, error) {
			start := performance.DefaultInitialEquity
			if in.StartingEquity != nil {
				start = in.StartingEquity.Float64()
			}
			v, err := positivesOr([]string{"risk_per_trade", "trades_per_year"}, []*toolkit.Float{in.RiskPerTrade, in.TradesPerYear},
				[]float64{performance.DefaultRiskPerTrade, 0})
			if err != nil {
				return nil, err
			}
			return performance.CalculateEquityCurve(in.RMultiples, start, v[0], v[1])
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 1)
			setDefault(prop(s, "starting_equity"), "100000")
			setDefault(prop(s, "risk_per_trade"), "0.01")
		})
}

type rOnlyInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
}

func systemScoreTool() Tool {
	return NewTool(Spec{Name: "calculate_system_score", Operation: "calculate_system_score", Category: performanceCategory,
		Description: "System R Score: a 0-100 composite of expectancy, SQN, profit factor, recovery factor and sample size, with a grade A+ to F and every component shown."},
		func(_ context.Context, _ Call, in rOnlyInput) (any, error) {
			return performance.CalculateSystemScore(in.RMultiples)
		},
		func(s *jsonschema.Schema) { minItems(s, "r_multiples", 2) })
}

type peakValleyInput struct {
	EquityValues   toolkit.Floats `json:"equity_values"`
	StartingEquity toolkit.Amount `json:"starting_equity"`
}

func peakValleyTool() Tool {
	return NewTool(Spec{Name: "detect_peak_valley", Operation: "detect_peak_valley", Category: performanceCategory,
		Description: "Where an equity curve stands (AT_PEAK, AT_VALLEY, BETWEEN), its peaks and valleys, and the distance from the peak."},
		func(_ context.Context, _ Call, in peakValleyInput) (any, error) {
			return performance.DetectPeakValley(in.EquityValues, in.StartingEquity.Float64())
		},
		func(s *jsonschema.Schema) { minItems(s, "equity_values", 1) })
}

type recoveryInput struct {
	RMultiples    toolkit.Floats  `json:"r_multiples"`
	InitialEquity *toolkit.Amount `json:"initial_equity,omitempty"`
	RiskPerTrade  *toolkit.Float  `json:"risk_per_trade,omitempty"`
}

func recoveryTool() Tool {
	return NewTool(Spec{Name: "analyze_recovery", Operation: "analyze_recovery", Category: performanceCategory,
		Description: "Recovery from drawdowns on the compounded equity curve of R-multiples: trades to recover each drawdown, average and longest recovery, recovery factor."},
		func(_ context.Context, _ Call, in recoveryInput) (any, error) {
			initial := performance.DefaultInitialEquity
			if in.InitialEquity != nil {
				if initial = in.InitialEquity.Float64(); initial <= 0 {
					return nil, toolkit.Errorf(toolkit.Invalid, "initial_equity: must be greater than 0, got %s", in.InitialEquity)
				}
			}
			risk, err := positiveOr("risk_per_trade", in.RiskPerTrade, performance.DefaultRiskPerTrade)
			if err != nil {
				return nil, err
			}
			return performance.AnalyzeRecovery(in.RMultiples, initial, risk)
		},
		func(s *jsonschema.Schema) {
			minItems(s, "r_multiples", 1)
			setDefault(prop(s, "initial_equity"), "100000")
			setDefault(prop(s, "risk_per_trade"), "0.01")
		})
}

// intOr returns *p or def when p is nil.
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// positiveOr returns *p or def when p is nil. A given value must be > 0:
// the Go APIs read 0 as "use the default", so a 0 here is rejected.
func positiveOr(field string, p *toolkit.Float, def float64) (float64, error) {
	if p == nil {
		return def, nil
	}
	if *p <= 0 {
		return 0, toolkit.Errorf(toolkit.Invalid, "%s: must be greater than 0, got %v", field, float64(*p))
	}
	return float64(*p), nil
}

// positivesOr resolves several optional positive inputs at once.
func positivesOr(fields []string, ps []*toolkit.Float, defs []float64) ([]float64, error) {
	out := make([]float64, len(ps))
	for i, p := range ps {
		v, err := positiveOr(fields[i], p, defs[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
