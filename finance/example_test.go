package finance_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
)

func ExampleCalculatePositionSize() {
	risk := toolkit.MustParseAmount("0.02")
	s, err := finance.CalculatePositionSize(finance.SizingInput{
		Equity:      toolkit.MustParseAmount("25000"),
		EntryPrice:  toolkit.MustParseAmount("10.30"),
		StopPrice:   toolkit.MustParseAmount("10.20"),
		Direction:   "long",
		RiskPercent: &risk,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Shares, s.RiskAmount, s.OneRDollars, s.Notional)
	// Output: 5000 500.00 500.00 51500.00
}

func ExampleCheckTradeRisk() {
	maxPos := toolkit.MustParseAmount("25")
	rc, err := finance.CheckTradeRisk(finance.RiskInput{
		Symbol:     "AAPL",
		Direction:  "long",
		EntryPrice: toolkit.MustParseAmount("185.50"),
		StopPrice:  toolkit.MustParseAmount("180.00"),
		Quantity:   toolkit.MustParseAmount("363"),
		Equity:     toolkit.MustParseAmount("100000"),
	}, finance.AgentLimits{MaxPositionSizePct: &maxPos})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rc.Approved, rc.Score, rc.RiskPercent)
	for _, e := range rc.Errors {
		fmt.Println("error:", e)
	}
	// Output:
	// false 50 0.019965
	// error: position value is 67.3365 % of equity, above max_position_size_pct 25
}

func ExamplePreTradeGate() {
	g, err := finance.PreTradeGate(finance.GateInput{
		Symbol:     "AAPL",
		Direction:  "long",
		EntryPrice: toolkit.MustParseAmount("185.50"),
		StopPrice:  toolkit.MustParseAmount("180.00"),
		Equity:     toolkit.MustParseAmount("100000"),
		RMultiples: toolkit.Floats{1.5, -1, 2.3, -0.5, 1.8, -1, 3.2, 0.8, -1, 0.6},
	}, finance.AgentLimits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.GatePassed, g.Sizing.Shares, g.Risk.Score, g.SystemHealth.Verdict)
	// Output: true 363 90 POSITIVE_EDGE
}

func ExampleEvaluate() {
	r := toolkit.Floats{2, -1, 2, -1, 2, -1, 2, -1, 2, -1, 2, -1}
	ev, err := finance.Evaluate(finance.EvaluationInput{RMultiples: r, Tier: finance.TierBasic})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("g %.4f expected_r %.2f verdict %s optimal_f %.4f\n",
		float64(ev.G), float64(ev.ExpectedR), ev.Verdict, float64(*ev.LogGrowth.OptimalF))
	// Output: g -0.6250 expected_r 0.50 verdict POSITIVE_EDGE optimal_f 0.2500
}

func ExampleAssessSystem() {
	seed := uint64(7)
	a, err := finance.AssessSystem(context.Background(), finance.AssessInput{
		RMultiples: toolkit.Floats{0.5, -1, 0.5, -1, 0.5, -1, 0.5, -1, 0.5, -1},
		Seed:       &seed,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Verdict, a.GMetrics.TradeCount, a.Seed)
	fmt.Println(a.Kelly.KellyFraction == nil, a.Kelly.Note) // no edge: a null Kelly fraction and why
	// Output:
	// FAILING_SYSTEM 10 7
	// true mean R <= 0: no risk fraction grows equity, so there is no Kelly fraction (null); do not trade this system
}
