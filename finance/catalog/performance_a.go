package catalog

import (
	"context"
	"crypto/rand"
	"encoding/binary"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

// performanceCategory is the category of the R-multiple analytics tools.
const performanceCategory = "performance"

// performanceATools returns the first half of the R-multiple analytics
// family (Monte Carlo, Kelly, drawdown, win/loss, what-if, variance
// killers, rolling G, equity curve, system score, peak/valley, recovery).
func performanceATools() []Tool {
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
