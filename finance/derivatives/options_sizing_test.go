package derivatives

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func amt(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

func pa(s string) *toolkit.Amount { return ptr(amt(s)) }

// assertAmount compares an Amount with a decimal text by value.
func assertAmount(t *testing.T, want string, got toolkit.Amount, msg ...any) {
	t.Helper()
	assert.Zero(t, amt(want).Cmp(got), "want %s, got %s %v", want, got, msg)
}

func TestSizeOptionsHandChecked(t *testing.T) {
	cases := []struct {
		name                     string
		in                       OptionsSizingInput
		contracts                int64
		rpc, total, budget, risk string
	}{
		{"equity_risk premium at risk", OptionsSizingInput{Mode: OptionsEquityRisk, Equity: amt("100000"), RiskPct: amt("0.02"),
			EntryPremium: pa("5.35")}, 3, "535", "1605", "2000", "0.01605"},
		{"equity_risk with premium stop", OptionsSizingInput{Mode: OptionsEquityRisk, Equity: amt("100000"), RiskPct: amt("0.02"),
			EntryPremium: pa("5.35"), StopPremium: pa("2.675")}, 7, "267.5", "1872.5", "2000", "0.018725"},
		// The float trap of §7.1 in option form: float64 floors 4999.99… to 4999.
		{"equity_risk exact boundary", OptionsSizingInput{Mode: OptionsEquityRisk, Equity: amt("25000"), RiskPct: amt("0.02"),
			EntryPremium: pa("10.30"), StopPremium: pa("10.20"), ContractMultiplier: ptr[int64](1)}, 5000, "0.10", "500", "500", "0.02"},
		{"premium budget", OptionsSizingInput{Mode: OptionsPremium, Equity: amt("50000"), RiskPct: amt("0.05"),
			EntryPremium: pa("3.20")}, 7, "320", "2240", "2500", "0.0448"},
		{"premium budget with stop", OptionsSizingInput{Mode: OptionsPremium, Equity: amt("50000"), RiskPct: amt("0.05"),
			EntryPremium: pa("3.20"), StopPremium: pa("1.60")}, 7, "160", "1120", "2500", "0.0224"},
		{"delta_adjusted", OptionsSizingInput{Mode: OptionsDeltaAdjusted, Equity: amt("100000"), RiskPct: amt("0.01"),
			Delta: pa("0.5"), UnderlyingEntry: pa("185.50"), UnderlyingStop: pa("180.00")}, 3, "275", "825", "1000", "0.00825"},
		{"delta_adjusted put, premium cap", OptionsSizingInput{Mode: OptionsDeltaAdjusted, Equity: amt("100000"), RiskPct: amt("0.01"),
			Delta: pa("-0.5"), UnderlyingEntry: pa("180.00"), UnderlyingStop: pa("185.50"), EntryPremium: pa("2.00")}, 5, "200", "1000", "1000", "0.01"},
		{"credit spread", OptionsSizingInput{Mode: OptionsSpread, Equity: amt("25000"), RiskPct: amt("0.02"),
			SpreadWidth: pa("5"), CreditReceived: pa("1.50")}, 1, "350", "350", "500", "0.014"},
		{"debit spread, mini multiplier", OptionsSizingInput{Mode: OptionsSpread, Equity: amt("25000"), RiskPct: amt("0.02"),
			SpreadWidth: pa("5"), EntryPremium: pa("2.10"), ContractMultiplier: ptr[int64](10)}, 23, "21", "483", "500", "0.01932"},
		{"zero contracts", OptionsSizingInput{Mode: OptionsEquityRisk, Equity: amt("1000"), RiskPct: amt("0.01"),
			EntryPremium: pa("12.00")}, 0, "1200", "0", "10", "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SizeOptions(c.in)
			require.NoError(t, err)
			assert.Equal(t, c.contracts, got.Contracts)
			assertAmount(t, c.rpc, got.RiskPerContract, "risk_per_contract")
			assertAmount(t, c.total, got.TotalRisk, "total_risk")
			assertAmount(t, c.budget, got.Budget, "budget")
			assertAmount(t, c.risk, got.ActualRiskFraction, "actual_risk_fraction")
			assert.NotNil(t, got.Warnings)
		})
	}
}

