package performance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
)

// normalR returns n seeded draws from N(mean, sd).
func normalR(seed uint64, n int, mean, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := make([]float64, n)
	for i := range r {
		r[i] = mean + sd*rng.NormFloat64()
	}
	return r
}

func BenchmarkBootstrap10kx200(b *testing.B) {
	r := normalR(1, 200, 0.2, 1.3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeConfidence(context.Background(), r, ConfidenceOptions{Seed: 42}); err != nil {
			b.Fatal(err)
		}
	}
}

const benchN = 1000

func BenchmarkAnalyzeConsistency1000(b *testing.B) {
	r := normalR(2, benchN, 0.1, 1)
	dates := make([]string, benchN)
	for i := range dates {
		dates[i] = fmt.Sprintf("%04d-%02d-%02dT10:00:00Z", 2020+i/336, 1+(i/28)%12, 1+i%28)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{Dates: dates}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeConsistencyNoDates1000(b *testing.B) {
	r := normalR(2, benchN, 0.1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeSerialCorrelation1000(b *testing.B) {
	r := normalR(3, benchN, 0.1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeSerialCorrelation(r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeDistribution1000(b *testing.B) {
	r := normalR(4, benchN, 0.1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeDistribution(r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeRiskAdjusted1000(b *testing.B) {
	r := normalR(5, benchN, 0.1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeRiskAdjusted(r, RiskAdjustedOptions{TradesPerYear: ref(250.0)}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeExecutionQuality1000(b *testing.B) {
	in := ExecutionInput{
		RMultiples:     normalR(6, benchN, 0.1, 1),
		MAE:            normalR(7, benchN, 0.5, 0.3),
		MFE:            normalR(8, benchN, 1.2, 0.8),
		HoldTimesHours: absValues(normalR(9, benchN, 10, 5)),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeExecutionQuality(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSegmentTrades1000(b *testing.B) {
	r := normalR(10, benchN, 0.1, 1)
	symbols := []string{"AAPL", "MSFT", "TSLA", "NVDA", "SPY", "QQQ", "AMZN", "META"}
	trades := make([]SegmentTrade, benchN)
	for i, x := range r {
		trades[i] = SegmentTrade{
			PnLR: x, PnLUSD: toolkit.AmountFromMicros(int64(x * 1e8)), Symbol: symbols[i%len(symbols)],
			DayOfWeek: dayPtr(i % 5), StrategyID: "s", Regime: "RANGING",
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SegmentTrades(context.Background(), trades, SegmentBySymbol); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalculateExpectedValue1000(b *testing.B) {
	r := normalR(11, benchN, 0.1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateExpectedValue(ExpectedValueInput{RMultiples: r}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalculatePnL(b *testing.B) {
	in := PnLInput{
		EntryPrice: toolkit.MustParseAmount("185.50"), ExitPrice: toolkit.MustParseAmount("191.25"), Quantity: 250,
		Direction: "long", StopPrice: amountPtr("180.00"), Fees: amountPtr("2.50"),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculatePnL(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeTradeOutcome(b *testing.B) {
	in := TradeOutcomeInput{
		RealizedPnL: toolkit.MustParseAmount("250"), RealizedR: 2.5, MFE: toolkit.MustParseAmount("400"),
		OneRDollars: toolkit.MustParseAmount("100"), ExpectedValueR: floatPtr(0.4),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeTradeOutcome(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScoreSignal(b *testing.B) {
	in := SignalInput{ConditionsMet: 4, TotalConditions: 5, RegimeAligned: true, IndicatorConfluence: 2, RiskRewardRatio: floatPtr(2.5)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScoreSignal(in); err != nil {
			b.Fatal(err)
		}
	}
}
