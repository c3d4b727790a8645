package derivatives

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/canceltest"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func i64(v int64) *int64 { return &v }

// sampleChain is the published record plus cases for every status.
func sampleChain() GreeksInput {
	return GreeksInput{
		UnderlyingPrice: amt("185.50"),
		AsOf:            "2024-02-15",
		Chain: []OptionRecord{
			{Symbol: "AAPL240315C00185000", UnderlyingSymbol: "AAPL", Strike: amt("185"), Expiration: "2024-03-15",
				OptionType: Call, Bid: pa("5.20"), Ask: pa("5.50"), Last: pa("5.35"), Volume: i64(1000),
				OpenInterest: i64(5000), ImpliedVolatility: pa("0.25")},
			{Symbol: "AAPL240315P00185000", UnderlyingSymbol: "aapl", Strike: amt("185"), Expiration: "2024-03-15",
				OptionType: Put, Bid: pa("4.10"), Ask: pa("4.40"), Volume: i64(600), OpenInterest: i64(4000),
				ImpliedVolatility: pa("0.27"), Quantity: pa("-2")},
			{Symbol: "AAPL240419C00200000", UnderlyingSymbol: "AAPL", Strike: amt("200"), Expiration: "2024-04-19",
				OptionType: Call, Bid: pa("1.95"), Ask: pa("2.05"), Volume: i64(300), OpenInterest: i64(2500)},
			{Symbol: "AAPL240419P00170000", Strike: amt("170"), Expiration: "2024-04-19", OptionType: Put,
				Last: pa("1.40"), ImpliedVolatility: pa("0")},
			{Symbol: "AAPL240209C00180000", UnderlyingSymbol: "AAPL", Strike: amt("180"), Expiration: "2024-02-09",
				OptionType: Call, Last: pa("5.50"), ImpliedVolatility: pa("0.2")},
			{Symbol: "AAPL240419C00150000", Strike: amt("150"), Expiration: "2024-04-19", OptionType: Call},
		},
	}
}

func TestAnalyzeGreeksChain(t *testing.T) {
	in := sampleChain()
	res, err := AnalyzeGreeks(context.Background(), in)
	require.NoError(t, err)
	require.Len(t, res.Options, 6)
	assert.Equal(t, toolkit.Float(DefaultRiskFreeRate), res.RiskFreeRate)
	assert.Equal(t, int64(100), res.ContractMultiplier)

	// The published record: 29 calendar days (2024 is a leap year), ACT/365.
	o := res.Options[0]
	require.Equal(t, "ok", o.Status)
	assert.Equal(t, 29, o.DaysToExpiry)
	assert.Equal(t, "input", o.IVSource)
	want, err := BlackScholes(BSInput{Type: Call, Spot: 185.5, Strike: 185, Years: 29.0 / 365, Rate: 0.05, Volatility: 0.25})
	require.NoError(t, err)
	assert.InDelta(t, want.Delta, float64(*o.Delta), 1e-15)
	assert.InDelta(t, want.Theta, float64(*o.Theta), 1e-15)
	assert.True(t, o.InTheMoney)
	assertAmount(t, "0.50", o.IntrinsicValue)
	assertAmount(t, "5.35", *o.MarketPrice)

	// Volatility implied from the bid/ask mid reprices the mid.
	o = res.Options[2]
	require.Equal(t, "ok", o.Status)
	assert.Equal(t, "mid", o.IVSource)
	assertAmount(t, "2", *o.MarketPrice)
	assert.InDelta(t, 2.0, float64(*o.TheoreticalPrice), 1e-10)
	// "0" volatility means absent: implied from last.
	assert.Equal(t, "last", res.Options[3].IVSource)
	assert.InDelta(t, 1.40, float64(*res.Options[3].TheoreticalPrice), 1e-10)

	assert.Equal(t, "expired", res.Options[4].Status)
	assert.Equal(t, -6, res.Options[4].DaysToExpiry)
	assert.Nil(t, res.Options[4].Delta)
	assert.Equal(t, "none", res.Options[4].IVSource)
	assert.Equal(t, "no_volatility", res.Options[5].Status)
	assert.Nil(t, res.Options[5].ImpliedVolatility)

	// Totals: quantity × multiplier weighted sums of the priced options.
	var delta, gamma, theta, vega, rho float64
	for _, o := range res.Options {
		if o.Status != "ok" {
			continue
		}
		w := o.Quantity.Float64() * 100
		delta += w * float64(*o.Delta)
		gamma += w * float64(*o.Gamma)
		theta += w * float64(*o.Theta)
		vega += w * float64(*o.Vega)
		rho += w * float64(*o.Rho)
	}
	tt := res.Totals
	assert.InDelta(t, delta, float64(tt.NetDelta), 1e-9)
	assert.InDelta(t, gamma, float64(tt.NetGamma), 1e-9)
	assert.InDelta(t, theta, float64(tt.NetTheta), 1e-9)
	assert.InDelta(t, vega, float64(tt.NetVega), 1e-9)
	assert.InDelta(t, rho, float64(tt.NetRho), 1e-9)
	assert.InDelta(t, delta*185.5, float64(tt.DollarDelta), 1e-7)
	assert.Equal(t, 4, tt.OptionsPriced)
	assert.Equal(t, 2, tt.OptionsSkipped)
	assert.Equal(t, 4, tt.Calls)
	assert.Equal(t, 2, tt.Puts)
	assert.InDelta(t, 600.0/1300, float64(*tt.PutCallVolume), 1e-15)
	assert.InDelta(t, 4000.0/7500, float64(*tt.PutCallOI), 1e-15)

	golden.Check(t, "testdata/greeks_chain.json", res)
}

