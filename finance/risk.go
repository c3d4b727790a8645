package finance

import (
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// RiskInput is the input of CheckTradeRisk and of the check_trade_risk tool.
type RiskInput struct {
	// Symbol is the instrument; compared case-insensitively with the
	// agent's authorized_instruments. Must not be blank.
	Symbol string `json:"symbol"`
	// Direction is "long" or "short", in any letter case.
	Direction string `json:"direction"`
	// EntryPrice is the planned entry price; > 0.
	EntryPrice toolkit.Amount `json:"entry_price"`
	// StopPrice is the initial stop; > 0. A stop on the wrong side of the
	// entry is a blocking error in the result, not an invalid input.
	StopPrice toolkit.Amount `json:"stop_price"`
	// Quantity is the number of shares or units; >= 0 (0 is a blocking
	// error in the result: nothing to trade).
	Quantity toolkit.Amount `json:"quantity"`
	// Equity is the current account equity; > 0.
	Equity toolkit.Amount `json:"equity"`
	// DailyPnL is today's realised P&L (negative = loss); nil means 0.
	DailyPnL *toolkit.Amount `json:"daily_pnl,omitempty"`
}

// RiskCheck is the verdict of CheckTradeRisk.
//
// Units: RiskPercent is a fraction of equity (0.02 = 2 %), as in sizing;
// every *_pct field is a percent (2 = 2 %), as in the agent limits.
type RiskCheck struct {
	// Approved is true when no rule produced a blocking error.
	Approved bool `json:"approved"`
	// Score is 100 minus the sum of the rule deductions, clamped to
	// [0, 100]; 100 is best. It ranks trades; it does not decide approval.
	Score int `json:"score"`
	// Errors are the blocking findings (the trade must not be placed).
	Errors []string `json:"errors"`
	// Warnings are non-blocking findings; each also lowers Score.
	Warnings []string `json:"warnings"`
	// Checks lists every rule in a fixed order with its outcome and
	// deduction, so the score can be re-derived by hand.
	Checks []RiskRuleResult `json:"checks"`

	Symbol    string    `json:"symbol"`    // as given
	Direction Direction `json:"direction"` // "long" or "short"
	// RiskPerShare is |entry_price − stop_price|.
	RiskPerShare toolkit.Amount `json:"risk_per_share"`
	// RiskAmount is quantity × risk_per_share: the loss at the stop.
	RiskAmount toolkit.Amount `json:"risk_amount"`
	// RiskPercent is risk_amount / equity as a fraction.
	RiskPercent toolkit.Float `json:"risk_percent"`
	// PositionValue is quantity × entry_price.
	PositionValue toolkit.Amount `json:"position_value"`
	// PositionPct is position_value / equity × 100.
	PositionPct toolkit.Float `json:"position_pct"`
	// MaxPositionSizePct is the position limit applied (the agent's limit
	// or the default 100) and PositionLimitSource says which.
	MaxPositionSizePct  toolkit.Amount `json:"max_position_size_pct"`
	PositionLimitSource string         `json:"position_limit_source"` // "agent" or "default"
	// DailyPnL echoes the input (0 when omitted).
	DailyPnL toolkit.Amount `json:"daily_pnl"`
	// DailyLossPct is today's loss, max(0, −daily_pnl) / equity × 100.
	DailyLossPct toolkit.Float `json:"daily_loss_pct"`
	// ProjectedDailyLossPct is today's loss plus this trade's risk_amount,
	// as a percent of equity: the day's loss if the stop is hit.
	ProjectedDailyLossPct toolkit.Float `json:"projected_daily_loss_pct"`
	// MaxDailyLossPct is the daily-loss limit applied (the agent's limit or
	// the default 5) and DailyLossLimitSource says which.
	MaxDailyLossPct      toolkit.Amount `json:"max_daily_loss_pct"`
	DailyLossLimitSource string         `json:"daily_loss_limit_source"` // "agent" or "default"
}

// RiskRuleResult is the outcome of one risk rule.
type RiskRuleResult struct {
	// Rule names the rule: stop_placement, quantity, instrument,
	// per_trade_risk, position_size, daily_loss or stop_distance.
	Rule string `json:"rule"`
	// Status is "pass", "warn" (a warning) or "block" (an error).
	Status string `json:"status"`
	// Deduction is the number of score points the rule removed.
	Deduction int `json:"deduction"`
	// Detail explains the outcome with the figures used.
	Detail string `json:"detail"`
}

// Rule statuses.
const (
	RulePass  = "pass"
	RuleWarn  = "warn"
	RuleBlock = "block"
)

// CheckTradeRisk applies the risk rules to one proposed trade under the
// agent's limits. Rules, in order (thresholds are in risk_rules.go and the
// docs; comparisons are exact decimal):
//
//   - stop_placement: a stop equal to the entry or on the wrong side blocks (−50).
//   - quantity: quantity 0 blocks (−100).
//   - instrument: a symbol outside a non-empty authorized_instruments list
//     (case-insensitive) blocks (−50).
//   - per_trade_risk (risk_amount / equity): ≤ 1 % passes; ≤ 2 % passes
//     with −10; ≤ 5 % warns (−30); above 5 % blocks (−60).
//   - position_size (position_value / equity, percent) against
//     max_position_size_pct (default 100): above the limit blocks (−40);
//     above 80 % of the limit warns (−15).
//   - daily_loss against max_daily_loss_pct (default 5): today's loss at
//     or above the limit blocks (−50); today's loss plus this trade's risk
//     above the limit warns (−20).
//   - stop_distance (risk_per_share / entry): under 0.1 % (noise stop) or
//     over 25 % (very wide stop) warns (−5).
//
// Score = clamp(100 − Σ deductions, 0, 100); Approved = no blocking rule.
// Invalid input (toolkit.Invalid naming the field): blank symbol, unknown
// direction, entry_price, stop_price or equity not > 0, quantity < 0, or
// a limit outside (0, 100].
func CheckTradeRisk(in RiskInput, limits AgentLimits) (RiskCheck, error) {
	dir, err := ParseDirection(in.Direction)
	if err != nil {
		return RiskCheck{}, err
	}
	if err := validateRisk(in); err != nil {
		return RiskCheck{}, err
	}
	posLimit, posSource, err := limitOrDefault("max_position_size_pct", limits.MaxPositionSizePct, defaultMaxPositionSizePct)
	if err != nil {
		return RiskCheck{}, err
	}
	lossLimit, lossSource, err := limitOrDefault("max_daily_loss_pct", limits.MaxDailyLossPct, defaultMaxDailyLossPct)
	if err != nil {
		return RiskCheck{}, err
	}
	var pnl toolkit.Amount
	if in.DailyPnL != nil {
		pnl = *in.DailyPnL
	}
	f := riskFigures(in, pnl)
	out := RiskCheck{
		Symbol:                in.Symbol,
		Direction:             dir,
		RiskPerShare:          f.perShare,
		RiskAmount:            f.riskAmount,
		RiskPercent:           toolkit.Float(f.riskFraction),
		PositionValue:         f.positionValue,
		PositionPct:           toolkit.Float(f.positionPct),
		MaxPositionSizePct:    posLimit,
		PositionLimitSource:   posSource,
		DailyPnL:              pnl,
		DailyLossPct:          toolkit.Float(f.dailyPct),
		ProjectedDailyLossPct: toolkit.Float(f.projectedPct),
		MaxDailyLossPct:       lossLimit,
		DailyLossLimitSource:  lossSource,
	}
	out.Checks = []RiskRuleResult{
		ruleStopPlacement(in, dir),
		ruleQuantity(in),
		ruleInstrument(in.Symbol, limits.AuthorizedInstruments),
		rulePerTradeRisk(f, in.Equity),
		rulePositionSize(f, in.Equity, posLimit),
		ruleDailyLoss(f, in.Equity, lossLimit),
		ruleStopDistance(f, in.EntryPrice),
	}
	out.Errors, out.Warnings = []string{}, []string{}
	deducted := 0
	for _, c := range out.Checks {
		deducted += c.Deduction
		switch c.Status {
		case RuleBlock:
			out.Errors = append(out.Errors, c.Detail)
		case RuleWarn:
			out.Warnings = append(out.Warnings, c.Detail)
		}
	}
	out.Score = max(0, 100-deducted)
	out.Approved = len(out.Errors) == 0
	money.Fields(&out.RiskPerShare, &out.RiskAmount, &out.PositionValue, &out.DailyPnL)
	return out, nil
}

// validateRisk checks the risk inputs, naming the first bad field.
func validateRisk(in RiskInput) error {
	if strings.TrimSpace(in.Symbol) == "" {
		return invalid("symbol", "must not be empty")
	}
	for _, f := range []struct {
		name string
		v    toolkit.Amount
	}{{"entry_price", in.EntryPrice}, {"stop_price", in.StopPrice}, {"equity", in.Equity}} {
		if err := requirePositive(f.name, f.v); err != nil {
			return err
		}
	}
	if in.Quantity.Sign() < 0 {
		return invalid("quantity", "must not be negative, got %s", in.Quantity)
	}
	return nil
}

// limitOrDefault returns the agent's limit when set (validated to lie in
// (0, 100]) or def, with the source "agent" or "default".
func limitOrDefault(field string, agent *toolkit.Amount, def toolkit.Amount) (toolkit.Amount, string, error) {
	if agent == nil {
		return def, "default", nil
	}
	if agent.Sign() <= 0 || agent.Cmp(hundred) > 0 {
		return toolkit.Amount{}, "", invalid(field, "agent limit must be a percent in (0, 100], got %s", *agent)
	}
	return *agent, "agent", nil
}
