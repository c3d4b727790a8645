package catalog

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/performance"
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
		evaluationTool(),
		gateTool(),
		assessTool(),
	}
}

func sizingTool() Tool {
	return NewTool(Spec{
		Name: "calculate_position_size",
		Description: "Fixed-fractional position size in exact decimal: shares = floor(equity × risk_percent / |entry_price − stop_price|), " +
			"with risk_amount, notional, one_r_dollars and risk_per_share.",
		Category:  "core",
		Operation: OpPositionSizing,
	}, func(_ context.Context, _ Call, in finance.SizingInput) (finance.Sizing, error) {
		return finance.CalculatePositionSize(in)
	}, func(s *jsonschema.Schema) {
		positiveDecimal(s, "equity", "account equity in currency units")
		positiveDecimal(s, "entry_price", "planned entry price")
		positiveDecimal(s, "stop_price", "initial stop price; below entry for long, above for short")
		direction(s)
		riskPercent(s)
		describe(s, "instrument", "optional instrument name, echoed back")
		examples(s, map[string]any{"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "instrument": "AAPL"})
	})
}

func riskTool() Tool {
	return NewTool(Spec{
		Name: "check_trade_risk",
		Description: "Risk check of a proposed trade against per-trade risk, the agent's position and daily-loss limits, " +
			"authorized instruments and stop placement: approved, score 0-100 (100 best), errors, warnings and every rule's deduction.",
		Category:  "core",
		Operation: OpRiskCheck,
	}, func(_ context.Context, call Call, in finance.RiskInput) (finance.RiskCheck, error) {
		return finance.CheckTradeRisk(in, call.Limits)
	}, func(s *jsonschema.Schema) {
		symbol(s)
		direction(s)
		positiveDecimal(s, "entry_price", "planned entry price")
		positiveDecimal(s, "stop_price", "initial stop price")
		nonNegativeDecimal(s, "quantity", "shares or units (0 is a blocking error in the result)")
		positiveDecimal(s, "equity", "current account equity")
		dailyPnL(s)
		examples(s, map[string]any{"equity": "100000", "entry_price": "185", "stop_price": "180", "symbol": "AAPL", "quantity": "50"})
	})
}

func gateTool() Tool {
	return NewTool(Spec{
		Name: "pre_trade_gate",
		Description: "Go/no-go before a trade: sizes it, runs the risk check on that size and, given recent r_multiples, " +
			"reports system health (informational). gate_passed = shares > 0 and risk approved.",
		Category:  "compound",
		Operation: OpPreTradeGate,
	}, func(_ context.Context, call Call, in finance.GateInput) (finance.Gate, error) {
		return finance.PreTradeGate(in, call.Limits)
	}, func(s *jsonschema.Schema) {
		symbol(s)
		direction(s)
		positiveDecimal(s, "entry_price", "planned entry price")
		positiveDecimal(s, "stop_price", "initial stop price; below entry for long, above for short")
		positiveDecimal(s, "equity", "account equity")
		dailyPnL(s)
		riskPercent(s)
		describe(s, "r_multiples", "optional recent R-multiples; adds system_health (never blocks the gate)")
		itemExample(s, "r_multiples", "1.5")
		examples(s, map[string]any{"equity": "100000", "entry_price": "185", "stop_price": "180", "symbol": "AAPL"})
	})
}

// EvaluationOperation returns the price-table operation of an
// evaluate_performance call of the given tier: basic_eval for "basic" or
// "" (the default tier), full_eval for "full", comprehensive_eval for
// "comprehensive". An unknown tier returns "" (the call fails validation
// and is not charged).
func EvaluationOperation(tier string) string {
	switch tier {
	case "", finance.TierBasic:
		return OpBasicEval
	case finance.TierFull:
		return OpFullEval
	case finance.TierComprehensive:
		return OpComprehensiveEval
	}
	return ""
}

// evaluationOperationOf is evaluate_performance's Tool.OperationFor: the
// price depends on the "tier" argument (see EvaluationOperation; arguments
// that are not a JSON object, or a tier that is not a string, give
// basic_eval — such calls fail validation and are not charged).
func evaluationOperationOf(arguments json.RawMessage) string {
	var args struct {
		Tier any `json:"tier"`
	}
	if json.Unmarshal(arguments, &args) != nil {
		return OpBasicEval
	}
	tier, _ := args.Tier.(string)
	if op := EvaluationOperation(tier); op != "" {
		return op
	}
	return OpBasicEval
}

const evaluationToolName = "evaluate_performance"

// WithTier returns the evaluate_performance arguments for a tier-specific
// REST shortcut (POST /v1/eval/{basic,full,comprehensive}): body with its
// "tier" set to tier. An empty body means {}. A body that is not a JSON
// object, or that names a different tier, is toolkit.Invalid.
func WithTier(body json.RawMessage, tier string) (json.RawMessage, error) {
	if EvaluationOperation(tier) == "" || tier == "" {
		return nil, toolkit.Errorf(toolkit.Invalid, "tier: must be basic, full or comprehensive, got %q", tier)
	}
	args := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if err := json.Unmarshal(trimmed, &args); err != nil || args == nil {
			return nil, toolkit.Errorf(toolkit.Invalid, "arguments must be a JSON object")
		}
	}
	want, _ := json.Marshal(tier)
	if given, ok := args["tier"]; ok && !bytes.Equal(bytes.TrimSpace(given), want) {
		return nil, toolkit.Errorf(toolkit.Invalid, "tier: this endpoint evaluates tier %s, got %s", tier, given)
	}
	args["tier"] = want
	return json.Marshal(args)
}

func evaluationTool() Tool {
	t := NewTool(Spec{
		Name: evaluationToolName,
		Description: "G-metric evaluation of R-multiples. basic: g (mean R - population variance/2), edge verdict, win rate, expectancy, SQN, " +
			"log growth g(f) with the Kelly optimum; full adds rolling_g with its trend and the 0-100 System R Score; " +
			"comprehensive adds the impact analysis (variance killers, what-if levers). Priced per tier.",
		Category:  "core",
		Operation: OpBasicEval, // per call: OperationFor / EvaluationOperation(tier)
	}, func(_ context.Context, _ Call, in finance.EvaluationInput) (finance.Evaluation, error) {
		return finance.Evaluate(in)
	}, func(s *jsonschema.Schema) {
		rMultiples(s, 2, "trade results in R, oldest first")
		describe(s, "tier", "basic (default), full or comprehensive")
		prop(s, "tier").Enum = []any{finance.TierBasic, finance.TierFull, finance.TierComprehensive}
		setDefault(prop(s, "tier"), finance.TierBasic)
		describe(s, "window_size", "rolling-G window for the full and comprehensive tiers, 2..N; default min(10, N)")
		setDefault(intAtLeast(s, "window_size", 2), 10)
	})
	t.OperationFor = evaluationOperationOf
	return t
}

func assessTool() Tool {
	return NewTool(Spec{
		Name: "assess_trading_system",
		Description: "Full system assessment from R-multiples: verdict STRONG/VIABLE/MARGINAL/FAILING_SYSTEM with reasons, " +
			"g_metrics, win_loss, kelly, seeded monte_carlo, drawdown, what_if and variance_killers.",
		Category:  "compound",
		Operation: OpAssessTradingSystem,
	}, func(ctx context.Context, _ Call, in finance.AssessInput) (finance.Assessment, error) {
		return finance.AssessSystem(ctx, in)
	}, func(s *jsonschema.Schema) {
		rMultiples(s, finance.MinAssessTrades, "trade results in R, oldest first")
		positiveDecimal(s, "starting_equity", "account size for the Monte Carlo and the drawdown curve")
		setDefault(prop(s, "starting_equity"), "100000")
		describe(s, "pnl_values", "optional absolute P&L per trade, parallel to r_multiples (same length)")
		describe(s, "seed", "Monte Carlo seed (0..2^53-1), echoed in the result; default: derived from the canonical arguments")
		intRange(s, "seed", 0, performance.MaxSeed)
		itemExample(s, "pnl_values", "250")
		example(prop(s, "seed"), 7)
	})
}

// rMultiples documents r_multiples and sets its minItems.
func rMultiples(s *jsonschema.Schema, min int, text string) {
	describe(s, "r_multiples", text)
	minItems(s, "r_multiples", min)
	example(prop(s, "r_multiples"), sampleRValues(min))
}

// direction documents direction and restricts it to long or short.
func direction(s *jsonschema.Schema) {
	describe(s, "direction", "long or short (letter case ignored)")
	prop(s, "direction").Enum = directionEnum
}

// symbol documents symbol and requires it non-empty.
func symbol(s *jsonschema.Schema) {
	describe(s, "symbol", "instrument symbol, checked case-insensitively against the agent's authorized_instruments")
	nonEmpty(s, "symbol")
}

// riskPercent documents risk_percent: a fraction in (0, 1], default 0.02.
func riskPercent(s *jsonschema.Schema) {
	describe(s, "risk_percent", "fraction of equity risked per trade, in (0, 1]; 0.02 means 2 %")
	fractions(s, "risk_percent")
	setDefault(prop(s, "risk_percent"), "0.02")
}

// dailyPnL documents daily_pnl (default 0).
func dailyPnL(s *jsonschema.Schema) {
	describe(s, "daily_pnl", "today's realised P&L (negative = loss)")
	setDefault(prop(s, "daily_pnl"), "0")
}
