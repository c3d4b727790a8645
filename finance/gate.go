package finance

import (
	"fmt"

	"github.com/agentfinance/toolkit"
)

// GateInput is the input of PreTradeGate and of the pre_trade_gate tool.
type GateInput struct {
	// Symbol is the instrument (checked against authorized_instruments).
	Symbol string `json:"symbol"`
	// Direction is "long" or "short", in any letter case.
	Direction string `json:"direction"`
	// EntryPrice, StopPrice and Equity are as in SizingInput; > 0.
	EntryPrice toolkit.Amount `json:"entry_price"`
	StopPrice  toolkit.Amount `json:"stop_price"`
	Equity     toolkit.Amount `json:"equity"`
	// DailyPnL is today's realised P&L; nil means 0.
	DailyPnL *toolkit.Amount `json:"daily_pnl,omitempty"`
	// RiskPercent is the sizing risk fraction; nil means 0.02.
	RiskPercent *toolkit.Amount `json:"risk_percent,omitempty"`
	// RMultiples are recent trade results; when non-empty the gate adds
	// SystemHealth (informational only).
	RMultiples toolkit.Floats `json:"r_multiples,omitempty"`
}

// Gate is the go/no-go answer of PreTradeGate.
type Gate struct {
	// GatePassed = sizing.shares > 0 and risk.approved. System health never
	// affects it.
	GatePassed bool `json:"gate_passed"`
	// Reasons lists why the gate failed (empty when it passed): the sizing
	// warning and the risk check's blocking errors.
	Reasons []string `json:"reasons"`
	// Sizing is the CalculatePositionSize result.
	Sizing Sizing `json:"sizing"`
	// Risk is the CheckTradeRisk result for sizing.shares as the quantity.
	Risk RiskCheck `json:"risk"`
	// SystemHealth summarises RMultiples; null when none were given.
	SystemHealth *SystemHealth `json:"system_health"`
}

// PreTradeGate sizes the trade (CalculatePositionSize), runs the risk
// check on that size (CheckTradeRisk with quantity = sizing.shares) and,
// when r_multiples are given, reports the system's health. The gate passes
// when shares > 0 and the risk check approves; health is informational and
// never blocks.
//
// Invalid input is reported as by the two underlying functions (a stop on
// the wrong side is Invalid here, because sizing rejects it), plus
// r_multiples with more than 100,000 items (TooLarge).
func PreTradeGate(in GateInput, limits AgentLimits) (Gate, error) {
	sizing, err := CalculatePositionSize(SizingInput{
		Equity:      in.Equity,
		EntryPrice:  in.EntryPrice,
		StopPrice:   in.StopPrice,
		Direction:   in.Direction,
		RiskPercent: in.RiskPercent,
		Instrument:  in.Symbol,
	})
	if err != nil {
		return Gate{}, err
	}
	risk, err := CheckTradeRisk(RiskInput{
		Symbol:     in.Symbol,
		Direction:  in.Direction,
		EntryPrice: in.EntryPrice,
		StopPrice:  in.StopPrice,
		Quantity:   toolkit.AmountFromInt(sizing.Shares),
		Equity:     in.Equity,
		DailyPnL:   in.DailyPnL,
	}, limits)
	if err != nil {
		return Gate{}, err
	}
	out := Gate{Sizing: sizing, Risk: risk, Reasons: []string{}}
	if sizing.Shares == 0 {
		out.Reasons = append(out.Reasons, sizing.Warnings...)
	}
	for _, e := range risk.Errors {
		out.Reasons = append(out.Reasons, fmt.Sprintf("risk check: %s", e))
	}
	out.GatePassed = sizing.Shares > 0 && risk.Approved
	if len(in.RMultiples) > 0 {
		h, err := Health(in.RMultiples)
		if err != nil {
			return Gate{}, err
		}
		out.SystemHealth = &h
	}
	return out, nil
}
