package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// TradeOutcomeInput is the input of AnalyzeTradeOutcome.
type TradeOutcomeInput struct {
	// RealizedPnL is the trade's realised P&L in money.
	RealizedPnL toolkit.Amount
	// RealizedR is the trade's realised R-multiple.
	RealizedR float64
	// MFE is the maximum favourable excursion in money (same unit as
	// RealizedPnL), >= 0: the best open profit during the trade.
	MFE toolkit.Amount
	// OneRDollars is the initial risk in money, > 0.
	OneRDollars toolkit.Amount
	// ExpectedValueR is the system's expected R per trade; nil if unknown.
	ExpectedValueR *float64
}

// TradeOutcomeResult is the answer of AnalyzeTradeOutcome.
type TradeOutcomeResult struct {
	// Outcome is WIN, LOSS or BREAKEVEN by the exact sign of realized_pnl.
	Outcome string `json:"outcome"`
	// MFER = mfe / one_r_dollars.
	MFER toolkit.Float `json:"mfe_r"`
	// ImpliedR = realized_pnl / one_r_dollars.
	ImpliedR toolkit.Float `json:"implied_r"`
	// EfficiencyScore = clamp(100·realized_pnl/mfe, 0, 100); null when mfe = 0.
	EfficiencyScore *toolkit.Float `json:"efficiency_score"`
	// EdgeCaptured = realized_r / mfe_r, the share of the available move
	// captured, unclamped (negative for a loss); null when mfe = 0.
	EdgeCaptured *toolkit.Float `json:"edge_captured"`
	// LeftOnTableR = mfe_r - realized_r.
	LeftOnTableR toolkit.Float `json:"left_on_table_r"`
	// ExpectationAccuracy = realized_r / expected_value_r (1 = exactly as
	// expected); null without expected_value_r or when it is 0.
	ExpectationAccuracy *toolkit.Float `json:"expectation_accuracy,omitempty"`
	// ExpectationGapR = realized_r - expected_value_r; null without it.
	ExpectationGapR *toolkit.Float `json:"expectation_gap_r,omitempty"`
	Warnings        []string       `json:"warnings"`
}

// AnalyzeTradeOutcome grades one closed trade: its outcome, how much of
// its maximum favourable excursion it kept, and how it compares with the
// expected R. one_r_dollars must be > 0 and mfe >= 0. When realized_r
// differs from realized_pnl/one_r_dollars by more than 0.01R·max(1,
// |realized_r|) (fees, partial fills) a warning says so; realized_r is
// used for the R figures and realized_pnl for the money ones.
func AnalyzeTradeOutcome(in TradeOutcomeInput) (*TradeOutcomeResult, error) {
	switch {
	case in.OneRDollars.Sign() <= 0:
		return nil, invalid("one_r_dollars", "must be greater than 0")
	case in.MFE.Sign() < 0:
		return nil, invalid("mfe", "must not be negative (it is the best open profit, in money)")
	case math.IsNaN(in.RealizedR) || math.IsInf(in.RealizedR, 0):
		return nil, invalid("realized_r", "must be a finite number")
	case in.ExpectedValueR != nil && (math.IsNaN(*in.ExpectedValueR) || math.IsInf(*in.ExpectedValueR, 0)):
		return nil, invalid("expected_value_r", "must be a finite number")
	}
	pnl, mfe, oneR := in.RealizedPnL.Float64(), in.MFE.Float64(), in.OneRDollars.Float64()
	mfeR := mfe / oneR
	res := &TradeOutcomeResult{
		Outcome:      outcomeOf(in.RealizedPnL.Sign()),
		MFER:         toolkit.Float(mfeR),
		ImpliedR:     toolkit.Float(pnl / oneR),
		LeftOnTableR: toolkit.Float(mfeR - in.RealizedR),
		Warnings:     []string{},
	}
	if mfe > 0 {
		res.EfficiencyScore = finiteOrNil(math.Max(0, math.Min(100, 100*pnl/mfe)))
		res.EdgeCaptured = finiteOrNil(in.RealizedR / mfeR)
	} else {
		res.Warnings = append(res.Warnings, "mfe is 0: efficiency_score and edge_captured are undefined")
	}
	if in.RealizedPnL.Cmp(in.MFE) > 0 {
		res.Warnings = append(res.Warnings, "realized_pnl exceeds mfe: the maximum favourable excursion looks understated")
	}
	if math.Abs(pnl/oneR-in.RealizedR) > 0.01*math.Max(1, math.Abs(in.RealizedR)) {
		res.Warnings = append(res.Warnings, "realized_r differs from realized_pnl/one_r_dollars (fees or partial fills?)")
	}
	if ev := in.ExpectedValueR; ev != nil {
		res.ExpectationGapR = finiteOrNil(in.RealizedR - *ev)
		res.ExpectationAccuracy = ratioOrNil(in.RealizedR, *ev)
		if *ev == 0 {
			res.Warnings = append(res.Warnings, "expected_value_r is 0: expectation_accuracy is undefined")
		}
	}
	return res, nil
}

