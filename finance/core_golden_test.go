package finance

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/agentfinance/toolkit/finance/performance"
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

// checkEvaluation recomputes g, expected_r and SQN from their definitions.
func checkEvaluation(t *testing.T, r []float64, ev Evaluation) {
	t.Helper()
	n := float64(len(r))
	var sum, sq float64
	for _, x := range r {
		sum += x
	}
	mean := sum / n
	for _, x := range r {
		sq += (x - mean) * (x - mean)
	}
	relClose(t, mean-sq/n/2, float64(ev.G), 1e-12, "g")
	relClose(t, mean, float64(ev.ExpectedR), 1e-12, "expected_r")
	if ev.SQN != nil {
		relClose(t, math.Sqrt(n)*mean/math.Sqrt(sq/(n-1)), float64(*ev.SQN), 1e-12, "sqn")
	}
}

func TestEvaluateGolden(t *testing.T) {
	runGolden(t, "evaluate.json", func(in EvaluationInput, _ AgentLimits) (any, error) {
		return Evaluate(in)
	}, func(t *testing.T, in EvaluationInput, out any) {
		checkEvaluation(t, in.RMultiples, out.(Evaluation))
	})
}

func TestAssessGolden(t *testing.T) {
	runGolden(t, "assess.json", func(in AssessInput, _ AgentLimits) (any, error) {
		return AssessSystem(context.Background(), in)
	}, func(t *testing.T, in AssessInput, out any) {
		a := out.(Assessment)
		require.NotNil(t, in.Seed)
		assert.Equal(t, *in.Seed, a.Seed)
		relClose(t, performance.G(in.RMultiples), float64(a.GMetrics.G), 1e-12, "g")
	})
}
