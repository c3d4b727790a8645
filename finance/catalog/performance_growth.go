package catalog

import (
	"context"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

// performanceCategory is the category of the R-multiple analytics tools.
const performanceCategory = "performance"

// performanceGrowthTools returns the R-multiple tools about equity growth
// (docs/tools/README.md#performance): Monte Carlo, Kelly, drawdown, win/loss,
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
	return NewTool(toolSpec(performanceCategory, "run_monte_carlo", "Monte Carlo Equity Simulation", "Monte Carlo of compounded equity paths resampling R-multiples: probability of profit and of 20 %/50 % drawdowns, percentiles.").priced("0.008"),
		func(ctx context.Context, _ Call, in monteCarloInput) (performance.MonteCarlo, error) {
			return performance.RunMonteCarlo(ctx, in.RMultiples, performance.MonteCarloOptions{
				StartingEquity: in.StartingEquity.Float64(), NumSimulations: in.NumSimulations,
				TradesPerSimulation: in.TradesPerSimulation, RiskPerTrade: floatPtr(in.RiskPerTrade),
				Seed: in.Seed,
			})
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 2, "trade results in R, resampled")
			positiveDecimal(s, "starting_equity", "starting equity, currency")
			setDefault(intRange(s, "num_simulations", 1, performance.MaxSimulations), performance.DefaultSimulations)
			describe(s, "num_simulations", "number of equity paths simulated")
			setDefault(intRange(s, "trades_per_simulation", 1, performance.MaxTradesPerSimulation), performance.DefaultTradesPerSimulation)
			describe(s, "trades_per_simulation", "number of trades drawn per path")
			riskPerTrade(s)
			intRange(s, "seed", 0, performance.MaxSeed)
			describe(s, "seed", "PRNG seed, echoed; omitted: derived from the arguments")
			example(prop(s, "seed"), 7)
			example(prop(s, "starting_equity"), "10000")
		})
}

type kellyInput struct {
	RMultiples   toolkit.Floats `json:"r_multiples"`
	RiskPerTrade *toolkit.Float `json:"risk_per_trade,omitempty"`
	RuinDrawdown *toolkit.Float `json:"ruin_drawdown,omitempty"`
}

func kellyTool() Tool {
	return NewTool(toolSpec(performanceCategory, "calculate_kelly", "Kelly Fraction and Risk of Ruin", "Kelly fractions of R-multiples (full, half, quarter; optimum of mean ln(1+f·R)) and the risk of ruin."),
		func(_ context.Context, _ Call, in kellyInput) (performance.Kelly, error) {
			return performance.CalculateKelly(in.RMultiples, performance.KellyOptions{
				RiskPerTrade: floatPtr(in.RiskPerTrade), RuinDrawdown: floatPtr(in.RuinDrawdown)})
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 2, "trade results in R")
			riskPerTrade(s)
			positiveDecimal(s, "ruin_drawdown", "fraction of equity lost that counts as ruin, < 1")
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
	return NewTool(toolSpec(performanceCategory, "analyze_drawdown", "Drawdown Analysis", "Drawdowns of an equity curve or compounded R-multiples: max, current, average, episodes, durations, recovery factor, Ulcer index.").
		WithExample(map[string]any{"equity_values": []any{"101000", "99000", "102000", "98000", "97000"}, "starting_equity": "100000"}),
		func(_ context.Context, _ Call, in drawdownInput) (performance.Drawdown, error) {
			start, np := in.StartingEquity.Float64(), floatPtr(in.NetProfit)
			switch {
			case in.EquityValues != nil && in.RMultiples != nil:
				return performance.Drawdown{}, toolkit.Errorf(toolkit.Invalid, "equity_values: give either equity_values or r_multiples, not both")
			case in.EquityValues != nil:
				return performance.AnalyzeDrawdown(in.EquityValues, start, np)
			case in.RMultiples != nil:
				return performance.AnalyzeDrawdownR(in.RMultiples, start, floatPtr(in.RiskPerTrade), np)
			}
			return performance.Drawdown{}, toolkit.Errorf(toolkit.Invalid, "Missing required argument: equity_values (or r_multiples)")
		},
		func(s *jsonschema.Schema) {
			minItems(s, "equity_values", 1)
			describe(s, "equity_values", "equity after each trade, currency, oldest first, each >= 0")
			example(prop(s, "equity_values"), []any{"101000", "99000", "102000", "98000", "97000"})
			minItems(s, "r_multiples", 1)
			example(prop(s, "r_multiples"), sampleRValues(1))
			describe(s, "r_multiples", "trade results in R, compounded")
			positiveDecimal(s, "starting_equity", "equity before the first trade, currency")
			describe(s, "net_profit", "net profit, currency; default last - starting equity")
			examples(s, map[string]any{"starting_equity": "100000", "net_profit": "-3000"})
			riskPerTrade(s)
			NeedsOneOf(s, true, []string{"equity_values"}, []string{"r_multiples"})
		})
}

type killersInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	TradeIDs   []string       `json:"trade_ids,omitempty"`
	Symbols    []string       `json:"symbols,omitempty"`
	TopN       *int           `json:"top_n,omitempty"`
}

