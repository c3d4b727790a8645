// Command direct shows the finance tools called straight from Go: a
// position size, a pre-trade gate and a system assessment, with no server,
// no database and no network.
//
//	go run ./examples/direct
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "direct:", err)
		os.Exit(1)
	}
}

// run computes the three results and writes them to w.
func run(w io.Writer) error {
	// 1. Position size: risk 2 % of 25,000 on a long at 10.30 with a 10.20 stop.
	risk := toolkit.MustParseAmount("0.02") // float64 would give 4999 shares
	size, err := finance.CalculatePositionSize(finance.SizingInput{
		Equity:      toolkit.MustParseAmount("25000"),
		EntryPrice:  toolkit.MustParseAmount("10.30"),
		StopPrice:   toolkit.MustParseAmount("10.20"),
		Direction:   "long",
		RiskPercent: &risk,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sizing: %d shares, risking %s of a %s budget, notional %s\n",
		size.Shares, size.OneRDollars, size.RiskAmount, size.Notional)

	// 2. Pre-trade gate under the agent's limits, with recent results.
	maxPos, maxLoss := toolkit.MustParseAmount("50"), toolkit.MustParseAmount("3")
	limits := finance.AgentLimits{MaxPositionSizePct: &maxPos, MaxDailyLossPct: &maxLoss,
		AuthorizedInstruments: []string{"AAPL", "MSFT"}}
	pnl := toolkit.MustParseAmount("-400")
	recent := toolkit.Floats{1.5, -1, 2.3, -0.5, 1.8, -1, 3.2, 0.8, -1, 0.6, 1.1, -0.4}
	gate, err := finance.PreTradeGate(finance.GateInput{
		Symbol: "aapl", Direction: "long",
		EntryPrice: toolkit.MustParseAmount("185.50"), StopPrice: toolkit.MustParseAmount("180.00"),
		Equity: toolkit.MustParseAmount("100000"), DailyPnL: &pnl, RMultiples: recent,
	}, limits)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "gate: passed=%t shares=%d risk score=%d health=%s\n",
		gate.GatePassed, gate.Sizing.Shares, gate.Risk.Score, gate.SystemHealth.Verdict)
	for _, reason := range gate.Reasons {
		fmt.Fprintln(w, "  reason:", reason)
	}

	// 3. System assessment of 60 trades, with a fixed Monte Carlo seed.
	var history toolkit.Floats
	for i := 0; i < 5; i++ {
		history = append(history, recent...)
	}
	seed := uint64(2026)
	assessment, err := finance.AssessSystem(context.Background(), finance.AssessInput{RMultiples: history, Seed: &seed})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "assessment: %s (g %.4f, expected R %.4f, half Kelly %.4f, median final equity %.2f)\n",
		assessment.Verdict, float64(assessment.GMetrics.G), float64(assessment.GMetrics.ExpectedR),
		float64(*assessment.Kelly.HalfKelly), float64(assessment.MonteCarlo.MedianFinalEquity))

	// Results marshal to the same JSON the HTTP API returns.
	b, err := json.Marshal(size)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sizing JSON: %s\n", b)
	return nil
}
