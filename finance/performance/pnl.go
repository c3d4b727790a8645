package performance

import (
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// Trade directions of CalculatePnL: the output spelling is lower case,
// the input may use any letter case.
const (
	DirectionLong  = "long"
	DirectionShort = "short"
)

// RMultipleDecimals is the number of decimal places of the R-multiples of
// CalculatePnL (rounded half-even).
const RMultipleDecimals = 6

// PnLInput is the input of CalculatePnL.
type PnLInput struct {
	EntryPrice toolkit.Amount
	ExitPrice  toolkit.Amount
	// Quantity is the number of units, at least 1.
	Quantity int64
	// Direction is "long" or "short", in any letter case.
	Direction string
	// StopPrice is the initial stop; nil when unknown (no R-multiple).
	StopPrice *toolkit.Amount
	// Fees are the total fees of the round trip (>= 0); nil means 0.
	Fees *toolkit.Amount
}

// PnLResult is the answer of CalculatePnL. Money is exact, in the
// canonical money form (at least two decimals, no trailing zeros beyond);
// the ratios are rounded to 6 decimals and written without trailing zeros.
type PnLResult struct {
	Direction string `json:"direction"` // "long" or "short"
	// PnLPerUnit = exit - entry (long) or entry - exit (short).
	PnLPerUnit toolkit.Amount `json:"pnl_per_unit"`
	// GrossPnL = PnLPerUnit × quantity.
	GrossPnL toolkit.Amount `json:"gross_pnl"`
	Fees     toolkit.Amount `json:"fees"`
	// NetPnL = GrossPnL - Fees.
	NetPnL toolkit.Amount `json:"net_pnl"`
	// Notional = entry × quantity.
	Notional toolkit.Amount `json:"notional"`
	// ReturnPct = 100 × NetPnL / Notional, 6 decimals half-even.
	ReturnPct toolkit.Amount `json:"return_pct"`
	// OneRDollars = |entry - stop| × quantity (null without a stop).
	OneRDollars *toolkit.Amount `json:"one_r_dollars"`
	// RMultiple = NetPnL / OneRDollars (fees included), 6 decimals
	// half-even; null without a stop.
	RMultiple *toolkit.Amount `json:"r_multiple"`
	// GrossRMultiple = GrossPnL / OneRDollars, 6 decimals half-even.
	GrossRMultiple *toolkit.Amount `json:"gross_r_multiple"`
	// Outcome is WIN, LOSS or BREAKEVEN by the sign of NetPnL.
	Outcome string `json:"outcome"`
}

// CalculatePnL computes a closed trade's profit and loss in exact decimal
// arithmetic. Prices must be positive, quantity at least 1, fees not
// negative; a stop must lie below the entry for a long and above it for a
// short. The R-multiple includes fees (net P&L over the initial risk);
// gross_r_multiple excludes them.
func CalculatePnL(in PnLInput) (*PnLResult, error) {
	dir := strings.ToLower(strings.TrimSpace(in.Direction))
	switch {
	case dir != DirectionLong && dir != DirectionShort:
		return nil, invalid("direction", "must be \"long\" or \"short\" (any letter case), got %q", in.Direction)
	case in.EntryPrice.Sign() <= 0:
		return nil, invalid("entry_price", "must be greater than 0")
	case in.ExitPrice.Sign() <= 0:
		return nil, invalid("exit_price", "must be greater than 0")
	case in.Quantity < 1:
		return nil, invalid("quantity", "must be at least 1")
	case in.Fees != nil && in.Fees.Sign() < 0:
		return nil, invalid("fees", "must not be negative")
	}
	qty := toolkit.AmountFromInt(in.Quantity)
	perUnit := in.ExitPrice.Sub(in.EntryPrice)
	if dir == DirectionShort {
		perUnit = perUnit.Neg()
	}
	var fees toolkit.Amount
	if in.Fees != nil {
		fees = *in.Fees
	}
	res := &PnLResult{
		Direction:  dir,
		PnLPerUnit: perUnit,
		GrossPnL:   perUnit.Mul(qty),
		Fees:       fees,
		Notional:   in.EntryPrice.Mul(qty),
	}
	res.NetPnL = res.GrossPnL.Sub(fees)
	var err error
	if res.ReturnPct, err = quoRound(res.NetPnL.Mul(toolkit.AmountFromInt(100)), res.Notional); err != nil {
		return nil, err
	}
	res.Outcome = outcomeOf(res.NetPnL.Sign())
	if in.StopPrice != nil {
		stop := *in.StopPrice
		switch {
		case stop.Sign() <= 0:
			return nil, invalid("stop_price", "must be greater than 0")
		case dir == DirectionLong && stop.Cmp(in.EntryPrice) >= 0:
			return nil, invalid("stop_price", "must be below entry_price for a long trade")
		case dir == DirectionShort && stop.Cmp(in.EntryPrice) <= 0:
			return nil, invalid("stop_price", "must be above entry_price for a short trade")
		}
		oneR := in.EntryPrice.Sub(stop).Abs().Mul(qty)
		r, err := quoRound(res.NetPnL, oneR)
		if err != nil {
			return nil, err
		}
		gr, err := quoRound(res.GrossPnL, oneR)
		if err != nil {
			return nil, err
		}
		res.OneRDollars, res.RMultiple, res.GrossRMultiple = &oneR, &r, &gr
	}
	money.Fields(&res.PnLPerUnit, &res.GrossPnL, &res.Fees, &res.NetPnL, &res.Notional)
	money.Optional(&res.OneRDollars)
	return res, nil
}

// quoRound returns a/b rounded half-even to RMultipleDecimals places; b
// is non-zero by construction. A result out of range (prices and quantity
// at the limits of the input range) is toolkit.Invalid naming the inputs.
func quoRound(a, b toolkit.Amount) (toolkit.Amount, error) {
	q, err := a.Quo(b)
	if err == nil {
		q, err = q.Round(RMultipleDecimals, toolkit.RoundHalfEven)
	}
	if err != nil {
		return toolkit.Amount{}, invalid("quantity", "entry_price, exit_price, stop_price and quantity give a result out of range; use smaller values")
	}
	return q.Trim(0), nil
}

// Trade outcomes.
const (
	OutcomeWin       = "WIN"
	OutcomeLoss      = "LOSS"
	OutcomeBreakeven = "BREAKEVEN"
)

// outcomeOf maps a P&L sign to WIN, LOSS or BREAKEVEN.
func outcomeOf(sign int) string {
	switch {
	case sign > 0:
		return OutcomeWin
	case sign < 0:
		return OutcomeLoss
	}
	return OutcomeBreakeven
}
