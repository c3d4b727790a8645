package finance

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// Risk-check thresholds (fixed; documented in docs/tools/check_trade_risk.md). Risk fractions are fractions of equity; the
// *_Pct limits are percents, like the agent limits.
var (
	// perTradeRiskNominal (1 %, Tharp's nominal risk): at or below it the
	// per_trade_risk rule deducts nothing.
	perTradeRiskNominal = toolkit.MustParseAmount("0.01")
	// perTradeRiskCap (2 %, Elder's 2 % rule): above nominal and at or below
	// the cap the rule passes with a 10-point deduction; above it, it warns.
	perTradeRiskCap = toolkit.MustParseAmount("0.02")
	// perTradeRiskBlock (5 %): above it the trade is blocked.
	perTradeRiskBlock = toolkit.MustParseAmount("0.05")
	// defaultMaxPositionSizePct (100 %, no leverage) is the position limit
	// used when the agent has no max_position_size_pct.
	defaultMaxPositionSizePct = toolkit.MustParseAmount("100")
	// positionWarnShare (0.8): a position above 80 % of its limit warns.
	positionWarnShare = toolkit.MustParseAmount("0.8")
	// defaultMaxDailyLossPct (5 %) is the daily-loss limit used when the
	// agent has no max_daily_loss_pct.
	defaultMaxDailyLossPct = toolkit.MustParseAmount("5")
	// stopDistanceMin (0.1 % of entry): a closer stop is a noise stop (warn).
	stopDistanceMin = toolkit.MustParseAmount("0.001")
	// stopDistanceMax (25 % of entry): a wider stop warns.
	stopDistanceMax = toolkit.MustParseAmount("0.25")
)

// Score deductions per rule outcome (see CheckTradeRisk).
const (
	deductStopPlacement = 50
	deductQuantity      = 50
	deductInstrument    = 50
	deductRiskAboveNom  = 10
	deductRiskWarn      = 30
	deductRiskBlock     = 60
	deductPositionWarn  = 15
	deductPositionBlock = 40
	deductDailyWarn     = 20
	deductDailyBlock    = 50
	deductStopDistance  = 5
)

var (
	hundred = toolkit.AmountFromInt(100)
	// The fractions above as percents, for comparisons with figures × 100.
	perTradeRiskNominalPct = perTradeRiskNominal.Mul(hundred)
	perTradeRiskBlockPct   = perTradeRiskBlock.Mul(hundred)
	perTradeRiskCapPct     = perTradeRiskCap.Mul(hundred)
	stopDistanceMinPct     = stopDistanceMin.Mul(hundred)
	stopDistanceMaxPct     = stopDistanceMax.Mul(hundred)
)

// riskNumbers are the exact decimal figures the rules judge, and their
// ratios (float64, for display) computed once. The *100 fields are the
// figures scaled by 100, so that they compare exactly with equity × a
// percent limit.
type riskNumbers struct {
	perShare      toolkit.Amount // |entry − stop|
	riskAmount    toolkit.Amount // quantity × perShare
	positionValue toolkit.Amount // quantity × entry
	dailyLoss     toolkit.Amount // max(0, −daily_pnl)

	risk100, position100, daily100, projected100, stop100 toolkit.Amount

	riskFraction float64 // riskAmount / equity
	riskPct      float64 // riskAmount / equity × 100
	positionPct  float64 // positionValue / equity × 100
	dailyPct     float64 // dailyLoss / equity × 100
	projectedPct float64 // (dailyLoss + riskAmount) / equity × 100
	stopPct      float64 // perShare / entry × 100
}

