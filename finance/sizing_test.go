package finance

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func amt(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

func amtPtr(s string) *toolkit.Amount { a := amt(s); return &a }

// rat parses a decimal string exactly (the independent oracle).
func rat(t testing.TB, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	require.True(t, ok, s)
	return r
}

// oracleShares is floor(equity × risk / |entry − stop|) in big.Rat.
func oracleShares(t testing.TB, equity, risk, entry, stop string) *big.Int {
	t.Helper()
	budget := new(big.Rat).Mul(rat(t, equity), rat(t, risk))
	dist := new(big.Rat).Sub(rat(t, entry), rat(t, stop))
	dist.Abs(dist)
	q := new(big.Rat).Quo(budget, dist)
	return new(big.Int).Quo(q.Num(), q.Denom()) // q > 0: truncation is floor
}

func TestSizingFloatTrapRegression(t *testing.T) {
	// Runtime float64 values: the constant-folded expression would hide the bug.
	parse := func(s string) float64 { v, err := strconv.ParseFloat(s, 64); require.NoError(t, err); return v }
	equity, risk, entry, stop := parse("25000"), parse("0.02"), parse("10.30"), parse("10.20")
	require.Equal(t, 4999.0, math.Floor(equity*risk/math.Abs(entry-stop)), "float64 path must show the trap")

	got, err := CalculatePositionSize(SizingInput{Equity: amt("25000"), EntryPrice: amt("10.30"),
		StopPrice: amt("10.20"), Direction: "long", RiskPercent: amtPtr("0.02")})
	require.NoError(t, err)
	assert.Equal(t, int64(5000), got.Shares)
	assert.Equal(t, "500.00", got.RiskAmount.String())
	assert.Equal(t, "500.00", got.OneRDollars.String())
	assert.Equal(t, "0.10", got.RiskPerShare.String())
	assert.Equal(t, "51500.00", got.Notional.String())
}

func TestSizingPublishedExample(t *testing.T) {
	got, err := CalculatePositionSize(SizingInput{Equity: amt("100000"), EntryPrice: amt("185.50"),
		StopPrice: amt("180.00"), Direction: "LONG"})
	require.NoError(t, err)
	assert.Equal(t, int64(363), got.Shares)
	assert.Equal(t, "2000.00", got.RiskAmount.String())
	assert.Equal(t, "0.02", got.RiskPercent.String(), "default risk fraction")
	assert.Equal(t, "67336.50", got.Notional.String(), "defined as shares × entry, not the published 67351.50")
	assert.Equal(t, "1996.50", got.OneRDollars.String())
	assert.Equal(t, Long, got.Direction)
	assert.Empty(t, got.Warnings)
}

func TestSizingShortAndZeroShares(t *testing.T) {
	got, err := CalculatePositionSize(SizingInput{Equity: amt("1000"), EntryPrice: amt("50"),
		StopPrice: amt("52.5"), Direction: " Short ", RiskPercent: amtPtr("0.01"), Instrument: "XYZ"})
	require.NoError(t, err)
	assert.Equal(t, int64(4), got.Shares) // 10 / 2.5
	assert.Equal(t, Short, got.Direction)
	assert.Equal(t, "XYZ", got.Instrument)

	zero, err := CalculatePositionSize(SizingInput{Equity: amt("1000"), EntryPrice: amt("500"),
		StopPrice: amt("480"), Direction: "long", RiskPercent: amtPtr("0.01")})
	require.NoError(t, err)
	assert.Equal(t, int64(0), zero.Shares)
	assert.True(t, zero.Notional.IsZero())
	require.Len(t, zero.Warnings, 1)
	assert.Contains(t, zero.Warnings[0], "shares is 0")
}

func TestSizingInvalidInputNamesTheField(t *testing.T) {
	base := func() SizingInput {
		return SizingInput{Equity: amt("10000"), EntryPrice: amt("100"), StopPrice: amt("95"), Direction: "long"}
	}
	cases := []struct {
		name   string
		modify func(*SizingInput)
		want   string
	}{
		{"zero equity", func(in *SizingInput) { in.Equity = amt("0") }, "equity: must be greater than 0"},
		{"negative equity", func(in *SizingInput) { in.Equity = amt("-1") }, "equity: must be greater than 0"},
		{"zero entry", func(in *SizingInput) { in.EntryPrice = amt("0") }, "entry_price: must be greater than 0"},
		{"negative stop", func(in *SizingInput) { in.StopPrice = amt("-5") }, "stop_price: must be greater than 0"},
		{"stop equals entry", func(in *SizingInput) { in.StopPrice = amt("100.00") }, "stop_price: must differ from entry_price"},
		{"long stop above", func(in *SizingInput) { in.StopPrice = amt("101") }, "stop_price: for a long position the stop must be below"},
		{"short stop below", func(in *SizingInput) { in.Direction = "short" }, "stop_price: for a short position the stop must be above"},
		{"bad direction", func(in *SizingInput) { in.Direction = "up" }, `direction: must be "long" or "short"`},
		{"zero risk", func(in *SizingInput) { in.RiskPercent = amtPtr("0") }, "risk_percent: must be a fraction in (0, 1]"},
		{"risk above 1", func(in *SizingInput) { in.RiskPercent = amtPtr("2") }, "risk_percent: must be a fraction in (0, 1]"},
		{"overflow", func(in *SizingInput) {
			in.Equity, in.RiskPercent, in.EntryPrice, in.StopPrice = amt("999999999999999999"), amtPtr("1"), amt("1"), amt("0.9999999999999999")
		}, "equity: the position would exceed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			tc.modify(&in)
			_, err := CalculatePositionSize(in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), tc.want)
		})
	}
}

