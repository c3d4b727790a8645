package derivatives

import (
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// OptionsMode selects how size_options_position sizes a position.
type OptionsMode string

// The options sizing modes.
const (
	// OptionsEquityRisk: contracts = floor(equity·risk_pct / risk per
	// contract), where the risk per contract is the premium paid
	// (entry_premium × multiplier) or, with a premium stop,
	// (entry_premium − stop_premium) × multiplier.
	OptionsEquityRisk OptionsMode = "equity_risk"
	// OptionsPremium: contracts = floor(equity·risk_pct / (entry_premium ×
	// multiplier)); risk_pct is the share of equity spent on premium.
	OptionsPremium OptionsMode = "premium"
	// OptionsDeltaAdjusted: contracts = floor(equity·risk_pct / (|delta| ×
	// |underlying_entry − underlying_stop| × multiplier)), the option
	// equivalent of stock sizing on the underlying (first order only).
	OptionsDeltaAdjusted OptionsMode = "delta_adjusted"
	// OptionsSpread: contracts = floor(equity·risk_pct / max loss per
	// spread): (spread_width − credit_received) × multiplier for a credit
	// spread, net debit (entry_premium) × multiplier for a debit spread.
	OptionsSpread OptionsMode = "spread"
)

// DefaultContractMultiplier is the options contract multiplier used when
// none is given (US equity and index options).
const DefaultContractMultiplier = 100

// deepOTMDelta is the |delta| below which an option is flagged deep out of
// the money.
var deepOTMDelta = toolkit.MustParseAmount("0.1")

// OptionsSizingInput are the inputs of SizeOptions. Optional fields are
// nil when absent; which ones a mode needs is listed on each mode.
type OptionsSizingInput struct {
	Mode            OptionsMode     `json:"mode"`
	Equity          toolkit.Amount  `json:"equity"`
	RiskPct         toolkit.Amount  `json:"risk_pct"`
	EntryPremium    *toolkit.Amount `json:"entry_premium,omitempty"`
	StopPremium     *toolkit.Amount `json:"stop_premium,omitempty"`
	Delta           *toolkit.Amount `json:"delta,omitempty"`
	SpreadWidth     *toolkit.Amount `json:"spread_width,omitempty"`
	CreditReceived  *toolkit.Amount `json:"credit_received,omitempty"`
	UnderlyingEntry *toolkit.Amount `json:"underlying_entry,omitempty"`
	UnderlyingStop  *toolkit.Amount `json:"underlying_stop,omitempty"`
	// ContractMultiplier is the number of underlying units per contract,
	// at least 1; nil means DefaultContractMultiplier.
	ContractMultiplier *int64 `json:"contract_multiplier,omitempty"`
}

// OptionsSizing is the result of SizeOptions. Amounts are exact decimals.
type OptionsSizing struct {
	Mode               OptionsMode    `json:"mode"`
	Contracts          int64          `json:"contracts"`
	ContractMultiplier int64          `json:"contract_multiplier"`
	Budget             toolkit.Amount `json:"budget"`             // equity × risk_pct
	BindingConstraint  string         `json:"binding_constraint"` // "risk_budget" or "premium_budget"
	RiskPerContract    toolkit.Amount `json:"risk_per_contract"`
	TotalRisk          toolkit.Amount `json:"total_risk"`           // contracts × risk_per_contract
	ActualRiskFraction toolkit.Amount `json:"actual_risk_fraction"` // total_risk / equity
	// PremiumPerContract is entry_premium × multiplier (null without an entry premium).
	PremiumPerContract *toolkit.Amount `json:"premium_per_contract"`
	// PremiumOutlay is the premium paid: contracts × premium_per_contract (null without one, or for a credit spread).
	PremiumOutlay *toolkit.Amount `json:"premium_outlay"`
	// CreditCollected is contracts × credit_received × multiplier (credit spreads only).
	CreditCollected *toolkit.Amount `json:"credit_collected"`
	// CapitalRequired is the cash tied up: the premium outlay, or for a credit spread its total max loss.
	CapitalRequired toolkit.Amount `json:"capital_required"`
	// MaxProfitPerContract is a spread's best case per contract (spread mode only).
	MaxProfitPerContract *toolkit.Amount `json:"max_profit_per_contract"`
	// TargetShares is equity·risk_pct / |underlying_entry − underlying_stop| (delta_adjusted only).
	TargetShares *toolkit.Amount `json:"target_shares"`
	// DeltaExposure is contracts × delta × multiplier, in underlying units (null without a delta).
	DeltaExposure *toolkit.Amount `json:"delta_exposure"`
	Warnings      []string        `json:"warnings"`
}

// SizeOptions sizes an options position. The arithmetic is exact; the
// contract count is floored, so contracts × risk_per_contract (premium in
// mode premium) never exceeds the budget and one more contract would.
// risk_pct is a fraction in (0, 1]. A budget smaller than one contract
// gives 0 contracts and a warning, not an error.
func SizeOptions(in OptionsSizingInput) (*OptionsSizing, error) {
	mode := string(in.Mode)
	mult := int64(DefaultContractMultiplier)
	if in.ContractMultiplier != nil {
		mult = *in.ContractMultiplier
	}
	if err := checkOptionsInput(in, mult); err != nil {
		return nil, err
	}
	m := toolkit.AmountFromInt(mult)
	out := &OptionsSizing{Mode: in.Mode, ContractMultiplier: mult, Warnings: []string{},
		Budget: in.Equity.Mul(in.RiskPct), BindingConstraint: "risk_budget"}
	if in.EntryPremium != nil {
		out.PremiumPerContract = ptr(in.EntryPremium.Mul(m))
	}
	ignore := func(field string, v *toolkit.Amount) {
		if v != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s is ignored in mode %s", field, mode))
		}
	}
	// per is what one contract consumes of the budget.
	var per toolkit.Amount
	switch in.Mode {
	case OptionsEquityRisk, OptionsPremium:
		if in.EntryPremium == nil {
			return nil, required("entry_premium", mode)
		}
		out.RiskPerContract = *out.PremiumPerContract
		if in.StopPremium != nil {
			out.RiskPerContract = in.EntryPremium.Sub(*in.StopPremium).Mul(m)
		}
		per = out.RiskPerContract
		if in.Mode == OptionsPremium {
			per, out.BindingConstraint = *out.PremiumPerContract, "premium_budget"
		}
		ignore("spread_width", in.SpreadWidth)
		ignore("credit_received", in.CreditReceived)
		ignore("underlying_entry", in.UnderlyingEntry)
		ignore("underlying_stop", in.UnderlyingStop)
	case OptionsDeltaAdjusted:
		if err := deltaAdjusted(in, m, out); err != nil {
			return nil, err
		}
		per = out.RiskPerContract
		ignore("stop_premium", in.StopPremium)
		ignore("spread_width", in.SpreadWidth)
		ignore("credit_received", in.CreditReceived)
	case OptionsSpread:
		if err := spreadRisk(in, m, out); err != nil {
			return nil, err
		}
		per = out.RiskPerContract
		ignore("stop_premium", in.StopPremium)
		ignore("underlying_entry", in.UnderlyingEntry)
		ignore("underlying_stop", in.UnderlyingStop)
	default:
		return nil, invalid("mode", "must be one of equity_risk, premium, delta_adjusted, spread; got %q", mode)
	}
	n, err := floorCount("contracts", out.Budget, per)
	if err != nil {
		return nil, err
	}
	finishOptions(in, m, n, per, out)
	return out, nil
}

