package performance_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit/finance/performance"
)

var trades = []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8}

func ExampleRunMonteCarlo() {
	seed := uint64(42)                     // the same seed always gives the same result
	sims, perPath, risk := 10000, 20, 0.05 // optional inputs are pointers: nil takes the default
	res, err := performance.RunMonteCarlo(context.Background(), trades, performance.MonteCarloOptions{
		StartingEquity: 100000, NumSimulations: &sims, TradesPerSimulation: &perPath, RiskPerTrade: &risk, Seed: &seed,
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("seed %d, %d paths of %d trades\n", res.Seed, res.NumSimulations, res.TradesPerSimulation)
	fmt.Printf("P(profit) %.3f, P(20%% drawdown) %.3f\n", float64(res.ProbabilityOfProfit), float64(res.Probability20pctDrawdown))
	// Output:
	// seed 42, 10000 paths of 20 trades
	// P(profit) 0.996, P(20% drawdown) 0.060
}

func ExampleCalculateKelly() {
	// 50 % winners at +2R, 50 % losers at -1R: Kelly = (2·0.5 − 0.5)/2 = 0.25
	k, err := performance.CalculateKelly([]float64{2, -1, 2, -1}, performance.KellyOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("full %.4f, half %.4f, quarter %.4f\n", float64(*k.FullKelly), float64(*k.HalfKelly), float64(*k.QuarterKelly))
	// Output: full 0.2500, half 0.1250, quarter 0.0625
}

func ExampleAnalyzeDrawdown() {
	dd, err := performance.AnalyzeDrawdown([]float64{110, 99, 121, 96.8}, 100, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("max %.1f%%, %d episodes, current %.1f%%\n", float64(dd.MaxDrawdownPct), dd.DrawdownCount, 100*float64(dd.CurrentDrawdown))
	// Output: max 20.0%, 2 episodes, current 20.0%
}

func ExampleAnalyzeWinLoss() {
	wl, err := performance.AnalyzeWinLoss([]float64{2, -1, 0, 1, -1}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("win rate %.1f, breakevens %d, payoff %.2f, profit factor %.2f\n",
		float64(wl.WinRate), wl.BreakevenCount, float64(*wl.PayoffRatio), float64(*wl.ProfitFactor))
	// Output: win rate 0.4, breakevens 1, payoff 1.50, profit factor 1.50
}

func ExampleFindVarianceKillers() {
	top := 1
	vk, err := performance.FindVarianceKillers([]float64{1, 0.5, -1, -6, 1.2}, performance.KillerOptions{TopN: &top})
	if err != nil {
		panic(err)
	}
	fmt.Printf("worst offender: trade %d at %vR\n", vk.Killers[0].Index, float64(vk.Killers[0].RMultiple))
	// Output: worst offender: trade 3 at -6R
}

func ExampleCalculateRollingG() {
	window := 4
	rg, err := performance.CalculateRollingG([]float64{1, 1, 1, 1, -1, -1, -1, -1}, &window)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(rg.RollingG), rg.Trend)
	// Output: 5 DECLINING
}