func riskFigures(in RiskInput, pnl toolkit.Amount) riskNumbers {
	n := riskNumbers{perShare: in.EntryPrice.Sub(in.StopPrice).Abs()}
	n.riskAmount = in.Quantity.Mul(n.perShare)
	n.positionValue = in.Quantity.Mul(in.EntryPrice)
	n.risk100 = times100(n.riskAmount)
	n.position100 = times100(n.positionValue)
	n.stop100 = times100(n.perShare)
	n.projected100 = n.risk100
	if pnl.Sign() < 0 {
		n.dailyLoss = pnl.Neg()
		n.daily100 = times100(n.dailyLoss)
		n.projected100 = n.daily100.Add(n.risk100)
	}
	equity := in.Equity.Float64()
	n.riskFraction = n.riskAmount.Float64() / equity
	n.riskPct = toFloat(n.risk100) / equity
	n.positionPct = toFloat(n.position100) / equity
	n.dailyPct = toFloat(n.daily100) / equity
	n.projectedPct = toFloat(n.projected100) / equity
	n.stopPct = toFloat(n.stop100) / in.EntryPrice.Float64()
	return n
}

// times100 returns a × 100 exactly (0 without arithmetic).
func times100(a toolkit.Amount) toolkit.Amount {
	if a.IsZero() {
		return toolkit.Amount{}
	}
	return a.Mul(hundred)
}

// toFloat is Amount.Float64 with a shortcut for 0. Each percent is one
// exact decimal product and one correctly rounded float64 division, so
// 67336.50 of 100000 prints as 67.3365.
func toFloat(a toolkit.Amount) float64 {
	if a.IsZero() {
		return 0
	}
	return a.Float64()
}

// pctText formats a percent for messages with at most 4 decimals: "1.9965 %".
func pctText(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " %"
}

func pass(rule, detail string) RiskRuleResult {
	return RiskRuleResult{Rule: rule, Status: RulePass, Detail: detail}
}

func outcome(rule, status string, deduction int, detail string) RiskRuleResult {
	return RiskRuleResult{Rule: rule, Status: status, Deduction: deduction, Detail: detail}
}

func ruleStopPlacement(in RiskInput, dir Direction) RiskRuleResult {
	const rule = "stop_placement"
	switch {
	case in.StopPrice.Cmp(in.EntryPrice) == 0:
		return outcome(rule, RuleBlock, deductStopPlacement,
			"stop_price equals entry_price "+in.EntryPrice.String()+": the trade has no defined risk")
	case dir.stopOnWrongSide(in.EntryPrice, in.StopPrice):
		side := "below"
		if dir == Short {
			side = "above"
		}
		return outcome(rule, RuleBlock, deductStopPlacement, fmt.Sprintf(
			"stop_price %s is on the wrong side: a %s position needs its stop %s entry_price %s",
			in.StopPrice, dir, side, in.EntryPrice))
	}
	if dir == Short {
		return pass(rule, "the stop is above the entry, as a short needs")
	}
	return pass(rule, "the stop is below the entry, as a long needs")
}

func ruleQuantity(in RiskInput) RiskRuleResult {
	if in.Quantity.IsZero() {
		return outcome("quantity", RuleBlock, deductQuantity, "quantity is 0: there is nothing to trade")
	}
	return pass("quantity", "quantity is positive")
}

func ruleInstrument(symbol string, authorized []string) RiskRuleResult {
	const rule = "instrument"
	if len(authorized) == 0 {
		return pass(rule, "the agent has no authorized_instruments list: every symbol is allowed")
	}
	s := strings.TrimSpace(symbol)
	for _, a := range authorized {
		if strings.EqualFold(strings.TrimSpace(a), s) {
			return pass(rule, "the symbol is in the agent's authorized_instruments")
		}
	}
	return outcome(rule, RuleBlock, deductInstrument,
		"symbol "+symbol+" is not in the agent's authorized_instruments ["+strings.Join(authorized, ", ")+"]")
}

// cmpPct compares a percent with a threshold percent (> 0): +1 above, 0
// equal, −1 below. pct is the float64 ratio computed in riskFigures (error
// below 1e-15 relative), so when it lies more than 1e-9 relative away from
// the threshold the float comparison is decisive; otherwise exact runs the
// decimal comparison. Boundaries are therefore decided exactly while the
// common case costs no decimal multiplication.
func cmpPct(pct, threshold float64, exact func() int) int {
	switch {
	case pct > threshold*(1+1e-9):
		return 1
	case pct < threshold*(1-1e-9):
		return -1
	}
	return exact()
}