func TestSizeOptionsDetails(t *testing.T) {
	t.Run("delta exposure, target shares and first-order warning", func(t *testing.T) {
		got, err := SizeOptions(OptionsSizingInput{Mode: OptionsDeltaAdjusted, Equity: amt("100000"), RiskPct: amt("0.01"),
			Delta: pa("0.5"), UnderlyingEntry: pa("185.50"), UnderlyingStop: pa("180.00")})
		require.NoError(t, err)
		assertAmount(t, "181.818181", *got.TargetShares)
		assertAmount(t, "150", *got.DeltaExposure)
		assert.Equal(t, int64(100), got.ContractMultiplier)
		assert.Contains(t, got.Warnings[0], "first-order")
		assert.Nil(t, got.PremiumOutlay)
	})
	t.Run("credit spread figures", func(t *testing.T) {
		got, err := SizeOptions(OptionsSizingInput{Mode: OptionsSpread, Equity: amt("100000"), RiskPct: amt("0.02"),
			SpreadWidth: pa("5"), CreditReceived: pa("1.50")})
		require.NoError(t, err)
		assert.Equal(t, int64(5), got.Contracts)
		assertAmount(t, "750", *got.CreditCollected)
		assertAmount(t, "150", *got.MaxProfitPerContract)
		assertAmount(t, "1750", got.CapitalRequired)
		assert.Nil(t, got.PremiumOutlay)
	})
	t.Run("premium outlay, deep OTM and ignored fields warned", func(t *testing.T) {
		got, err := SizeOptions(OptionsSizingInput{Mode: OptionsPremium, Equity: amt("10000"), RiskPct: amt("0.1"),
			EntryPremium: pa("0.25"), Delta: pa("0.05"), SpreadWidth: pa("5")})
		require.NoError(t, err)
		assert.Equal(t, int64(40), got.Contracts)
		assertAmount(t, "1000", *got.PremiumOutlay)
		assertAmount(t, "1000", got.CapitalRequired)
		assertAmount(t, "200", *got.DeltaExposure)
		assert.Equal(t, "premium_budget", got.BindingConstraint)
		assert.Contains(t, got.Warnings, "spread_width is ignored in mode premium")
		assert.Contains(t, got.Warnings, "deep out of the money: |delta| 0.05 is below 0.1")
	})
	t.Run("zero contracts warns", func(t *testing.T) {
		got, err := SizeOptions(OptionsSizingInput{Mode: OptionsEquityRisk, Equity: amt("1000"), RiskPct: amt("0.01"), EntryPremium: pa("12")})
		require.NoError(t, err)
		assert.Contains(t, got.Warnings[len(got.Warnings)-1], "smaller than one contract")
	})
}