// Signal-score weights (points out of 100) and bounds.
const (
	SignalConfluenceCap = 3   // indicators beyond 3 add nothing
	SignalRRCap         = 3.0 // risk/reward beyond 3 adds nothing
	SignalHighQuality   = 70.0
	SignalMediumQuality = 50.0
)

// SignalInput is the input of ScoreSignal.
type SignalInput struct {
	ConditionsMet       int
	TotalConditions     int
	RegimeAligned       bool
	IndicatorConfluence int
	VolumeConfirmed     bool
	// RiskRewardRatio is reward/risk (>= 0); nil when unknown.
	RiskRewardRatio *float64
}

// SignalComponents are the points each input contributed.
type SignalComponents struct {
	Conditions toolkit.Float `json:"conditions"`
	Regime     toolkit.Float `json:"regime"`
	Confluence toolkit.Float `json:"confluence"`
	Volume     toolkit.Float `json:"volume"`
	RiskReward toolkit.Float `json:"risk_reward"`
}

// SignalScore is the answer of ScoreSignal.
type SignalScore struct {
	// Confidence (0–100) measures how much evidence agrees.
	Confidence toolkit.Float `json:"confidence"`
	// QualityScore (0–100) = 0.75·confidence + risk/reward points.
	QualityScore toolkit.Float `json:"quality_score"`
	// Quality is HIGH (>= 70), MEDIUM (>= 50) or LOW.
	Quality string `json:"quality"`
	// Components holds the confidence points (conditions, regime,
	// confluence, volume; they add up to confidence) and the risk/reward
	// points added to quality.
	Components SignalComponents `json:"components"`
	Formula    string           `json:"formula"`
	Warnings   []string         `json:"warnings"`
}

// ScoreSignal scores a trade signal.
//
//	confidence = 50·met/total + 20·regime_aligned + 15·min(confluence, 3)/3 + 15·volume_confirmed
//	quality    = 0.75·confidence + 25·min(risk_reward, 3)/3
//
// total_conditions must be >= 1, 0 <= conditions_met <= total,
// indicator_confluence >= 0, risk_reward_ratio >= 0 (absent counts as 0,
// with a warning).
func ScoreSignal(in SignalInput) (*SignalScore, error) {
	switch {
	case in.TotalConditions < 1:
		return nil, invalid("total_conditions", "must be at least 1")
	case in.ConditionsMet < 0 || in.ConditionsMet > in.TotalConditions:
		return nil, invalid("conditions_met", "must be between 0 and total_conditions (%d)", in.TotalConditions)
	case in.IndicatorConfluence < 0:
		return nil, invalid("indicator_confluence", "must not be negative")
	case in.RiskRewardRatio != nil && !(*in.RiskRewardRatio >= 0 && !math.IsInf(*in.RiskRewardRatio, 0)):
		return nil, invalid("risk_reward_ratio", "must be a finite number >= 0")
	}
	res := &SignalScore{
		Formula: "confidence = 50·met/total + 20·regime_aligned + 15·min(confluence,3)/3 + 15·volume_confirmed; " +
			"quality_score = 0.75·confidence + 25·min(risk_reward_ratio,3)/3; quality HIGH >= 70, MEDIUM >= 50, else LOW",
		Warnings: []string{},
	}
	var regime, volume, rr float64
	cond := 50 * float64(in.ConditionsMet) / float64(in.TotalConditions)
	if in.RegimeAligned {
		regime = 20
	}
	confl := 15 * float64(min(in.IndicatorConfluence, SignalConfluenceCap)) / SignalConfluenceCap
	if in.VolumeConfirmed {
		volume = 15
	}
	if in.RiskRewardRatio != nil {
		rr = 25 * math.Min(*in.RiskRewardRatio, SignalRRCap) / SignalRRCap
	} else {
		res.Warnings = append(res.Warnings, "risk_reward_ratio not given: it contributes 0 points")
	}
	conf := cond + regime + confl + volume
	q := 0.75*conf + rr
	res.Components = SignalComponents{
		Conditions: toolkit.Float(cond), Regime: toolkit.Float(regime), Confluence: toolkit.Float(confl),
		Volume: toolkit.Float(volume), RiskReward: toolkit.Float(rr),
	}
	res.Confidence, res.QualityScore = toolkit.Float(conf), toolkit.Float(q)
	switch {
	case q >= SignalHighQuality:
		res.Quality = "HIGH"
	case q >= SignalMediumQuality:
		res.Quality = "MEDIUM"
	default:
		res.Quality = "LOW"
	}
	return res, nil
}
