package performance

import (
	"testing"

	"github.com/agentfinance/toolkit"
)

// bench1k is the 1,000-trade series of the per-tool benchmarks.
var bench1k = benchR(1000)

func benchEquity(r []float64) []float64 {
	e, err := EquityFromR(r, 100000, 0.01)
	if err != nil {
		panic(err)
	}
	return e
}

func BenchmarkKelly1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateKelly(bench1k, KellyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDrawdown1k(b *testing.B) {
	eq := benchEquity(bench1k)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeDrawdown(eq, 100000, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVarianceKillers1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FindVarianceKillers(bench1k, KillerOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWinLoss1k(b *testing.B) {
	pnl := make([]toolkit.Amount, len(bench1k))
	for i, x := range bench1k {
		a, err := toolkit.AmountFromFloat(x * 1000)
		if err != nil {
			b.Fatal(err)
		}
		if pnl[i], err = a.Round(2, toolkit.RoundHalfEven); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("r", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AnalyzeWinLoss(bench1k, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("r+pnl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AnalyzeWinLoss(bench1k, pnl); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkWhatIf1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunWhatIf(bench1k, WhatIfOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRollingG1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateRollingG(bench1k, ref(10)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEquityCurve1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateEquityCurve(bench1k, ref(100000.0), ref(0.01), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSystemScore1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateSystemScore(bench1k); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPeakValley1k(b *testing.B) {
	eq := benchEquity(bench1k)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DetectPeakValley(eq, 100000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecovery1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeRecovery(bench1k, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQN1k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SQN(bench1k)
	}
}