func TestSizeOptionsErrors(t *testing.T) {
	base := func(mode OptionsMode) OptionsSizingInput {
		return OptionsSizingInput{Mode: mode, Equity: amt("100000"), RiskPct: amt("0.02")}
	}
	with := func(in OptionsSizingInput, f func(*OptionsSizingInput)) OptionsSizingInput { f(&in); return in }
	cases := []struct {
		name string
		in   OptionsSizingInput
		want string
	}{
		{"entry required (premium)", base(OptionsPremium), "entry_premium is required in mode premium"},
		{"entry required (equity_risk)", base(OptionsEquityRisk), "entry_premium is required in mode equity_risk"},
		{"delta required", base(OptionsDeltaAdjusted), "delta is required in mode delta_adjusted"},
		{"underlying required", with(base(OptionsDeltaAdjusted), func(i *OptionsSizingInput) { i.Delta = pa("0.4") }),
			"underlying_entry is required in mode delta_adjusted"},
		{"underlying stop required", with(base(OptionsDeltaAdjusted), func(i *OptionsSizingInput) { i.Delta = pa("0.4"); i.UnderlyingEntry = pa("10") }),
			"underlying_stop is required in mode delta_adjusted"},
		{"zero delta", with(base(OptionsDeltaAdjusted), func(i *OptionsSizingInput) {
			i.Delta, i.UnderlyingEntry, i.UnderlyingStop = pa("0"), pa("10"), pa("9")
		}), "delta: must not be 0"},
		{"same underlying stop", with(base(OptionsDeltaAdjusted), func(i *OptionsSizingInput) {
			i.Delta, i.UnderlyingEntry, i.UnderlyingStop = pa("0.3"), pa("10"), pa("10")
		}), "underlying_stop: must differ"},
		{"width required", base(OptionsSpread), "spread_width is required in mode spread"},
		{"credit or debit required", with(base(OptionsSpread), func(i *OptionsSizingInput) { i.SpreadWidth = pa("5") }),
			"credit_received (credit spread) or entry_premium (debit spread) is required in mode spread"},
		{"credit ≥ width", with(base(OptionsSpread), func(i *OptionsSizingInput) { i.SpreadWidth, i.CreditReceived = pa("5"), pa("5") }),
			"credit_received: must be less than spread_width"},
		{"debit ≥ width", with(base(OptionsSpread), func(i *OptionsSizingInput) { i.SpreadWidth, i.EntryPremium = pa("5"), pa("6") }),
			"entry_premium: the net debit must be less than spread_width"},
		{"credit and debit", with(base(OptionsSpread), func(i *OptionsSizingInput) {
			i.SpreadWidth, i.EntryPremium, i.CreditReceived = pa("5"), pa("1"), pa("1")
		}), "not both"},
		{"risk_pct as percent", with(base(OptionsPremium), func(i *OptionsSizingInput) { i.RiskPct = amt("2") }),
			"risk_pct: must be a fraction in (0, 1] (0.02 means 2 %), got 2; if you meant 2 %, send 0.02"},
		{"risk_pct zero", with(base(OptionsPremium), func(i *OptionsSizingInput) { i.RiskPct = amt("0") }), "risk_pct: must be a fraction greater than 0"},
		{"equity zero", with(base(OptionsPremium), func(i *OptionsSizingInput) { i.Equity = amt("0") }), "equity: must be greater than 0"},
		{"premium zero", with(base(OptionsPremium), func(i *OptionsSizingInput) { i.EntryPremium = pa("0") }), "entry_premium: must be greater than 0"},
		{"stop above entry", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) { i.EntryPremium, i.StopPremium = pa("2"), pa("2.5") }),
			"stop_premium: must be below entry_premium"},
		{"negative stop", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) { i.EntryPremium, i.StopPremium = pa("2"), pa("-1") }),
			"stop_premium: must not be negative"},
		{"delta above 1", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) { i.EntryPremium, i.Delta = pa("2"), pa("1.5") }),
			"delta: must be between -1 and 1"},
		{"bad multiplier", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) { i.EntryPremium, i.ContractMultiplier = pa("2"), ptr[int64](-5) }),
			"contract_multiplier: must be an integer of at least 1"},
		{"zero multiplier is not the default", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) { i.EntryPremium, i.ContractMultiplier = pa("2"), ptr[int64](0) }),
			"contract_multiplier: must be an integer of at least 1, got 0"},
		{"bad mode", base("straddle"), "mode: must be one of"},
		{"count out of range", with(base(OptionsEquityRisk), func(i *OptionsSizingInput) {
			i.Equity, i.RiskPct, i.EntryPremium, i.ContractMultiplier = amt("9"+zeros(17)), amt("1"), pa("0."+zeros(15)+"1"), ptr[int64](1)
		}), "contracts: the result"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := SizeOptions(c.in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

// randDecimal returns a random decimal in [lo, hi) units of 10^-places, as text.
func randDecimal(r *rand.Rand, lo, hi int64, places int) string {
	return decimalText(lo+r.Int64N(hi-lo), places)
}

// decimalText formats v units of 10^-places as decimal text.
func decimalText(v int64, places int) string {
	if v < 0 {
		return "-" + decimalText(-v, places)
	}
	s := strconv.FormatInt(v, 10)
	if places == 0 {
		return s
	}
	for len(s) <= places {
		s = "0" + s
	}
	return s[:len(s)-places] + "." + s[len(s)-places:]
}

// rat parses a decimal text as an exact rational (independent of apd).
func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// floorRat returns floor(a/b) for positive rationals.
func floorRat(a, b *big.Rat) int64 {
	q := new(big.Rat).Quo(a, b)
	return new(big.Int).Quo(q.Num(), q.Denom()).Int64()
}

// TestSizeOptionsProperty checks, over random decimal inputs, that the count
// equals an independent big.Rat floor, never exceeds the budget, and that
// one more contract would.
func TestSizeOptionsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	modes := []OptionsMode{OptionsEquityRisk, OptionsPremium, OptionsDeltaAdjusted, OptionsSpread}
	for i := range 2000 {
		mode := modes[i%len(modes)]
		equity, risk := randDecimal(r, 100000, 1000000000, 2), randDecimal(r, 1, 1000, 4)
		mult := []int64{1, 10, 100, 1000}[r.IntN(4)]
		in := OptionsSizingInput{Mode: mode, Equity: amt(equity), RiskPct: amt(risk), ContractMultiplier: ptr(mult)}
		var per *big.Rat
		m := new(big.Rat).SetInt64(mult)
		switch mode {
		case OptionsEquityRisk, OptionsPremium:
			cents := 1 + r.Int64N(5000)
			entry := decimalText(cents, 2)
			in.EntryPremium = pa(entry)
			per = new(big.Rat).Mul(rat(entry), m)
			if mode == OptionsEquityRisk && r.IntN(2) == 0 {
				stop := randDecimal(r, 0, cents, 2)
				in.StopPremium = pa(stop)
				per = new(big.Rat).Mul(new(big.Rat).Sub(rat(entry), rat(stop)), m)
			}
		case OptionsDeltaAdjusted:
			delta, ue := randDecimal(r, -1000, 1000, 3), randDecimal(r, 100, 100000, 2)
			if amt(delta).IsZero() {
				delta = "0.5"
			}
			us := randDecimal(r, 1, 200000, 2)
			if amt(us).Cmp(amt(ue)) == 0 {
				us = "0.5"
			}
			in.Delta, in.UnderlyingEntry, in.UnderlyingStop = pa(delta), pa(ue), pa(us)
			dist := new(big.Rat).Abs(new(big.Rat).Sub(rat(ue), rat(us)))
			per = new(big.Rat).Mul(new(big.Rat).Mul(new(big.Rat).Abs(rat(delta)), dist), m)
		case OptionsSpread:
			cents := 50 + r.Int64N(5000)
			width := decimalText(cents, 2)
			credit := randDecimal(r, 1, cents, 2)
			in.SpreadWidth, in.CreditReceived = pa(width), pa(credit)
			per = new(big.Rat).Mul(new(big.Rat).Sub(rat(width), rat(credit)), m)
		}
		got, err := SizeOptions(in)
		require.NoError(t, err, "%+v", in)
		budget := new(big.Rat).Mul(rat(equity), rat(risk))
		want := floorRat(budget, per)
		require.Equal(t, want, got.Contracts, "case %d %+v", i, in)
		used := new(big.Rat).Mul(new(big.Rat).SetInt64(got.Contracts), per)
		assert.LessOrEqual(t, used.Cmp(budget), 0, "never exceeds the budget")
		more := new(big.Rat).Mul(new(big.Rat).SetInt64(got.Contracts+1), per)
		assert.Greater(t, more.Cmp(budget), 0, "one more contract would exceed it")
		assert.GreaterOrEqual(t, got.Contracts, int64(0))
		assert.Zero(t, got.TotalRisk.Cmp(toolkit.AmountFromInt(got.Contracts).Mul(got.RiskPerContract)))
	}
}