// checkOptionsInput validates the fields every mode shares and the ranges
// of the optional ones.
func checkOptionsInput(in OptionsSizingInput, mult int64) error {
	if err := positive("equity", in.Equity); err != nil {
		return err
	}
	if err := fraction("risk_pct", in.RiskPct); err != nil {
		return err
	}
	if mult < 1 {
		return invalid("contract_multiplier", "must be an integer of at least 1, got %d", mult)
	}
	for _, f := range []struct {
		name string
		v    *toolkit.Amount
	}{{"entry_premium", in.EntryPremium}, {"spread_width", in.SpreadWidth}, {"credit_received", in.CreditReceived},
		{"underlying_entry", in.UnderlyingEntry}, {"underlying_stop", in.UnderlyingStop}} {
		if f.v != nil {
			if err := positive(f.name, *f.v); err != nil {
				return err
			}
		}
	}
	if in.StopPremium != nil {
		if err := nonNegative("stop_premium", *in.StopPremium); err != nil {
			return err
		}
		if in.EntryPremium != nil && in.StopPremium.Cmp(*in.EntryPremium) >= 0 {
			return invalid("stop_premium", "must be below entry_premium (%s) for a long option, got %s", *in.EntryPremium, *in.StopPremium)
		}
	}
	if in.Delta != nil && (in.Delta.Cmp(one.Neg()) < 0 || in.Delta.Cmp(one) > 0) {
		return invalid("delta", "must be between -1 and 1, got %s", *in.Delta)
	}
	return nil
}

