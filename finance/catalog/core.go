package catalog

import (
	"context"
	"encoding/json"

	"github.com/agentfinance/toolkit/finance"
	"github.com/google/jsonschema-go/jsonschema"
)

// Operations (price-table keys) of the core and compound tools.
const (
	OpPositionSizing      = "position_sizing"
	OpRiskCheck           = "risk_check"
	OpBasicEval           = "basic_eval"
	OpFullEval            = "full_eval"
	OpComprehensiveEval   = "comprehensive_eval"
	OpPreTradeGate        = "pre_trade_gate"
	OpAssessTradingSystem = "assess_trading_system"
)

// directionEnum lists the accepted spellings of a direction. The Go API
// accepts any letter case; the schema lists the usual three.
var directionEnum = []any{"long", "short", "LONG", "SHORT", "Long", "Short"}

// coreTools returns the finance core family: sizing, risk check,
// performance evaluation, pre-trade gate and system assessment.
func coreTools() []Tool {
	return []Tool{
		sizingTool(),
		riskTool(),
	}
}

func sizingTool() Tool {
	return NewTool(Spec{
		Name: "calculate_position_size",
		Description: "Fixed-fractional position size in exact decimal: shares = floor(equity × risk_percent / |entry_price − stop_price|), " +
			"with risk_amount, notional, one_r_dollars and risk_per_share.",
		Category:  "core",
		Operation: OpPositionSizing,
	}, func(_ context.Context, _ Call, in finance.SizingInput) (any, error) {
		return finance.CalculatePositionSize(in)
	}, func(s *jsonschema.Schema) {
		positive(s, "equity", "account equity in currency units, > 0")
		positive(s, "entry_price", "planned entry price, > 0")
		positive(s, "stop_price", "initial stop price, > 0; below entry for long, above for short")
		direction(s)
		riskPercent(s)
		describe(s, "instrument", "optional instrument name, echoed back")
	})
}

func riskTool() Tool {
	return NewTool(Spec{
		Name: "check_trade_risk",
		Description: "Risk check of a proposed trade against per-trade risk, the agent's position and daily-loss limits, " +
			"authorized instruments and stop placement: approved, score 0-100 (100 best), errors, warnings and every rule's deduction.",
		Category:  "core",
		Operation: OpRiskCheck,
	}, func(_ context.Context, call Call, in finance.RiskInput) (any, error) {
		return finance.CheckTradeRisk(in, call.Limits)
	}, func(s *jsonschema.Schema) {
		symbol(s)
		direction(s)
		positive(s, "entry_price", "planned entry price, > 0")
		positive(s, "stop_price", "initial stop price, > 0")
		nonNegative(s, "quantity", "shares or units, >= 0 (0 is a blocking error in the result)")
		positive(s, "equity", "current account equity, > 0")
		dailyPnL(s)
	})
}

// describe sets a property's description.
func describe(s *jsonschema.Schema, field, text string) {
	s.Properties[field].Description = text
}

func positive(s *jsonschema.Schema, field, text string) {
	zero := 0.0
	p := s.Properties[field]
	p.Description = text + "; decimal string or number"
	p.ExclusiveMinimum = &zero
}

func nonNegative(s *jsonschema.Schema, field, text string) {
	zero := 0.0
	p := s.Properties[field]
	p.Description = text + "; decimal string or number"
	p.Minimum = &zero
}

func direction(s *jsonschema.Schema) {
	p := s.Properties["direction"]
	p.Description = "long or short (letter case ignored)"
	p.Enum = directionEnum
}

func symbol(s *jsonschema.Schema) {
	one := 1
	p := s.Properties["symbol"]
	p.Description = "instrument symbol, checked case-insensitively against the agent's authorized_instruments"
	p.MinLength = &one
}

func riskPercent(s *jsonschema.Schema) {
	zero, one := 0.0, 1.0
	p := s.Properties["risk_percent"]
	p.Description = "fraction of equity risked per trade, in (0, 1]; 0.02 means 2 %"
	p.ExclusiveMinimum = &zero
	p.Maximum = &one
	p.Default = json.RawMessage(`"0.02"`)
}

func dailyPnL(s *jsonschema.Schema) {
	p := s.Properties["daily_pnl"]
	p.Description = "today's realised P&L (negative = loss); decimal string or number"
	p.Default = json.RawMessage(`"0"`)
}

func minItems(s *jsonschema.Schema, field string, n int) {
	s.Properties[field].MinItems = &n
}
