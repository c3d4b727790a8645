package finance_test

import (
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
