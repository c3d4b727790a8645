package performance_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

var exampleR = []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8}

func ExampleAnalyzeConfidence() {
	res, err := performance.AnalyzeConfidence(context.Background(), exampleR, performance.ConfidenceOptions{Seed: 7})
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean R %.4f, 95%% t-interval [%.3f, %.3f], t(0.975, 7) = %.4f\n",
		res.MeanR, res.MeanRTInterval.Lower, res.MeanRTInterval.Upper, res.TCritical)
	fmt.Printf("win rate %.3f, Wilson [%.3f, %.3f]\n", res.WinRate, res.WinRateWilsonCI.Lower, res.WinRateWilsonCI.Upper)
	// Output:
	// mean R 0.8875, 95% t-interval [-0.438, 2.213], t(0.975, 7) = 2.3646
	// win rate 0.625, Wilson [0.306, 0.863]
}

func ExampleAnalyzeRiskAdjusted() {
	res, err := performance.AnalyzeRiskAdjusted(exampleR, performance.RiskAdjustedOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("Sharpe %.4f, Sortino %.4f, Calmar %.2f (max drawdown %.1fR)\n",
		*res.SharpeRatio, *res.SortinoRatio, *res.CalmarRatio, res.MaxDrawdownR)
	// Output: Sharpe 0.5596, Sortino 1.6735, Calmar 7.10 (max drawdown 1.0R)
}

func ExampleAnalyzeSerialCorrelation() {
	res, err := performance.AnalyzeSerialCorrelation(exampleR, nil) // nil: the default number of lags
	if err != nil {
		panic(err)
	}
	fmt.Printf("lag-1 %.3f, runs %d (expected %.2f), %s\n",
		*res.AutocorrelationLag1, res.RunsTest.Runs, *res.RunsTest.ExpectedRuns, res.RunsTest.Dependence)
	// Output: lag-1 -0.757, runs 7 (expected 4.75), RANDOM
}

func ExampleAnalyzeDistribution() {
	buckets := 4
	res, err := performance.AnalyzeDistribution(exampleR, &buckets)
	if err != nil {
		panic(err)
	}
	for _, b := range res.Histogram {
		fmt.Printf("[%.2f, %.2f) %d\n", b.Lower, b.Upper, b.Count)
	}
	fmt.Printf("median %.2f, skew %.4f, excess kurtosis %.4f\n", res.Median, *res.Skewness, *res.ExcessKurtosis)
	// Output:
	// [-1.00, 0.05) 3
	// [0.05, 1.10) 1
	// [1.10, 2.15) 2
	// [2.15, 3.20) 2
	// median 1.15, skew 0.0025, excess kurtosis -1.5135
}

func ExampleCalculatePnL() {
	stop, fees := toolkit.MustParseAmount("99.00"), toolkit.MustParseAmount("2.10")
	res, err := performance.CalculatePnL(performance.PnLInput{
		EntryPrice: toolkit.MustParseAmount("100.50"), ExitPrice: toolkit.MustParseAmount("103.25"),
		Quantity: 100, Direction: "long", StopPrice: &stop, Fees: &fees,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.GrossPnL, res.NetPnL, *res.OneRDollars, *res.RMultiple, res.Outcome)
	// Output: 275.00 272.90 150.00 1.819333 WIN
}

func ExampleSegmentTrades() {
	res, err := performance.SegmentTrades(context.Background(), []performance.SegmentTrade{
		{PnLR: 1.5, PnLUSD: toolkit.MustParseAmount("150.10"), Symbol: "MSFT"},
		{PnLR: -1, PnLUSD: toolkit.MustParseAmount("-100.05"), Symbol: "AAPL"},
		{PnLR: 2.3, PnLUSD: toolkit.MustParseAmount("230"), Symbol: "AAPL"},
	}, performance.SegmentBySymbol)
	if err != nil {
		panic(err)
	}
	for _, s := range res.Segments {
		fmt.Printf("%s n=%d win rate %.2f expectancy %.2f USD %s\n", s.Segment, s.Count, s.WinRate, s.Expectancy, s.TotalPnLUSD)
	}
	// Output:
	// AAPL n=2 win rate 0.50 expectancy 0.65 USD 129.95
	// MSFT n=1 win rate 1.00 expectancy 1.50 USD 150.10
}

func ExampleScoreSignal() {
	rr := 2.5
	res, err := performance.ScoreSignal(performance.SignalInput{
		ConditionsMet: 4, TotalConditions: 5, RegimeAligned: true, IndicatorConfluence: 2, RiskRewardRatio: &rr,
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("confidence %.1f, quality %.1f %s\n", res.Confidence, res.QualityScore, res.Quality)
	// Output: confidence 70.0, quality 73.3 HIGH
}
