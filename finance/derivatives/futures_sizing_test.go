package derivatives

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSizeFuturesHandChecked(t *testing.T) {
	t.Run("tick_value ES", func(t *testing.T) {
		// 10 points = 40 ticks × $12.50 = $500 per contract; budget $1,000.
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("100000"), RiskPct: pa("0.01"),
			EntryPrice: pa("5000.00"), StopPrice: pa("4990.00"), TickSize: pa("0.25"), TickValue: pa("12.50")})
		require.NoError(t, err)
		assert.Equal(t, int64(2), got.Contracts)
		assert.Equal(t, "risk", got.BindingConstraint)
		assert.Equal(t, int64(40), *got.TicksAtRisk)
		assertAmount(t, "500", *got.RiskPerContract)
		assertAmount(t, "1000", *got.TotalRisk)
		assertAmount(t, "1000", *got.RiskBudget)
		assertAmount(t, "0.01", *got.ActualRiskFraction)
		assertAmount(t, "50", *got.PointValue)
		assertAmount(t, "250000", *got.NotionalPerContract)
		assertAmount(t, "500000", *got.Notional)
		assert.Nil(t, got.MarginUsed)
		assert.Equal(t, map[string]int64{"risk": 2}, got.Constraints)
		assert.Empty(t, got.Warnings)
	})
	t.Run("tick_value off-grid stop rounds ticks up", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("100000"), RiskPct: pa("0.01"),
			EntryPrice: pa("5000.00"), StopPrice: pa("4990.10"), TickSize: pa("0.25"), TickValue: pa("12.50")})
		require.NoError(t, err)
		assert.Equal(t, int64(40), *got.TicksAtRisk) // 39.6 ticks -> 40
		assert.Equal(t, int64(2), got.Contracts)
		assert.Contains(t, got.Warnings, "stop_price 4990.10 is not on the tick grid of 0.25")
		assert.Contains(t, got.Warnings, "stop distance 9.90 is 39.6 ticks; rounded up to 40")
	})
	t.Run("tick_value ZN 1/64 ticks, exact", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("50000"), RiskPct: pa("0.02"),
			EntryPrice: pa("110.5"), StopPrice: pa("110.0"), TickSize: pa("0.015625"), TickValue: pa("15.625")})
		require.NoError(t, err)
		assert.Equal(t, int64(32), *got.TicksAtRisk)
		assertAmount(t, "500", *got.RiskPerContract)
		assert.Equal(t, int64(2), got.Contracts)
		assertAmount(t, "1000", *got.PointValue)
	})
	t.Run("margin_based default usage 0.50", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesMarginBased, AvailableMargin: pa("100000"),
			InitialMarginPerContract: pa("12000")})
		require.NoError(t, err)
		assert.Equal(t, int64(4), got.Contracts)
		assertAmount(t, "0.50", got.MaxMarginUsagePct)
		assertAmount(t, "50000", *got.MarginBudget)
		assertAmount(t, "48000", *got.MarginUsed)
		assertAmount(t, "0.48", *got.MarginUsageFraction)
		assert.Nil(t, got.RiskPerContract)
		assert.Nil(t, got.Notional)
	})
	t.Run("notional CL", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesNotional, MaxNotional: pa("1000000"),
			ContractPrice: pa("75.50"), ContractMultiplier: ptr[int64](1000)})
		require.NoError(t, err)
		assert.Equal(t, int64(13), got.Contracts)
		assertAmount(t, "75500", *got.NotionalPerContract)
		assertAmount(t, "981500", *got.Notional)
	})
	t.Run("notional from entry price and tick point value", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesNotional, MaxNotional: pa("1000000"),
			EntryPrice: pa("5000"), TickSize: pa("0.25"), TickValue: pa("12.50")})
		require.NoError(t, err)
		assert.Equal(t, int64(4), got.Contracts)
	})
	t.Run("margin cap binds in tick_value mode", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("100000"), RiskPct: pa("0.05"),
			EntryPrice: pa("5000"), StopPrice: pa("4990"), TickSize: pa("0.25"), TickValue: pa("12.50"),
			AvailableMargin: pa("50000"), InitialMarginPerContract: pa("15000")})
		require.NoError(t, err)
		assert.Equal(t, map[string]int64{"risk": 10, "margin": 1}, got.Constraints)
		assert.Equal(t, int64(1), got.Contracts)
		assert.Equal(t, "margin", got.BindingConstraint)
		assertAmount(t, "500", *got.TotalRisk)
		assertAmount(t, "15000", *got.MarginUsed)
		assertAmount(t, "0.3", *got.MarginUsageFraction)
	})
	t.Run("partial secondary constraint is reported", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesMarginBased, AvailableMargin: pa("100000"),
			InitialMarginPerContract: pa("12000"), RiskPct: pa("0.01")})
		require.NoError(t, err)
		assert.Contains(t, got.Warnings, "risk constraint not applied: missing equity, entry_price, stop_price, tick_size, tick_value")
	})
	t.Run("zero contracts", func(t *testing.T) {
		got, err := SizeFutures(FuturesSizingInput{Mode: FuturesMarginBased, AvailableMargin: pa("10000"),
			InitialMarginPerContract: pa("12000"), MaxMarginUsagePct: pa("1")})
		require.NoError(t, err)
		assert.Equal(t, int64(0), got.Contracts)
		assert.Contains(t, got.Warnings, "the margin constraint allows 0 contracts")
	})
}