func varianceKillersTool() Tool {
	return NewTool(toolSpec(performanceCategory, "find_variance_killers", "Variance-Killer Trades", "Trades whose removal raises G the most (leave-one-out), with their G impact, and the variance share of big losses."),
		func(_ context.Context, _ Call, in killersInput) (performance.VarianceKillers, error) {
			return performance.FindVarianceKillers(in.RMultiples, performance.KillerOptions{
				TradeIDs: in.TradeIDs, Symbols: in.Symbols, TopN: in.TopN})
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 2, "trade results in R")
			setDefault(intRange(s, "top_n", 1, performance.MaxKillerCount), performance.DefaultKillerCount)
			describe(s, "top_n", "trades listed, most harmful first")
			nonEmptyItems(s, "trade_ids")
			describe(s, "trade_ids", "id of each trade, in order")
			nonEmptyItems(s, "symbols")
			describe(s, "symbols", "symbol of each trade, in order")
			itemExample(s, "trade_ids", "T-1042")
			itemExample(s, "symbols", "AAPL")
		})
}

type winLossInput struct {
	RMultiples toolkit.Floats   `json:"r_multiples"`
	PnLValues  []toolkit.Amount `json:"pnl_values,omitempty"`
}

func winLossTool() Tool {
	return NewTool(toolSpec(performanceCategory, "analyze_win_loss", "Win/Loss Statistics", "Win/loss statistics of R-multiples: win rate, average win and loss, payoff ratio, profit factor, expectancy, streaks."),
		func(_ context.Context, _ Call, in winLossInput) (performance.WinLoss, error) {
			return performance.AnalyzeWinLoss(in.RMultiples, in.PnLValues)
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 1, "trade results in R")
			describe(s, "pnl_values", "P&L of each trade, in currency")
			itemExample(s, "pnl_values", "250")
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
	return NewTool(toolSpec(performanceCategory, "run_what_if", "What-If Scenarios", "G and expectancy what-ifs: remove worst or best trades, cap losses, scale winners, skip trades after a losing streak."),
		func(_ context.Context, _ Call, in whatIfInput) (performance.WhatIf, error) {
			return performance.RunWhatIf(in.RMultiples, performance.WhatIfOptions{
				RemoveCount: in.RemoveCount, LossCap: floatPtr(in.LossCap), WinnerScale: floatPtr(in.WinnerScale),
				SkipAfterLosses: in.SkipAfterLosses,
			})
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 2, "R-multiples, oldest first")
			intRange(s, "remove_count", 1, limits.MaxItems)
			describe(s, "remove_count", "trades removed, at most N-1; default ceil(5 % of N)")
			example(prop(s, "remove_count"), 1)
			setDefault(intRange(s, "skip_after_losses", 1, limits.MaxItems), performance.DefaultSkipAfterLosses)
			describe(s, "skip_after_losses", "losses in a row that skip the next trade")
			positiveDecimal(s, "loss_cap", "cap on each loss, in R")
			setDefault(prop(s, "loss_cap"), "1")
			positiveDecimal(s, "winner_scale", "factor on every winning R")
			setDefault(prop(s, "winner_scale"), "0.9")
		})
}

type rollingGInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
	WindowSize *int           `json:"window_size,omitempty"`
}

func rollingGTool() Tool {
	return NewTool(toolSpec(performanceCategory, "calculate_rolling_g", "Rolling G and Edge Trend", "G over rolling windows of trades and the edge trend (IMPROVING, STABLE, DECLINING) from the last two windows."),
		func(_ context.Context, _ Call, in rollingGInput) (performance.RollingG, error) {
			return performance.CalculateRollingG(in.RMultiples, in.WindowSize)
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 2, "R-multiples, oldest first")
			example(intRange(s, "window_size", 2, limits.MaxItems), 5)
			describe(s, "window_size", "trades per window, at most N; default min(10, N)")
		})
}

