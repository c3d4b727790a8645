package finance

import (
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// DefaultRiskPercent is the risk fraction used when a sizing input leaves
// risk_percent out: 0.02, i.e. 2 % of equity per trade.
var DefaultRiskPercent = toolkit.MustParseAmount("0.02")

var (
	oneAmount      = toolkit.AmountFromInt(1)
	maxShareAmount = toolkit.AmountFromInt(1<<63 - 1)
)

// SizingInput is the input of CalculatePositionSize and of the
// calculate_position_size tool (the JSON names are the tool's argument
// names).
type SizingInput struct {
	// Equity is the account equity in currency units; > 0.
	Equity toolkit.Amount `json:"equity"`
	// EntryPrice is the planned entry price; > 0.
	EntryPrice toolkit.Amount `json:"entry_price"`
	// StopPrice is the initial stop; > 0, below the entry for a long and
	// above it for a short.
	StopPrice toolkit.Amount `json:"stop_price"`
	// Direction is "long" or "short", in any letter case.
	Direction string `json:"direction"`
	// RiskPercent is the fraction of equity risked, in (0, 1]; nil means
	// DefaultRiskPercent (0.02).
	RiskPercent *toolkit.Amount `json:"risk_percent,omitempty"`
	// Instrument optionally names what is traded; it is echoed back.
	Instrument string `json:"instrument,omitempty"`
}

// Sizing is a fixed-fractional position size.
//
// Every money figure is exact decimal arithmetic on the inputs (no rounding
// step; a product is rounded half-even only if it would need more than 34
// significant digits), written in the canonical money form: at least two
// decimals, no trailing zeros beyond them, whatever form the inputs took
// (100000 × 0.02 = "2000.00"; 25000.50 × 0.025 = "625.0125"; an entry of
// 67336.5 or 6.73365e4 gives a notional of "67336.50" per share).
type Sizing struct {
	// Shares is floor(RiskAmount / RiskPerShare); 0 when one share already
	// risks more than the budget (see Warnings).
	Shares int64 `json:"shares"`
	// RiskAmount is the risk budget, equity × risk_percent.
	RiskAmount toolkit.Amount `json:"risk_amount"`
	// RiskPercent is the risk fraction used (the input or 0.02).
	RiskPercent toolkit.Amount `json:"risk_percent"`
	// Notional is shares × entry_price.
	Notional toolkit.Amount `json:"notional"`
	// OneRDollars is the money actually at risk: shares × risk_per_share.
	// It never exceeds RiskAmount.
	OneRDollars toolkit.Amount `json:"one_r_dollars"`
	// RiskPerShare is |entry_price − stop_price|.
	RiskPerShare toolkit.Amount `json:"risk_per_share"`
	// Direction is "long" or "short" (lower case).
	Direction Direction `json:"direction"`
	// Instrument echoes the input instrument (omitted when not given).
	Instrument string `json:"instrument,omitempty"`
	// Warnings explains a zero-share result; empty otherwise.
	Warnings []string `json:"warnings"`
}

// CalculatePositionSize sizes a position so that a stop-out loses at most
// equity × risk_percent:
//
//	shares = floor(equity × risk_percent / |entry_price − stop_price|)
//
// in exact decimal arithmetic (float64 would give 4999 instead of 5000 for
// equity 25000, risk 0.02, entry 10.30, stop 10.20).
//
// Errors (toolkit.Invalid, naming the field): equity, entry_price or
// stop_price not greater than 0; risk_percent outside (0, 1]; an unknown
// direction; stop_price equal to entry_price or on the wrong side (a long's
// stop must be below the entry, a short's above); a size beyond int64.
// A budget smaller than one share's risk is not an error: Shares is 0 and
// Warnings says why (the pre-trade gate then fails).
func CalculatePositionSize(in SizingInput) (Sizing, error) {
	dir, err := ParseDirection(in.Direction)
	if err != nil {
		return Sizing{}, err
	}
	riskPct := DefaultRiskPercent
	if in.RiskPercent != nil {
		riskPct = *in.RiskPercent
	}
	if err := validateSizing(in, dir, riskPct); err != nil {
		return Sizing{}, err
	}
	perShare := in.EntryPrice.Sub(in.StopPrice).Abs()
	budget := in.Equity.Mul(riskPct)
	shares, err := floorShares(budget, perShare)
	if err != nil {
		return Sizing{}, err
	}
	n, _ := shares.Int64()            // floorShares guarantees an int64 integer
	shares = toolkit.AmountFromInt(n) // exponent 0: products keep the price's decimals
	out := Sizing{
		Shares:       n,
		RiskAmount:   budget,
		RiskPercent:  riskPct,
		Notional:     shares.Mul(in.EntryPrice),
		OneRDollars:  shares.Mul(perShare),
		RiskPerShare: perShare,
		Direction:    dir,
		Instrument:   in.Instrument,
		Warnings:     []string{},
	}
	money.Fields(&out.RiskAmount, &out.Notional, &out.OneRDollars, &out.RiskPerShare)
	if n == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf(
			"shares is 0: the risk budget %s is smaller than the risk of one share %s", out.RiskAmount, out.RiskPerShare))
	}
	return out, nil
}

// validateSizing checks the sizing inputs, naming the first bad field.
func validateSizing(in SizingInput, dir Direction, riskPct toolkit.Amount) error {
	if err := requirePositive("equity", in.Equity); err != nil {
		return err
	}
	if err := requirePositive("entry_price", in.EntryPrice); err != nil {
		return err
	}
	if err := requirePositive("stop_price", in.StopPrice); err != nil {
		return err
	}
	if riskPct.Sign() <= 0 || riskPct.Cmp(oneAmount) > 0 {
		return invalid("risk_percent", "must be a fraction in (0, 1] (0.02 means 2 %%), got %s", riskPct)
	}
	if in.StopPrice.Cmp(in.EntryPrice) == 0 {
		return invalid("stop_price", "must differ from entry_price (zero risk per share), both are %s", in.EntryPrice)
	}
	if dir.stopOnWrongSide(in.EntryPrice, in.StopPrice) {
		side := "below"
		if dir == Short {
			side = "above"
		}
		return invalid("stop_price", "for a %s position the stop must be %s entry_price %s, got %s",
			dir, side, in.EntryPrice, in.StopPrice)
	}
	return nil
}

// floorShares returns floor(budget / perShare) as an integral Amount that
// fits in an int64, with perShare > 0. The quotient is rounded to 34 digits
// before the floor, so the result is checked against the budget exactly and
// lowered by one if that rounding pushed it over.
func floorShares(budget, perShare toolkit.Amount) (toolkit.Amount, error) {
	q, err := budget.Quo(perShare)
	if err != nil {
		return toolkit.Amount{}, invalid("stop_price", "%v", err)
	}
	shares, err := q.Floor()
	if err != nil || shares.Cmp(maxShareAmount) > 0 {
		return toolkit.Amount{}, invalid("equity", "the position would exceed %s shares", maxShareAmount)
	}
	if shares.Sign() > 0 && shares.Mul(perShare).Cmp(budget) > 0 {
		shares = shares.Sub(oneAmount)
	}
	return shares, nil
}