func TestSizeFuturesErrors(t *testing.T) {
	cases := []struct {
		name string
		in   FuturesSizingInput
		want string
	}{
		{"tick_value needs equity", FuturesSizingInput{Mode: FuturesTickValue}, "equity is required in mode tick_value"},
		{"tick_value needs tick_size", FuturesSizingInput{Mode: FuturesTickValue, Equity: pa("1"), RiskPct: pa("0.01"),
			EntryPrice: pa("10"), StopPrice: pa("9")}, "tick_size is required in mode tick_value"},
		{"margin needs available", FuturesSizingInput{Mode: FuturesMarginBased}, "available_margin is required in mode margin_based"},
		{"margin needs initial", FuturesSizingInput{Mode: FuturesMarginBased, AvailableMargin: pa("1")},
			"initial_margin_per_contract is required in mode margin_based"},
		{"notional needs max", FuturesSizingInput{Mode: FuturesNotional}, "max_notional is required in mode notional"},
		{"notional needs price", FuturesSizingInput{Mode: FuturesNotional, MaxNotional: pa("1")},
			"contract_price (or entry_price) is required in mode notional"},
		{"notional needs point value", FuturesSizingInput{Mode: FuturesNotional, MaxNotional: pa("1"), ContractPrice: pa("5")},
			"contract_multiplier (or tick_size and tick_value) is required in mode notional"},
		{"multiplier disagrees", FuturesSizingInput{Mode: FuturesNotional, MaxNotional: pa("1"), ContractPrice: pa("5"),
			TickSize: pa("0.25"), TickValue: pa("12.5"), ContractMultiplier: ptr[int64](20)}, "contract_multiplier: 20 disagrees with tick_value / tick_size"},
		{"risk_pct percent", FuturesSizingInput{Mode: FuturesTickValue, RiskPct: pa("1.5")}, "risk_pct: must be a fraction in (0, 1]"},
		{"usage percent", FuturesSizingInput{Mode: FuturesMarginBased, MaxMarginUsagePct: pa("50")}, "max_margin_usage_pct: must be a fraction in (0, 1]"},
		{"stop equals entry", FuturesSizingInput{Mode: FuturesTickValue, EntryPrice: pa("10"), StopPrice: pa("10")}, "stop_price: must differ from entry_price"},
		{"negative tick", FuturesSizingInput{Mode: FuturesTickValue, TickSize: pa("-0.25")}, "tick_size: must be greater than 0"},
		{"negative multiplier", FuturesSizingInput{Mode: FuturesNotional, ContractMultiplier: ptr[int64](-1)}, "contract_multiplier: must be an integer of at least 1"},
		{"bad mode", FuturesSizingInput{Mode: "options"}, "mode: must be one of margin_based, tick_value, notional"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := SizeFutures(c.in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}

// TestSizeFuturesProperty: random tick-value sizings with a margin cap
// match an independent big.Rat computation; every applied constraint holds
// and one more contract breaks the binding one.
func TestSizeFuturesProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 74))
	ticks := [][2]string{{"0.25", "12.50"}, {"0.25", "1.25"}, {"0.01", "10.00"}, {"0.015625", "15.625"}, {"0.00005", "6.25"}, {"1", "5.00"}}
	for i := range 2000 {
		tk := ticks[r.IntN(len(ticks))]
		tickSize, tickValue := rat(tk[0]), rat(tk[1])
		equity, risk := randDecimal(r, 1000000, 100000000, 2), randDecimal(r, 1, 500, 4)
		entryTicks := 1000 + r.Int64N(1000000)
		stopTicks := entryTicks - 1 - r.Int64N(999)
		// Off-grid stops half of the time: shift by a fraction of a tick.
		entry := new(big.Rat).Mul(new(big.Rat).SetInt64(entryTicks), tickSize)
		stop := new(big.Rat).Mul(new(big.Rat).SetInt64(stopTicks), tickSize)
		if r.IntN(2) == 0 {
			stop.Add(stop, new(big.Rat).Quo(tickSize, big.NewRat(3, 1)))
		}
		avail, im := randDecimal(r, 100000, 100000000, 2), randDecimal(r, 50000, 5000000, 2)
		in := FuturesSizingInput{Mode: FuturesTickValue, Equity: pa(equity), RiskPct: pa(risk),
			EntryPrice: pa(entry.FloatString(12)), StopPrice: pa(stop.FloatString(12)), TickSize: pa(tk[0]), TickValue: pa(tk[1]),
			AvailableMargin: pa(avail), InitialMarginPerContract: pa(im)}
		got, err := SizeFutures(in)
		require.NoError(t, err)
		dist := new(big.Rat).Sub(rat(entry.FloatString(12)), rat(stop.FloatString(12)))
		q := new(big.Rat).Quo(dist, tickSize)
		nt := new(big.Int).Quo(q.Num(), q.Denom())
		if !q.IsInt() {
			nt.Add(nt, big.NewInt(1))
		}
		rpc := new(big.Rat).Mul(new(big.Rat).SetInt(nt), tickValue)
		budget := new(big.Rat).Mul(rat(equity), rat(risk))
		riskN := floorRat(budget, rpc)
		marginBudget := new(big.Rat).Mul(rat(avail), big.NewRat(1, 2))
		marginN := floorRat(marginBudget, rat(im))
		want := min(riskN, marginN)
		require.Equal(t, want, got.Contracts, "case %d", i)
		c := new(big.Rat).SetInt64(got.Contracts)
		c1 := new(big.Rat).SetInt64(got.Contracts + 1)
		assert.LessOrEqual(t, new(big.Rat).Mul(c, rpc).Cmp(budget), 0)
		assert.LessOrEqual(t, new(big.Rat).Mul(c, rat(im)).Cmp(marginBudget), 0)
		if got.BindingConstraint == "risk" {
			assert.Greater(t, new(big.Rat).Mul(c1, rpc).Cmp(budget), 0)
		} else {
			assert.Greater(t, new(big.Rat).Mul(c1, rat(im)).Cmp(marginBudget), 0)
		}
	}
}
