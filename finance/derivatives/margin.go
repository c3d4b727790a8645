package derivatives

import (
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// The margin statuses.
const (
	MarginOK         = "OK"          // equity covers the initial margin
	MarginRestricted = "RESTRICTED"  // equity below initial but at or above maintenance margin
	MarginCall       = "MARGIN_CALL" // equity below maintenance margin
)

// MarginPosition is one open position. Margin is given either as a rate of
// notional (margin_rate) or per contract (initial_margin_per_contract),
// exactly one of the two; maintenance margin likewise, defaulting to the
// initial margin.
type MarginPosition struct {
	Symbol string `json:"symbol"`
	// Quantity is signed: negative is short. Margin uses |quantity|.
	Quantity toolkit.Amount `json:"quantity"`
	Price    toolkit.Amount `json:"price"`
	// Multiplier is the units per contract; nil means 1.
	Multiplier                   *toolkit.Amount `json:"multiplier,omitempty"`
	MarginRate                   *toolkit.Amount `json:"margin_rate,omitempty"`
	InitialMarginPerContract     *toolkit.Amount `json:"initial_margin_per_contract,omitempty"`
	MaintenanceMarginRate        *toolkit.Amount `json:"maintenance_margin_rate,omitempty"`
	MaintenanceMarginPerContract *toolkit.Amount `json:"maintenance_margin_per_contract,omitempty"`
}

// MarginInput are the inputs of CalculateMargin.
type MarginInput struct {
	AccountEquity toolkit.Amount   `json:"account_equity"`
	Positions     []MarginPosition `json:"positions"`
}

// PositionMargin is the margin of one position.
type PositionMargin struct {
	Symbol            string         `json:"symbol"`
	Side              string         `json:"side"` // long, short or flat
	Quantity          toolkit.Amount `json:"quantity"`
	Notional          toolkit.Amount `json:"notional"` // |quantity| × price × multiplier
	InitialMargin     toolkit.Amount `json:"initial_margin"`
	MaintenanceMargin toolkit.Amount `json:"maintenance_margin"`
	// MarginBasis is "rate" or "per_contract".
	MarginBasis string `json:"margin_basis"`
}

// MarginResult is the result of CalculateMargin. Amounts are exact.
type MarginResult struct {
	AccountEquity          toolkit.Amount   `json:"account_equity"`
	Positions              []PositionMargin `json:"positions"`
	TotalNotional          toolkit.Amount   `json:"total_notional"`
	TotalInitialMargin     toolkit.Amount   `json:"total_initial_margin"`
	TotalMaintenanceMargin toolkit.Amount   `json:"total_maintenance_margin"`
	// FreeMargin is account_equity − total_initial_margin (negative when short of margin).
	FreeMargin toolkit.Amount `json:"free_margin"`
	// ExcessOverMaintenance is account_equity − total_maintenance_margin.
	ExcessOverMaintenance toolkit.Amount `json:"excess_over_maintenance"`
	// MarginUsageFraction is total_initial_margin / account_equity (null when equity ≤ 0).
	MarginUsageFraction *toolkit.Amount `json:"margin_usage_fraction"`
	// Leverage is total_notional / account_equity (null when equity ≤ 0).
	Leverage *toolkit.Amount `json:"leverage"`
	// MarginCall is true when account_equity < total_maintenance_margin.
	MarginCall bool     `json:"margin_call"`
	Status     string   `json:"status"`
	Warnings   []string `json:"warnings"`
}

// CalculateMargin totals the initial and maintenance margin of a book and
// compares it with the account equity, in exact decimals:
// initial = |q|·price·multiplier·margin_rate or |q|·initial_margin_per_contract,
// and maintenance likewise (default: equal to initial). margin_call is
// equity < total maintenance; status is MARGIN_CALL, RESTRICTED (equity
// below initial margin: no new positions) or OK.
func CalculateMargin(in MarginInput) (*MarginResult, error) {
	if len(in.Positions) == 0 {
		return nil, invalid("positions", "must hold at least 1 position")
	}
	if err := tooMany("positions", len(in.Positions)); err != nil {
		return nil, err
	}
	res := &MarginResult{AccountEquity: in.AccountEquity, Positions: make([]PositionMargin, len(in.Positions)),
		Warnings: []string{}}
	for i, p := range in.Positions {
		pm, warn, err := positionMargin(i, p)
		if err != nil {
			return nil, err
		}
		if warn != "" {
			res.Warnings = append(res.Warnings, warn)
		}
		res.Positions[i] = pm
		res.TotalNotional = res.TotalNotional.Add(pm.Notional)
		res.TotalInitialMargin = res.TotalInitialMargin.Add(pm.InitialMargin)
		res.TotalMaintenanceMargin = res.TotalMaintenanceMargin.Add(pm.MaintenanceMargin)
	}
	res.FreeMargin = in.AccountEquity.Sub(res.TotalInitialMargin)
	res.ExcessOverMaintenance = in.AccountEquity.Sub(res.TotalMaintenanceMargin)
	if in.AccountEquity.Sign() > 0 {
		res.MarginUsageFraction = ptr(ratio(res.TotalInitialMargin, in.AccountEquity))
		res.Leverage = ptr(ratio(res.TotalNotional, in.AccountEquity))
	} else {
		res.Warnings = append(res.Warnings, "account_equity is not positive: usage and leverage are undefined")
	}
	for i := range res.Positions {
		p := &res.Positions[i]
		money.Fields(&p.Notional, &p.InitialMargin, &p.MaintenanceMargin)
	}
	money.Fields(&res.AccountEquity, &res.TotalNotional, &res.TotalInitialMargin, &res.TotalMaintenanceMargin,
		&res.FreeMargin, &res.ExcessOverMaintenance)
	res.MarginCall = res.ExcessOverMaintenance.Sign() < 0
	switch {
	case res.MarginCall:
		res.Status = MarginCall
	case res.FreeMargin.Sign() < 0:
		res.Status = MarginRestricted
	default:
		res.Status = MarginOK
	}
	return res, nil
}

// positionMargin computes and validates one position.
func positionMargin(i int, p MarginPosition) (PositionMargin, string, error) {
	field := func(name string) string { return fmt.Sprintf("positions[%d].%s", i, name) }
	if err := positive(field("price"), p.Price); err != nil {
		return PositionMargin{}, "", err
	}
	mult := one
	if p.Multiplier != nil {
		if err := positive(field("multiplier"), *p.Multiplier); err != nil {
			return PositionMargin{}, "", err
		}
		mult = *p.Multiplier
	}
	qty := p.Quantity.Abs()
	pm := PositionMargin{Symbol: p.Symbol, Quantity: p.Quantity, Notional: mul(qty, p.Price, mult), Side: "flat"}
	switch p.Quantity.Sign() {
	case 1:
		pm.Side = "long"
	case -1:
		pm.Side = "short"
	}
	initial, basis, err := marginAmount(field, "margin_rate", "initial_margin_per_contract", p.MarginRate, p.InitialMarginPerContract, qty, pm.Notional, true)
	if err != nil {
		return PositionMargin{}, "", err
	}
	pm.InitialMargin, pm.MarginBasis = *initial, basis
	pm.MaintenanceMargin = pm.InitialMargin
	maint, _, err := marginAmount(field, "maintenance_margin_rate", "maintenance_margin_per_contract", p.MaintenanceMarginRate, p.MaintenanceMarginPerContract, qty, pm.Notional, false)
	if err != nil {
		return PositionMargin{}, "", err
	}
	if maint != nil {
		if maint.Cmp(pm.InitialMargin) > 0 {
			return PositionMargin{}, "", invalid(field("maintenance_margin"), "%s exceeds the initial margin %s", *maint, pm.InitialMargin)
		}
		pm.MaintenanceMargin = *maint
	}
	warn := ""
	if basis == "per_contract" && !isInteger(qty) {
		warn = fmt.Sprintf("positions[%d]: quantity %s is not a whole number of contracts", i, p.Quantity)
	}
	return pm, warn, nil
}

// marginAmount applies either a rate of notional or an amount per contract
// (exactly one; both absent is an error only when need is true and gives
// nil otherwise).
func marginAmount(field func(string) string, rateName, perName string, rate, per *toolkit.Amount, qty, notional toolkit.Amount, need bool) (*toolkit.Amount, string, error) {
	switch {
	case rate != nil && per != nil:
		return nil, "", invalid(field(rateName), "give either %s or %s, not both", rateName, perName)
	case rate != nil:
		if err := fraction(field(rateName), *rate); err != nil {
			return nil, "", err
		}
		return ptr(notional.Mul(*rate)), "rate", nil
	case per != nil:
		if err := nonNegative(field(perName), *per); err != nil {
			return nil, "", err
		}
		return ptr(qty.Mul(*per)), "per_contract", nil
	case need:
		return nil, "", toolkit.Errorf(toolkit.Invalid, "%s or %s is required", field(rateName), field(perName))
	}
	return nil, "", nil
}
