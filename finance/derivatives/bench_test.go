package derivatives

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
)

func BenchmarkSizeOptions(b *testing.B) {
	for _, in := range []OptionsSizingInput{
		{Mode: OptionsEquityRisk, Equity: amt("100000"), RiskPct: amt("0.02"), EntryPremium: pa("5.35"), StopPremium: pa("2.675")},
		{Mode: OptionsDeltaAdjusted, Equity: amt("100000"), RiskPct: amt("0.01"), Delta: pa("0.5"), UnderlyingEntry: pa("185.50"), UnderlyingStop: pa("180")},
		{Mode: OptionsSpread, Equity: amt("100000"), RiskPct: amt("0.02"), SpreadWidth: pa("5"), CreditReceived: pa("1.50")},
	} {
		b.Run(string(in.Mode), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := SizeOptions(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSizeFutures(b *testing.B) {
	in := FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("100000"), RiskPct: pa("0.01"), EntryPrice: pa("5000"),
		StopPrice: pa("4990.10"), TickSize: pa("0.25"), TickValue: pa("12.50"), AvailableMargin: pa("50000"),
		InitialMarginPerContract: pa("12650"), MaxNotional: pa("1000000")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SizeFutures(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlackScholes(b *testing.B) {
	p := BSInput{Type: Put, Spot: 185.5, Strike: 180, Years: 0.25, Rate: 0.05, DividendYield: 0.01, Volatility: 0.25}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BlackScholes(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImpliedVolatility(b *testing.B) {
	p := BSInput{Type: Call, Spot: 185.5, Strike: 200, Years: 0.25, Rate: 0.05}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ImpliedVolatility(p, 2.5); err != nil {
			b.Fatal(err)
		}
	}
}

// benchChain returns n options around 185.50, half with an input
// volatility and half implied from the bid/ask mid.
func benchChain(n int) GreeksInput {
	in := GreeksInput{UnderlyingPrice: amt("185.50"), AsOf: "2024-02-15"}
	for i := range n {
		typ, strike := Call, fmt.Sprintf("%d", 150+i%70)
		if i%2 == 1 {
			typ = Put
		}
		days := []int{29, 64, 127}[i%3]
		rec := OptionRecord{Symbol: fmt.Sprintf("OPT%d", i), UnderlyingSymbol: "AAPL", Strike: amt(strike),
			Expiration: Date([]string{"2024-03-15", "2024-04-19", "2024-06-21"}[i%3]), OptionType: typ,
			Volume: i64(int64(i)), OpenInterest: i64(int64(10 * i))}
		if i%4 < 2 {
			rec.ImpliedVolatility = pa("0.25")
		} else {
			g, _ := BlackScholes(BSInput{Type: typ, Spot: 185.5, Strike: amt(strike).Float64(), Years: float64(days) / 365, Rate: 0.05, Volatility: 0.3})
			bid, _ := toolkit.AmountFromFloat(g.Price)
			rec.Bid, rec.Ask = ptr(roundSafe(bid, 4, toolkit.RoundDown)), ptr(roundSafe(bid, 4, toolkit.RoundUp))
		}
		in.Chain = append(in.Chain, rec)
	}
	return in
}

func BenchmarkAnalyzeGreeks(b *testing.B) {
	in := benchChain(200)
	res, err := AnalyzeGreeks(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	assert.Equal(b, 0, res.Totals.OptionsSkipped)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeGreeks(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeFuturesCurve(b *testing.B) {
	in := CurveInput{Spot: pa("74.60"), AsOf: ptr(Date("2024-12-20"))}
	for i := range 12 {
		in.Contracts = append(in.Contracts, CurveContract{Symbol: fmt.Sprintf("CL%d", i),
			Expiry: Date(fmt.Sprintf("2025-%02d-20", i+1)), Price: amt(fmt.Sprintf("%d.%02d", 75+i/3, (i*17)%100))})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeFuturesCurve(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalculateMargin(b *testing.B) {
	in := MarginInput{AccountEquity: amt("1000000")}
	for i := range 50 {
		p := MarginPosition{Symbol: fmt.Sprintf("S%d", i), Quantity: amt(fmt.Sprintf("%d", i-25)), Price: amt("101.25")}
		if i%2 == 0 {
			p.MarginRate, p.MaintenanceMarginRate = pa("0.5"), pa("0.25")
		} else {
			p.Multiplier, p.InitialMarginPerContract = pa("50"), pa("12650")
		}
		in.Positions = append(in.Positions, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CalculateMargin(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckCompliance(b *testing.B) {
	in := ComplianceInput{Equity: amt("1000000"), MaxPositionWeight: pa("0.05"), MaxConcentrationShare: pa("0.2"),
		RestrictedSymbols: []string{"S7"}, ProposedTrade: &Holding{Symbol: "s3", Quantity: amt("10"), Price: amt("99.5")}}
	for i := range 50 {
		in.Positions = append(in.Positions, Holding{Symbol: fmt.Sprintf("S%d", i), Quantity: amt(fmt.Sprintf("%d", 100+i)), Price: amt("99.50")})
	}
	limits := finance.AgentLimits{MaxPositionSizePct: pa("10")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CheckCompliance(in, limits); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTooManyItems(t *testing.T) {
	_, err := AnalyzeGreeks(context.Background(), GreeksInput{UnderlyingPrice: amt("1"), AsOf: "2024-01-01", Chain: make([]OptionRecord, limits.MaxItems+1)})
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	_, err = CalculateMargin(MarginInput{Positions: make([]MarginPosition, limits.MaxItems+1)})
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	_, err = AnalyzeFuturesCurve(CurveInput{Contracts: make([]CurveContract, limits.MaxItems+1)})
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	_, err = CheckCompliance(ComplianceInput{Equity: amt("1"), Positions: make([]Holding, limits.MaxItems+1)}, finance.AgentLimits{})
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
}