func TestSizingRiskPercentOneIsAllowed(t *testing.T) {
	got, err := CalculatePositionSize(SizingInput{Equity: amt("100"), EntryPrice: amt("10"),
		StopPrice: amt("9"), Direction: "long", RiskPercent: amtPtr("1")})
	require.NoError(t, err)
	assert.Equal(t, int64(100), got.Shares)
}

// randomDecimal returns a positive decimal string with up to intDigits
// integer digits and up to fracDigits fraction digits.
func randomDecimal(rng *rand.Rand, intDigits, fracDigits int) string {
	whole := rng.Int64N(int64(math.Pow10(1 + rng.IntN(intDigits))))
	frac := rng.IntN(fracDigits + 1)
	if frac == 0 {
		return strconv.FormatInt(whole+1, 10)
	}
	return fmt.Sprintf("%d.%0*d", whole, frac, rng.Int64N(int64(math.Pow10(frac)))+1)
}

func TestSizingProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2026))
	for i := 0; i < 3000; i++ {
		equity := randomDecimal(rng, 9, 2)
		risk := fmt.Sprintf("0.%04d", 1+rng.IntN(9999))
		entry := randomDecimal(rng, 5, 6)
		stop := randomDecimal(rng, 5, 6)
		if amt(entry).Cmp(amt(stop)) == 0 {
			continue
		}
		dir := "long"
		if amt(stop).Cmp(amt(entry)) > 0 {
			dir = "short"
		}
		got, err := CalculatePositionSize(SizingInput{Equity: amt(equity), EntryPrice: amt(entry),
			StopPrice: amt(stop), Direction: dir, RiskPercent: amtPtr(risk)})
		require.NoError(t, err, "%s %s %s %s", equity, risk, entry, stop)
		want := oracleShares(t, equity, risk, entry, stop)
		require.Equal(t, want.String(), strconv.FormatInt(got.Shares, 10), "%s %s %s %s", equity, risk, entry, stop)

		// shares·d <= equity·risk < (shares+1)·d, never negative
		budget := new(big.Rat).Mul(rat(t, equity), rat(t, risk))
		d := rat(t, got.RiskPerShare.String())
		q := new(big.Rat).SetInt64(got.Shares)
		assert.GreaterOrEqual(t, got.Shares, int64(0))
		assert.LessOrEqual(t, new(big.Rat).Mul(q, d).Cmp(budget), 0)
		assert.Equal(t, 1, new(big.Rat).Mul(q.Add(q, big.NewRat(1, 1)), d).Cmp(budget))
		assert.Equal(t, 0, rat(t, got.OneRDollars.String()).Cmp(new(big.Rat).Mul(new(big.Rat).SetInt64(got.Shares), d)))
		assert.LessOrEqual(t, got.OneRDollars.Cmp(got.RiskAmount), 0)
		assert.GreaterOrEqual(t, got.Notional.Sign(), 0)
	}
}

// TestSizingMoneyIsCanonicalWhateverTheInputForm: the same entry price
// written "67336.50", 67336.5 or 6.73365e4 gives the same money text, with
// at least two decimals and no trailing noise.
func TestSizingMoneyIsCanonicalWhateverTheInputForm(t *testing.T) {
	var want *Sizing
	for _, entry := range []string{"67336.50", "67336.5", "6.73365e4", "67336.500000"} {
		s, err := CalculatePositionSize(SizingInput{Equity: toolkit.MustParseAmount("1e6"),
			EntryPrice: toolkit.MustParseAmount(entry), StopPrice: toolkit.MustParseAmount("67000"), Direction: "long"})
		require.NoError(t, err)
		assert.Equal(t, int64(59), s.Shares, entry)
		assert.Equal(t, "20000.00", s.RiskAmount.String(), entry)
		assert.Equal(t, "3972853.50", s.Notional.String(), entry)
		assert.Equal(t, "19853.50", s.OneRDollars.String(), entry)
		assert.Equal(t, "336.50", s.RiskPerShare.String(), entry)
		if want != nil {
			assert.Equal(t, *want, s, entry)
		}
		want = &s
	}
}