type equityCurveInput struct {
	RMultiples     toolkit.Floats  `json:"r_multiples"`
	StartingEquity *toolkit.Amount `json:"starting_equity,omitempty"`
	RiskPerTrade   *toolkit.Float  `json:"risk_per_trade,omitempty"`
	TradesPerYear  *toolkit.Float  `json:"trades_per_year,omitempty"`
}

func equityCurveTool() Tool {
	return NewTool(toolSpec(performanceCategory, "calculate_equity_curve", "Equity Curve from R-Multiples", "Compounded equity curve of R-multiples at fixed risk per trade: total return, max drawdown, cumulative R, CAGR."),
		func(_ context.Context, _ Call, in equityCurveInput) (performance.EquityCurve, error) {
			return performance.CalculateEquityCurve(in.RMultiples, amountFloat(in.StartingEquity),
				floatPtr(in.RiskPerTrade), floatPtr(in.TradesPerYear))
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 1, "R-multiples, oldest first")
			positiveDecimal(s, "starting_equity", "starting equity, currency")
			setDefault(prop(s, "starting_equity"), "100000")
			riskPerTrade(s)
			positiveDecimal(s, "trades_per_year", "trades per year; adds the CAGR")
			example(prop(s, "trades_per_year"), "120")
		})
}

type rOnlyInput struct {
	RMultiples toolkit.Floats `json:"r_multiples"`
}

func systemScoreTool() Tool {
	return NewTool(toolSpec(performanceCategory, "calculate_system_score", "System R Score", "System R Score: 0-100 composite of expectancy, SQN, profit factor, recovery factor and sample size, graded A+ to F.").
		WithAliases("calculate_system_r_score"),
		func(_ context.Context, _ Call, in rOnlyInput) (performance.SystemScore, error) {
			return performance.CalculateSystemScore(in.RMultiples)
		},
		func(s *jsonschema.Schema) { rMultiples(s, 2, "R-multiples, oldest first") })
}

type peakValleyInput struct {
	EquityValues   toolkit.Floats `json:"equity_values"`
	StartingEquity toolkit.Amount `json:"starting_equity"`
}

func peakValleyTool() Tool {
	return NewTool(toolSpec(performanceCategory, "detect_peak_valley", "Equity Peaks and Valleys", "Where an equity curve stands (AT_PEAK, AT_VALLEY, BETWEEN), its peaks and valleys, and the distance from the peak.").
		WithAliases("analyze_peak_valley"),
		func(_ context.Context, _ Call, in peakValleyInput) (performance.PeakValley, error) {
			return performance.DetectPeakValley(in.EquityValues, in.StartingEquity.Float64())
		},
		func(s *jsonschema.Schema) {
			minItems(s, "equity_values", 1)
			describe(s, "equity_values", "equity after each trade, currency, oldest first, each >= 0")
			positiveDecimal(s, "starting_equity", "equity before the first trade, currency")
			examples(s, map[string]any{"equity_values": []any{"101000", "99000", "102000", "98000", "97000"}, "starting_equity": "100000"})
		})
}

type recoveryInput struct {
	RMultiples    toolkit.Floats  `json:"r_multiples"`
	InitialEquity *toolkit.Amount `json:"initial_equity,omitempty"`
	RiskPerTrade  *toolkit.Float  `json:"risk_per_trade,omitempty"`
}

func recoveryTool() Tool {
	return NewTool(toolSpec(performanceCategory, "analyze_recovery", "Drawdown Recovery", "Recovery from drawdowns of compounded R-multiples: trades to recover each, average and longest, recovery factor."),
		func(_ context.Context, _ Call, in recoveryInput) (performance.Recovery, error) {
			return performance.AnalyzeRecovery(in.RMultiples, amountFloat(in.InitialEquity), floatPtr(in.RiskPerTrade))
		},
		func(s *jsonschema.Schema) {
			rMultiples(s, 1, "R-multiples, oldest first")
			positiveDecimal(s, "initial_equity", "starting equity, currency")
			setDefault(prop(s, "initial_equity"), "100000")
			riskPerTrade(s)
		})
}

// riskPerTrade documents risk_per_trade: the fraction of equity risked per
// 1R, 0 < f < 1, default 0.01. The schema states the lower bound; the tool
// checks the upper one.
func riskPerTrade(s *jsonschema.Schema) {
	positiveDecimal(s, "risk_per_trade", "equity fraction risked per 1R, < 1")
	setDefault(prop(s, "risk_per_trade"), "0.01")
}
