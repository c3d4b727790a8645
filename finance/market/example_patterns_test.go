package market_test

import (
	"context"
	"fmt"
	"math"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
)

// exampleBars returns n bars of a slow wave around 100.
func exampleBars(n int, drift func(i int) float64) []market.Bar {
	bars := make([]market.Bar, n)
	p := 100.0
	for i := range bars {
		o := p
		p = 100 + 5*math.Sin(float64(i)/6) + drift(i)
		bars[i] = market.Bar{Open: toolkit.Float(o), High: toolkit.Float(math.Max(o, p) + 0.3),
			Low: toolkit.Float(math.Min(o, p) - 0.3), Close: toolkit.Float(p), Volume: 1000}
	}
	return bars
}

func ExampleDetectPatterns() {
	answer, err := market.DetectPatterns(context.Background(), exampleBars(120, func(int) float64 { return 0 }), market.PatternOptions{})
	if err != nil {
		panic(err)
	}
	rep := answer.Result // set: 120 bars are enough
	for _, p := range rep.Patterns[:3] {
		fmt.Println(p.Index, p.Name, p.Type, p.Direction, p.Strength)
	}
	fmt.Println("recent bias:", rep.Summary.RecentBias)
	// Output:
	// 10 doji candlestick neutral 50
	// 20 breakdown chart bearish 73
	// 28 doji candlestick neutral 100
	// recent bias: bullish
}

func ExampleDetectStructuralBreak() {
	// the wave lifts by 0.5 per bar from bar 150 on: a break in the mean return
	bars := exampleBars(300, func(i int) float64 { return 0.5 * math.Max(0, float64(i-150)) })
	answer, err := market.DetectStructuralBreak(context.Background(), bars, market.BreakOptions{})
	if err != nil {
		panic(err)
	}
	rep := answer.Result
	fmt.Println("break:", rep.BreakDetected, "at bar", rep.BreakIndex)
	fmt.Printf("sup-F p-value < 0.001: %v\n", rep.SupF.PValue < 0.001)
	// Output:
	// break: true at bar 144
	// sup-F p-value < 0.001: true
}

func ExampleAnalyzePriceStructure() {
	bars := exampleBars(100, func(i int) float64 { return 0.2 * float64(i) })
	answer, err := market.AnalyzePriceStructure(context.Background(), bars, market.PriceStructureOptions{})
	if err != nil {
		panic(err)
	}
	rep := answer.Result
	fmt.Println(rep.Structure, rep.Sequence)
	fmt.Println("support levels:", len(rep.Support), "resistance levels:", len(rep.Resistance))
	// Output:
	// uptrend [HH HL HH]
	// support levels: 3 resistance levels: 1
}
