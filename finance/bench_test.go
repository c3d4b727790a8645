package finance

import (
	"context"
	"testing"
)

var (
	benchSizing = SizingInput{Equity: amt("100000"), EntryPrice: amt("185.50"), StopPrice: amt("180.00"),
		Direction: "long", RiskPercent: amtPtr("0.02")}
	benchRisk = RiskInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("185.50"), StopPrice: amt("180.00"),
		Quantity: amt("363"), Equity: amt("100000"), DailyPnL: amtPtr("-250")}
	benchLimits = AgentLimits{MaxPositionSizePct: amtPtr("80"), MaxDailyLossPct: amtPtr("3"),
		AuthorizedInstruments: []string{"MSFT", "AAPL", "NVDA"}}
)

func BenchmarkSizing(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculatePositionSize(benchSizing); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRiskCheck(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CheckTradeRisk(benchRisk, benchLimits); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreTradeGate(b *testing.B) {
	in := GateInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("185.50"), StopPrice: amt("180.00"),
		Equity: amt("100000"), DailyPnL: amtPtr("-250")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PreTradeGate(in, benchLimits); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluateBasic(b *testing.B) {
	r := normalR(11, 200, 0.3, 1.2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EvaluateBasic(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAssessSystem assesses 200 trades (Monte Carlo 1000 × 100).
func BenchmarkAssessSystem(b *testing.B) {
	r := normalR(11, 200, 0.3, 1.2)
	seed := uint64(1)
	in := AssessInput{RMultiples: r, Seed: &seed}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AssessSystem(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