// deltaAdjusted fills the delta_adjusted risk per contract and target shares.
func deltaAdjusted(in OptionsSizingInput, m toolkit.Amount, out *OptionsSizing) error {
	mode := string(in.Mode)
	switch {
	case in.Delta == nil:
		return required("delta", mode)
	case in.UnderlyingEntry == nil:
		return required("underlying_entry", mode)
	case in.UnderlyingStop == nil:
		return required("underlying_stop", mode)
	case in.Delta.IsZero():
		return invalid("delta", "must not be 0 in mode %s (a zero-delta option has no first-order exposure)", mode)
	}
	dist := in.UnderlyingEntry.Sub(*in.UnderlyingStop).Abs()
	if dist.IsZero() {
		return invalid("underlying_stop", "must differ from underlying_entry (%s)", *in.UnderlyingEntry)
	}
	shares := quo(out.Budget, dist)
	out.TargetShares = ptr(reduce(roundSafe(shares, 6, toolkit.RoundDown)))
	out.RiskPerContract = mul(in.Delta.Abs(), dist, m)
	if out.PremiumPerContract != nil && out.PremiumPerContract.Cmp(out.RiskPerContract) < 0 {
		// A long option cannot lose more than its premium.
		out.RiskPerContract = *out.PremiumPerContract
		out.Warnings = append(out.Warnings, "risk per contract capped at the premium paid: the delta estimate exceeded it")
	}
	out.Warnings = append(out.Warnings,
		"delta_adjusted is first-order: gamma and vega are ignored and delta changes as the underlying moves")
	return nil
}

// spreadRisk fills the spread-mode max loss, max profit and credit.
func spreadRisk(in OptionsSizingInput, m toolkit.Amount, out *OptionsSizing) error {
	mode := string(in.Mode)
	if in.SpreadWidth == nil {
		return required("spread_width", mode)
	}
	width := *in.SpreadWidth
	switch {
	case in.CreditReceived != nil && in.EntryPremium != nil:
		return invalid("credit_received", "give either credit_received (credit spread) or entry_premium (net debit of a debit spread) in mode spread, not both")
	case in.CreditReceived != nil:
		if in.CreditReceived.Cmp(width) >= 0 {
			return invalid("credit_received", "must be less than spread_width (%s), got %s", width, *in.CreditReceived)
		}
		out.RiskPerContract = width.Sub(*in.CreditReceived).Mul(m)
		out.MaxProfitPerContract = ptr(in.CreditReceived.Mul(m))
	case in.EntryPremium != nil:
		if in.EntryPremium.Cmp(width) >= 0 {
			return invalid("entry_premium", "the net debit must be less than spread_width (%s), got %s", width, *in.EntryPremium)
		}
		out.RiskPerContract = *out.PremiumPerContract
		out.MaxProfitPerContract = ptr(width.Sub(*in.EntryPremium).Mul(m))
	default:
		return toolkit.Errorf(toolkit.Invalid, "credit_received (credit spread) or entry_premium (debit spread) is required in mode spread")
	}
	return nil
}

// finishOptions fills the totals once the contract count n is known.
func finishOptions(in OptionsSizingInput, m toolkit.Amount, n int64, per toolkit.Amount, out *OptionsSizing) {
	c := toolkit.AmountFromInt(n)
	out.Contracts = n
	out.TotalRisk = c.Mul(out.RiskPerContract)
	out.ActualRiskFraction = ratio(out.TotalRisk, in.Equity)
	switch {
	case in.CreditReceived != nil:
		out.CreditCollected = ptr(mul(c, *in.CreditReceived, m))
		out.CapitalRequired = out.TotalRisk
	case out.PremiumPerContract != nil:
		out.PremiumOutlay = ptr(c.Mul(*out.PremiumPerContract))
		out.CapitalRequired = *out.PremiumOutlay
	}
	if in.Delta != nil {
		out.DeltaExposure = ptr(reduce(mul(c, *in.Delta, m))) // underlying units: "400", never "400.0"
		if in.Delta.Abs().Cmp(deepOTMDelta) < 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("deep out of the money: |delta| %s is below 0.1", in.Delta.Abs()))
		}
	}
	money.Fields(&out.Budget, &out.RiskPerContract, &out.TotalRisk, &out.CapitalRequired)
	money.Optional(&out.PremiumPerContract, &out.PremiumOutlay, &out.CreditCollected, &out.MaxProfitPerContract)
	if n == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf(
			"budget %s is smaller than one contract (%s): 0 contracts", out.Budget, money.Canonical(per)))
	}
}
