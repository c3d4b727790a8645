package derivatives

import (
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// FuturesMode selects the primary constraint of size_futures_position.
type FuturesMode string

// The futures sizing modes.
const (
	// FuturesMarginBased: contracts = floor(available_margin ×
	// max_margin_usage_pct / initial_margin_per_contract).
	FuturesMarginBased FuturesMode = "margin_based"
	// FuturesTickValue: ticks = ceil(|entry − stop| / tick_size) (rounded
	// up, conservative); contracts = floor(equity·risk_pct / (ticks ×
	// tick_value)).
	FuturesTickValue FuturesMode = "tick_value"
	// FuturesNotional: contracts = floor(max_notional / (contract_price ×
	// point_value)).
	FuturesNotional FuturesMode = "notional"
)

// The constraint names reported in FuturesSizing.
const (
	constraintRisk     = "risk"
	constraintMargin   = "margin"
	constraintNotional = "notional"
)

// DefaultMaxMarginUsagePct is the share of available margin margin_based
// sizing may commit when max_margin_usage_pct is absent.
var DefaultMaxMarginUsagePct = toolkit.MustParseAmount("0.50")

// FuturesSizingInput are the inputs of SizeFutures. Optional fields are nil
// when absent.
type FuturesSizingInput struct {
	Mode                     FuturesMode     `json:"mode"`
	Equity                   *toolkit.Amount `json:"equity,omitempty"`
	RiskPct                  *toolkit.Amount `json:"risk_pct,omitempty"`
	EntryPrice               *toolkit.Amount `json:"entry_price,omitempty"`
	StopPrice                *toolkit.Amount `json:"stop_price,omitempty"`
	TickSize                 *toolkit.Amount `json:"tick_size,omitempty"`
	TickValue                *toolkit.Amount `json:"tick_value,omitempty"`
	AvailableMargin          *toolkit.Amount `json:"available_margin,omitempty"`
	InitialMarginPerContract *toolkit.Amount `json:"initial_margin_per_contract,omitempty"`
	MaxMarginUsagePct        *toolkit.Amount `json:"max_margin_usage_pct,omitempty"`
	MaxNotional              *toolkit.Amount `json:"max_notional,omitempty"`
	ContractPrice            *toolkit.Amount `json:"contract_price,omitempty"`
	// ContractMultiplier is the point value ($ per 1.0 price move), at
	// least 1; nil means absent (then tick_value / tick_size is used when
	// both are given).
	ContractMultiplier *int64 `json:"contract_multiplier,omitempty"`
}

// FuturesSizing is the result of SizeFutures. Figures that need inputs the
// call did not give are null.
type FuturesSizing struct {
	Mode      FuturesMode `json:"mode"`
	Contracts int64       `json:"contracts"`
	// BindingConstraint is the constraint that set the count: risk, margin or notional.
	BindingConstraint string `json:"binding_constraint"`
	// Constraints holds the largest count each applied constraint allows.
	Constraints         map[string]int64 `json:"constraints"`
	PointValue          *toolkit.Amount  `json:"point_value"`
	TicksAtRisk         *int64           `json:"ticks_at_risk"`
	RiskPerContract     *toolkit.Amount  `json:"risk_per_contract"`
	TotalRisk           *toolkit.Amount  `json:"total_risk"`
	RiskBudget          *toolkit.Amount  `json:"risk_budget"`
	ActualRiskFraction  *toolkit.Amount  `json:"actual_risk_fraction"`
	MarginPerContract   *toolkit.Amount  `json:"margin_per_contract"`
	MarginUsed          *toolkit.Amount  `json:"margin_used"`
	MarginBudget        *toolkit.Amount  `json:"margin_budget"`
	MarginUsageFraction *toolkit.Amount  `json:"margin_usage_fraction"`
	MaxMarginUsagePct   toolkit.Amount   `json:"max_margin_usage_pct"`
	NotionalPerContract *toolkit.Amount  `json:"notional_per_contract"`
	Notional            *toolkit.Amount  `json:"notional"`
	Warnings            []string         `json:"warnings"`
}

// futuresField is one named optional input.
type futuresField struct {
	name string
	v    *toolkit.Amount
}

// SizeFutures sizes a futures position. The mode names the primary
// constraint, whose inputs are required; every other constraint whose
// inputs are all present (risk: equity, risk_pct, entry_price, stop_price,
// tick_size, tick_value; margin: available_margin,
// initial_margin_per_contract; notional: max_notional, contract_price or
// entry_price, and a point value) is enforced too, and the count is the
// smallest. Counts are floored, so no applied constraint is exceeded.
func SizeFutures(in FuturesSizingInput) (*FuturesSizing, error) {
	mode := string(in.Mode)
	if err := checkFuturesInput(in); err != nil {
		return nil, err
	}
	risk := []futuresField{{"equity", in.Equity}, {"risk_pct", in.RiskPct}, {"entry_price", in.EntryPrice},
		{"stop_price", in.StopPrice}, {"tick_size", in.TickSize}, {"tick_value", in.TickValue}}
	margin := []futuresField{{"available_margin", in.AvailableMargin}, {"initial_margin_per_contract", in.InitialMarginPerContract}}
	price := in.ContractPrice
	if price == nil {
		price = in.EntryPrice
	}
	notional := []futuresField{{"max_notional", in.MaxNotional}, {"contract_price", price}}
	var primary string
	switch in.Mode {
	case FuturesTickValue:
		primary = constraintRisk
	case FuturesMarginBased:
		primary = constraintMargin
	case FuturesNotional:
		primary = constraintNotional
	default:
		return nil, invalid("mode", "must be one of margin_based, tick_value, notional; got %q", mode)
	}
	out := &FuturesSizing{Mode: in.Mode, Constraints: map[string]int64{}, Warnings: []string{},
		MaxMarginUsagePct: DefaultMaxMarginUsagePct}
	if in.MaxMarginUsagePct != nil {
		out.MaxMarginUsagePct = *in.MaxMarginUsagePct
	}
	pv, err := pointValue(in)
	if err != nil {
		return nil, err
	}
	out.PointValue = pv
	// A partly given secondary constraint is reported when one of its
	// own inputs (trigger) is present; shared inputs such as entry_price
	// alone do not trigger the warning.
	groups := []struct {
		name    string
		fields  []futuresField
		trigger []futuresField
		apply   func() (int64, error)
	}{
		{constraintRisk, risk, []futuresField{risk[1], risk[3]}, func() (int64, error) { return riskCap(in, out) }},
		{constraintMargin, margin, margin, func() (int64, error) { return marginCap(in, out) }},
		{constraintNotional, notional, notional[:1], func() (int64, error) { return notionalCap(in, *price, out) }},
	}
	for _, g := range groups {
		missing := missingFields(g.fields)
		if g.name == constraintNotional && pv == nil {
			missing = append(missing, "contract_multiplier (or tick_size and tick_value)")
		}
		if len(missing) > 0 {
			if g.name == primary {
				return nil, required(strings.ReplaceAll(missing[0], "contract_price", "contract_price (or entry_price)"), mode)
			}
			if len(missingFields(g.trigger)) < len(g.trigger) {
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s constraint not applied: missing %s", g.name, strings.Join(missing, ", ")))
			}
			continue
		}
		n, err := g.apply()
		if err != nil {
			return nil, err
		}
		out.Constraints[g.name] = n
	}
	out.BindingConstraint, out.Contracts = primary, out.Constraints[primary]
	for _, name := range []string{constraintRisk, constraintMargin, constraintNotional} {
		if n, ok := out.Constraints[name]; ok && n < out.Contracts {
			out.BindingConstraint, out.Contracts = name, n
		}
	}
	finishFutures(in, price, out)
	return out, nil
}

// checkFuturesInput validates the range of every field that is present.
func checkFuturesInput(in FuturesSizingInput) error {
	for _, f := range []futuresField{{"equity", in.Equity}, {"entry_price", in.EntryPrice}, {"stop_price", in.StopPrice},
		{"tick_size", in.TickSize}, {"tick_value", in.TickValue}, {"available_margin", in.AvailableMargin},
		{"initial_margin_per_contract", in.InitialMarginPerContract}, {"max_notional", in.MaxNotional},
		{"contract_price", in.ContractPrice}} {
		if f.v != nil {
			if err := positive(f.name, *f.v); err != nil {
				return err
			}
		}
	}
	for _, f := range []futuresField{{"risk_pct", in.RiskPct}, {"max_margin_usage_pct", in.MaxMarginUsagePct}} {
		if f.v != nil {
			if err := fraction(f.name, *f.v); err != nil {
				return err
			}
		}
	}
	if in.ContractMultiplier != nil && *in.ContractMultiplier < 1 {
		return invalid("contract_multiplier", "must be an integer of at least 1, got %d", *in.ContractMultiplier)
	}
	if in.EntryPrice != nil && in.StopPrice != nil && in.EntryPrice.Cmp(*in.StopPrice) == 0 {
		return invalid("stop_price", "must differ from entry_price (%s)", *in.EntryPrice)
	}
	return nil
}

// pointValue returns the $ value of a 1.0 price move: contract_multiplier,
// or tick_value / tick_size. When both are given they must agree.
func pointValue(in FuturesSizingInput) (*toolkit.Amount, error) {
	var fromTicks *toolkit.Amount
	if in.TickSize != nil && in.TickValue != nil {
		fromTicks = ptr(quo(*in.TickValue, *in.TickSize))
	}
	if in.ContractMultiplier == nil {
		return fromTicks, nil
	}
	m := toolkit.AmountFromInt(*in.ContractMultiplier)
	if fromTicks != nil && fromTicks.Cmp(m) != 0 {
		return nil, invalid("contract_multiplier", "%d disagrees with tick_value / tick_size = %s / %s = %s",
			*in.ContractMultiplier, *in.TickValue, *in.TickSize, *fromTicks)
	}
	return &m, nil
}

// missingFields lists the names of the absent fields.
func missingFields(fs []futuresField) []string {
	var out []string
	for _, f := range fs {
		if f.v == nil {
			out = append(out, f.name)
		}
	}
	return out
}

// riskCap applies the tick-value risk constraint.
func riskCap(in FuturesSizingInput, out *FuturesSizing) (int64, error) {
	dist := in.EntryPrice.Sub(*in.StopPrice).Abs()
	exact := quo(dist, *in.TickSize)
	ticks := ceil(exact)
	nt, err := ticks.Int64()
	if err != nil {
		return 0, invalid("tick_size", "the stop is %s ticks away; check tick_size", ticks)
	}
	for _, f := range []futuresField{{"entry_price", in.EntryPrice}, {"stop_price", in.StopPrice}} {
		if q, _ := f.v.Quo(*in.TickSize); !isInteger(q) {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s %s is not on the tick grid of %s", f.name, *f.v, *in.TickSize))
		}
	}
	if !isInteger(exact) {
		out.Warnings = append(out.Warnings, fmt.Sprintf("stop distance %s is %s ticks; rounded up to %d", dist, exact, nt))
	}
	rpc := ticks.Mul(*in.TickValue)
	budget := in.Equity.Mul(*in.RiskPct)
	out.TicksAtRisk, out.RiskPerContract, out.RiskBudget = &nt, &rpc, &budget
	return floorCount("contracts", budget, rpc)
}

// marginCap applies the margin constraint.
func marginCap(in FuturesSizingInput, out *FuturesSizing) (int64, error) {
	budget := in.AvailableMargin.Mul(out.MaxMarginUsagePct)
	out.MarginPerContract, out.MarginBudget = in.InitialMarginPerContract, &budget
	return floorCount("contracts", budget, *in.InitialMarginPerContract)
}

// notionalCap applies the notional constraint at price.
func notionalCap(in FuturesSizingInput, price toolkit.Amount, out *FuturesSizing) (int64, error) {
	per := price.Mul(*out.PointValue)
	out.NotionalPerContract = &per
	return floorCount("contracts", *in.MaxNotional, per)
}

// finishFutures fills the totals once the count is known.
func finishFutures(in FuturesSizingInput, price *toolkit.Amount, out *FuturesSizing) {
	c := toolkit.AmountFromInt(out.Contracts)
	if out.RiskPerContract != nil {
		out.TotalRisk = ptr(c.Mul(*out.RiskPerContract))
		out.ActualRiskFraction = ptr(ratio(*out.TotalRisk, *in.Equity))
	}
	if in.InitialMarginPerContract != nil {
		out.MarginPerContract = in.InitialMarginPerContract
		out.MarginUsed = ptr(c.Mul(*in.InitialMarginPerContract))
		if in.AvailableMargin != nil {
			out.MarginUsageFraction = ptr(ratio(*out.MarginUsed, *in.AvailableMargin))
		}
	}
	if price != nil && out.PointValue != nil {
		if out.NotionalPerContract == nil {
			out.NotionalPerContract = ptr(price.Mul(*out.PointValue))
		}
		out.Notional = ptr(c.Mul(*out.NotionalPerContract))
	}
	money.Optional(&out.PointValue, &out.RiskPerContract, &out.TotalRisk, &out.RiskBudget, &out.MarginPerContract,
		&out.MarginUsed, &out.MarginBudget, &out.NotionalPerContract, &out.Notional)
	if out.Contracts == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the %s constraint allows 0 contracts", out.BindingConstraint))
	}
}
