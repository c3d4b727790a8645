package finance

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSizingGolden(t *testing.T) {
	runGolden(t, "sizing.json", func(in SizingInput, _ AgentLimits) (any, error) {
		return CalculatePositionSize(in)
	}, func(t *testing.T, in SizingInput, out any) {
		s := out.(Sizing)
		risk := "0.02"
		if in.RiskPercent != nil {
			risk = in.RiskPercent.String()
		}
		want := oracleShares(t, in.Equity.String(), risk, in.EntryPrice.String(), in.StopPrice.String())
		require.Equal(t, want.Int64(), s.Shares, in)
		shares := new(big.Rat).SetInt64(s.Shares)
		d := new(big.Rat).Sub(rat(t, in.EntryPrice.String()), rat(t, in.StopPrice.String()))
		d.Abs(d)
		assert.Equal(t, 0, rat(t, s.OneRDollars.String()).Cmp(new(big.Rat).Mul(shares, d)))
		assert.Equal(t, 0, rat(t, s.Notional.String()).Cmp(new(big.Rat).Mul(shares, rat(t, in.EntryPrice.String()))))
		assert.Equal(t, 0, rat(t, s.RiskAmount.String()).Cmp(new(big.Rat).Mul(rat(t, in.Equity.String()), rat(t, risk))))
	})
}

func TestRiskGolden(t *testing.T) {
	runGolden(t, "risk.json", func(in RiskInput, l AgentLimits) (any, error) {
		return CheckTradeRisk(in, l)
	}, func(t *testing.T, _ RiskInput, out any) {
		rc := out.(RiskCheck)
		sum := 0
		for _, c := range rc.Checks {
			sum += c.Deduction
		}
		assert.Equal(t, max(0, 100-sum), rc.Score)
	})
}