func rulePerTradeRisk(f riskNumbers, equity toolkit.Amount) RiskRuleResult {
	const rule = "per_trade_risk"
	text := "risk " + pctText(f.riskPct) + " of equity"
	over := func(limitPct toolkit.Amount, limitF float64) bool {
		return cmpPct(f.riskPct, limitF, func() int { return f.risk100.Cmp(equity.Mul(limitPct)) }) > 0
	}
	switch {
	case over(perTradeRiskBlockPct, 5):
		return outcome(rule, RuleBlock, deductRiskBlock,
			text+" ("+f.riskAmount.String()+") exceeds the 5 % per-trade maximum")
	case over(perTradeRiskCapPct, 2):
		return outcome(rule, RuleWarn, deductRiskWarn,
			text+" ("+f.riskAmount.String()+") exceeds the 2 % rule")
	case over(perTradeRiskNominalPct, 1):
		return outcome(rule, RulePass, deductRiskAboveNom, text+" is above the 1 % nominal risk, within the 2 % rule")
	}
	return pass(rule, text+" is within the 1 % nominal risk")
}

func rulePositionSize(f riskNumbers, equity, limitPct toolkit.Amount) RiskRuleResult {
	const rule = "position_size"
	text := "position value is " + pctText(f.positionPct) + " of equity"
	limitF := limitPct.Float64()
	switch {
	case cmpPct(f.positionPct, limitF, func() int { return f.position100.Cmp(equity.Mul(limitPct)) }) > 0:
		return outcome(rule, RuleBlock, deductPositionBlock,
			text+", above max_position_size_pct "+limitPct.String())
	case cmpPct(f.positionPct, limitF*0.8, func() int {
		return f.position100.Cmp(equity.Mul(limitPct).Mul(positionWarnShare))
	}) > 0:
		return outcome(rule, RuleWarn, deductPositionWarn,
			text+", above 80 % of max_position_size_pct "+limitPct.String())
	}
	return pass(rule, text+", within 80 % of max_position_size_pct")
}

func ruleDailyLoss(f riskNumbers, equity, limitPct toolkit.Amount) RiskRuleResult {
	const rule = "daily_loss"
	limitF := limitPct.Float64()
	switch {
	case f.dailyPct > 0 && cmpPct(f.dailyPct, limitF, func() int { return f.daily100.Cmp(equity.Mul(limitPct)) }) >= 0:
		return outcome(rule, RuleBlock, deductDailyBlock,
			"today's loss is "+pctText(f.dailyPct)+" of equity: max_daily_loss_pct "+limitPct.String()+" reached")
	case cmpPct(f.projectedPct, limitF, func() int { return f.projected100.Cmp(equity.Mul(limitPct)) }) > 0:
		return outcome(rule, RuleWarn, deductDailyWarn,
			"a stop-out would bring today's loss to "+pctText(f.projectedPct)+" of equity, above max_daily_loss_pct "+limitPct.String())
	}
	return pass(rule, "today's loss including this trade's risk stays within max_daily_loss_pct")
}

func ruleStopDistance(f riskNumbers, entry toolkit.Amount) RiskRuleResult {
	const rule = "stop_distance"
	switch {
	case f.perShare.IsZero():
		return pass(rule, "no stop distance (see stop_placement)")
	case cmpPct(f.stopPct, 0.1, func() int { return f.stop100.Cmp(entry.Mul(stopDistanceMinPct)) }) < 0:
		return outcome(rule, RuleWarn, deductStopDistance,
			"stop distance is "+pctText(f.stopPct)+" of entry_price, under 0.1 %: likely to be hit by noise")
	case cmpPct(f.stopPct, 25, func() int { return f.stop100.Cmp(entry.Mul(stopDistanceMaxPct)) }) > 0:
		return outcome(rule, RuleWarn, deductStopDistance,
			"stop distance is "+pctText(f.stopPct)+" of entry_price, over 25 %: a very wide stop")
	}
	return pass(rule, "stop distance is between 0.1 % and 25 % of entry_price")
}
