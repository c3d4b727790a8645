package derivatives_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/derivatives"
)

func amount(s string) *toolkit.Amount {
	a := toolkit.MustParseAmount(s)
	return &a
}

func ExampleSizeOptions() {
	// Risk 2 % of 100,000 on a credit spread 5 wide sold for 1.50.
	res, err := derivatives.SizeOptions(derivatives.OptionsSizingInput{
		Mode: derivatives.OptionsSpread, Equity: *amount("100000"), RiskPct: *amount("0.02"),
		SpreadWidth: amount("5"), CreditReceived: amount("1.50"),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Contracts, res.RiskPerContract, res.TotalRisk, *res.CreditCollected)
	// Output: 5 350.00 1750.00 750.00
}

func ExampleSizeFutures() {
	// ES: 10 points of stop = 40 ticks × 12.50; risk 1 % of 100,000.
	res, err := derivatives.SizeFutures(derivatives.FuturesSizingInput{
		Mode: derivatives.FuturesTickValue, Equity: amount("100000"), RiskPct: amount("0.01"),
		EntryPrice: amount("5000"), StopPrice: amount("4990"), TickSize: amount("0.25"), TickValue: amount("12.50"),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Contracts, *res.TicksAtRisk, *res.RiskPerContract, res.BindingConstraint)
	// Output: 2 40 500.00 risk
}

func ExampleBlackScholes() {
	// Hull's example: S=49, K=50, r=5 %, σ=20 %, 20 weeks.
	g, err := derivatives.BlackScholes(derivatives.BSInput{Type: derivatives.Call, Spot: 49, Strike: 50,
		Years: 0.3846, Rate: 0.05, Volatility: 0.2})
	if err != nil {
		panic(err)
	}
	fmt.Printf("price %.2f delta %.3f gamma %.3f theta/day %.4f vega %.3f rho %.4f\n",
		g.Price, g.Delta, g.Gamma, g.Theta, g.Vega, g.Rho)
	// Output: price 2.40 delta 0.522 gamma 0.066 theta/day -0.0118 vega 0.121 rho 0.0891
}

func ExampleAnalyzeGreeks() {
	res, err := derivatives.AnalyzeGreeks(context.Background(), derivatives.GreeksInput{
		UnderlyingPrice: *amount("185.50"), AsOf: "2024-02-15",
		Chain: []derivatives.OptionRecord{{Symbol: "AAPL240315C00185000", UnderlyingSymbol: "AAPL",
			Strike: *amount("185"), Expiration: "2024-03-15", OptionType: derivatives.Call,
			ImpliedVolatility: amount("0.25"), Quantity: amount("-3")}},
	})
	if err != nil {
		panic(err)
	}
	o := res.Options[0]
	fmt.Printf("%d days, delta %.4f, net delta %.2f shares\n", o.DaysToExpiry, *o.Delta, res.Totals.NetDelta)
	// Output: 29 days, delta 0.5517, net delta -165.50 shares
}

func ExampleAnalyzeFuturesCurve() {
	res, err := derivatives.AnalyzeFuturesCurve(derivatives.CurveInput{Contracts: []derivatives.CurveContract{
		{Symbol: "CLF5", Expiry: "2025-01-20", Price: *amount("75.00")},
		{Symbol: "CLG5", Expiry: "2025-02-20", Price: *amount("75.50")},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s, roll yield %.4f a year\n", res.Structure, res.FrontToBackRollYield)
	// Output: contango, roll yield -0.0782 a year
}

func ExampleCalculateMargin() {
	res, err := derivatives.CalculateMargin(derivatives.MarginInput{AccountEquity: *amount("30000"),
		Positions: []derivatives.MarginPosition{{Symbol: "ESH5", Quantity: *amount("-2"), Price: *amount("5000"),
			Multiplier: amount("50"), InitialMarginPerContract: amount("12650"), MaintenanceMarginPerContract: amount("11500")}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.TotalInitialMargin, res.FreeMargin, *res.MarginUsageFraction, res.Status)
	// Output: 25300.00 4700.00 0.84333333 OK
}

func ExampleCheckCompliance() {
	res, err := derivatives.CheckCompliance(derivatives.ComplianceInput{Equity: *amount("100000"),
		Positions:     []derivatives.Holding{{Symbol: "AAPL", Quantity: *amount("100"), Price: *amount("185.50")}},
		ProposedTrade: &derivatives.Holding{Symbol: "TSLA", Quantity: *amount("10"), Price: *amount("200")},
	}, finance.AgentLimits{AuthorizedInstruments: []string{"aapl", "msft"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Compliant, res.Violations[0].Message)
	// Output: false TSLA is not among the agent's authorized instruments and is traded
}
