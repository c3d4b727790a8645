package finance

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// SystemHealth is the pre-trade gate's informational summary of recent
// R-multiples (the published system_health object).
type SystemHealth struct {
	G          toolkit.Float `json:"g"`          // mean(R) − popvar(R)/2
	ExpectedR  toolkit.Float `json:"expected_r"` // mean R
	Verdict    string        `json:"verdict"`    // as in Evaluation (VerdictRule)
	TradeCount int           `json:"trade_count"`
}

// Health summarises r (at least 1 finite value) for the pre-trade gate:
// g, expected_r, the edge verdict of EvaluateBasic (INSUFFICIENT_DATA
// below 10 trades) and the trade count.
func Health(r []float64) (SystemHealth, error) {
	if err := performance.ValidateSeries("r_multiples", r, 1); err != nil {
		return SystemHealth{}, err
	}
	mean := performance.Mean(r)
	raw, _, ok := performance.SQN(r)
	return SystemHealth{
		G:          toolkit.Float(performance.G(r)),
		ExpectedR:  toolkit.Float(mean),
		Verdict:    edgeVerdict(len(r), mean, raw, ok),
		TradeCount: len(r),
	}, nil
}