func TestAnalyzeGreeksInputs(t *testing.T) {
	t.Run("dividend yield, rate and multiplier", func(t *testing.T) {
		in := sampleChain()
		in.Chain = in.Chain[:1]
		in.RiskFreeRate, in.DividendYield = ptr(toolkit.Float(0.04)), ptr(toolkit.Float(0.01))
		in.ContractMultiplier = ptr[int64](10)
		res, err := AnalyzeGreeks(context.Background(), in)
		require.NoError(t, err)
		want, err := BlackScholes(BSInput{Type: Call, Spot: 185.5, Strike: 185, Years: 29.0 / 365, Rate: 0.04, DividendYield: 0.01, Volatility: 0.25})
		require.NoError(t, err)
		assert.InDelta(t, want.Rho, float64(*res.Options[0].Rho), 1e-15)
		assert.InDelta(t, want.Delta*10, float64(res.Totals.NetDelta), 1e-12)
		assert.Zero(t, *res.Totals.PutCallVolume) // call volume, no puts
	})
	t.Run("unreachable market price", func(t *testing.T) {
		in := sampleChain()
		in.Chain = []OptionRecord{{Symbol: "X", Strike: amt("100"), Expiration: "2024-03-15", OptionType: Call, Last: pa("500")}}
		res, err := AnalyzeGreeks(context.Background(), in)
		require.NoError(t, err)
		assert.Equal(t, "no_volatility", res.Options[0].Status)
		assert.Contains(t, res.Options[0].Note, "cannot imply volatility from the last price 500")
	})
	bad := []struct {
		name string
		edit func(*GreeksInput)
		want string
	}{
		{"empty chain", func(g *GreeksInput) { g.Chain = nil }, "chain: must hold at least 1 option"},
		{"as_of", func(g *GreeksInput) { g.AsOf = "15/02/2024" }, `as_of: must be a date like "2024-03-15"`},
		{"expiration", func(g *GreeksInput) { g.Chain[2].Expiration = "2024-13-01" }, "chain[2].expiration: must be a date"},
		{"underlying price", func(g *GreeksInput) { g.UnderlyingPrice = amt("0") }, "underlying_price: must be greater than 0"},
		{"rate as percent", func(g *GreeksInput) { g.RiskFreeRate = ptr(toolkit.Float(5)) }, "risk_free_rate: must be a decimal rate between -1 and 1"},
		{"dividend as percent", func(g *GreeksInput) { g.DividendYield = ptr(toolkit.Float(1.5)) }, "dividend_yield: must be a decimal rate"},
		{"multiplier", func(g *GreeksInput) { g.ContractMultiplier = ptr[int64](-1) }, "contract_multiplier: must be an integer of at least 1"},
		{"two underlyings", func(g *GreeksInput) { g.Chain[3].UnderlyingSymbol = "MSFT" }, "chain[3].underlying_symbol: MSFT differs from AAPL"},
		{"option type", func(g *GreeksInput) { g.Chain[1].OptionType = "call" }, `chain[1].option_type: must be CALL or PUT, got "call"`},
		{"strike", func(g *GreeksInput) { g.Chain[0].Strike = amt("-1") }, "chain[0].strike: must be greater than 0"},
		{"bid", func(g *GreeksInput) { g.Chain[0].Bid = pa("-1") }, "chain[0].bid: must not be negative"},
		{"volume", func(g *GreeksInput) { g.Chain[0].Volume = i64(-3) }, "chain[0].volume: must not be negative"},
		{"iv as percent", func(g *GreeksInput) { g.Chain[0].ImpliedVolatility = pa("25") }, "chain[0].implied_volatility: must be a decimal between 0.0001 and 10 (0.25 means 25 %)"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			in := sampleChain()
			c.edit(&in)
			_, err := AnalyzeGreeks(context.Background(), in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}

// TestAnalyzeGreeksStopsWhenTheContextEnds: a long chain stops with the
// context's error when the context is done before the call or ends after
// the first check.
func TestAnalyzeGreeksStopsWhenTheContextEnds(t *testing.T) {
	in := sampleChain()
	for len(in.Chain) < 10*greeksPerCheck {
		in.Chain = append(in.Chain, in.Chain[:6]...)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := AnalyzeGreeks(done, in)
	assert.ErrorIs(t, err, context.Canceled)
	ctx := canceltest.AfterChecks(1)
	_, err = AnalyzeGreeks(ctx, in)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 2, ctx.Checks(), "stopped at the second check")
	_, err = AnalyzeGreeks(context.Background(), in)
	assert.NoError(t, err)
}
