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

// listPrice is the Prices of a tool billed as one operation: its list
// price in USD, written as the price table publishes it ("0.10" stays
// "0.10").
func listPrice(operation, usd string) map[string]toolkit.Amount {
	return map[string]toolkit.Amount{operation: toolkit.MustParseAmount(usd)}
}

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
		Name:        "calculate_position_size",
		Title:       "Position Size (Fixed Fractional)",
		Description: "Fixed-fractional position size in exact decimal: shares = floor(equity × risk_percent / |entry_price − stop_price|).",
		Category:    "core",
		Operation:   OpPositionSizing,
		Prices:      listPrice(OpPositionSizing, "0.003"),
		Shortcuts: []Shortcut{{Path: "/v1/sizing/calculate", OperationID: "calculatePositionSize",
			Summary: "Position size (tool calculate_position_size)"}},
		Docs: toolDocs("calculate_position_size"),
	}, func(_ context.Context, _ Call, in finance.SizingInput) (finance.Sizing, error) {
		return finance.CalculatePositionSize(in)
	}, func(s *jsonschema.Schema) {
		positiveDecimal(s, "equity", "account equity, currency")
		entryAndStop(s)
		direction(s)
		riskPercent(s)
		describe(s, "instrument", "instrument name, echoed back")
		examples(s, map[string]any{"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "instrument": "AAPL"})
	})
}

func riskTool() Tool {
	return NewTool(Spec{
		Name:        "check_trade_risk",
		Title:       "Trade Risk Check",
		Description: "Risk check of a proposed trade against per-trade risk, the agent's limits and the stop: approval, 0-100 score, findings.",
		Category:    "core",
		Operation:   OpRiskCheck,
		Prices:      listPrice(OpRiskCheck, "0.004"),
		Shortcuts: []Shortcut{{Path: "/v1/risk/check", OperationID: "checkTradeRisk",
			Summary: "Trade risk check (tool check_trade_risk)"}},
		Docs: toolDocs("check_trade_risk"),
	}, func(_ context.Context, call Call, in finance.RiskInput) (finance.RiskCheck, error) {
		return finance.CheckTradeRisk(in, call.Limits)
	}, func(s *jsonschema.Schema) {
		symbol(s)
		direction(s)
		entryAndStop(s)
		nonNegativeDecimal(s, "quantity", "shares or units (0 is a blocking error)")
		positiveDecimal(s, "equity", "current account equity, currency")
		dailyPnL(s)
		examples(s, map[string]any{"equity": "100000", "entry_price": "185", "stop_price": "180", "symbol": "AAPL", "quantity": "50"})
	})
}

func gateTool() Tool {
	return NewTool(Spec{
		Name:        "pre_trade_gate",
		Title:       "Pre-Trade Gate",
		Description: "Go/no-go before a trade: sizes it, risk-checks that size and, given r_multiples, reports system health.",
		Category:    "compound",
		Operation:   OpPreTradeGate,
		Prices:      listPrice(OpPreTradeGate, "0.01"),
		Shortcuts: []Shortcut{{Path: "/v1/compound/pre-trade-gate", OperationID: "preTradeGate",
			Summary: "Sizing, risk and health in one call (tool pre_trade_gate)"}},
		Docs: toolDocs("pre_trade_gate"),
	}, func(_ context.Context, call Call, in finance.GateInput) (finance.Gate, error) {
		return finance.PreTradeGate(in, call.Limits)
	}, func(s *jsonschema.Schema) {
		symbol(s)
		direction(s)
		entryAndStop(s)
		positiveDecimal(s, "equity", "account equity, currency")
		dailyPnL(s)
		riskPercent(s)
		describe(s, "r_multiples", "recent trade results in R; adds system_health")
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
		Name:  evaluationToolName,
		Title: "Performance Evaluation (G-Metric)",
		Description: "G-metric evaluation of R-multiples (g = mean R − variance/2): edge verdict, expectancy, SQN, Kelly; " +
			"higher tiers add rolling G, score, levers.",
		Category:  "core",
		Operation: OpBasicEval, // per call: OperationFor / EvaluationOperation(tier)
		Prices: map[string]toolkit.Amount{OpBasicEval: toolkit.MustParseAmount("0.10"),
			OpFullEval: toolkit.MustParseAmount("0.50"), OpComprehensiveEval: toolkit.MustParseAmount("1.00")},
		Shortcuts: []Shortcut{
			{Path: "/v1/eval/basic", OperationID: "evaluateBasic", Tier: finance.TierBasic,
				Summary: "G-metric evaluation, basic tier (tool evaluate_performance)"},
			{Path: "/v1/eval/full", OperationID: "evaluateFull", Tier: finance.TierFull,
				Summary: "Evaluation with rolling G and system score (tool evaluate_performance)"},
			{Path: "/v1/eval/comprehensive", OperationID: "evaluateComprehensive", Tier: finance.TierComprehensive,
				Summary: "Evaluation with impact analysis (tool evaluate_performance)"},
		},
		Docs: toolDocs(evaluationToolName),
	}, func(_ context.Context, _ Call, in finance.EvaluationInput) (finance.Evaluation, error) {
		return finance.Evaluate(in)
	}, func(s *jsonschema.Schema) {
		rMultiples(s, 2, "R-multiples, oldest first")
		describe(s, "tier", "evaluation depth, priced per tier")
		prop(s, "tier").Enum = []any{finance.TierBasic, finance.TierFull, finance.TierComprehensive}
		setDefault(prop(s, "tier"), finance.TierBasic)
		describe(s, "window_size", "rolling-G window in trades, at most N; default min(10, N)")
		example(intAtLeast(s, "window_size", 2), 5)
	})
	t.OperationFor = evaluationOperationOf
	return t
}

func assessTool() Tool {
	return NewTool(Spec{
		Name:        "assess_trading_system",
		Title:       "Trading System Assessment",
		Description: "System verdict from R-multiples (STRONG/VIABLE/MARGINAL/FAILING_SYSTEM) with reasons, G, Kelly, Monte Carlo, drawdown, what-if.",
		Category:    "compound",
		Operation:   OpAssessTradingSystem,
		Prices:      listPrice(OpAssessTradingSystem, "2.00"),
		Shortcuts: []Shortcut{{Path: "/v1/compound/assess-system", OperationID: "assessTradingSystem",
			Summary: "Full system assessment (tool assess_trading_system)"}},
		Docs: toolDocs("assess_trading_system"),
	}, func(ctx context.Context, _ Call, in finance.AssessInput) (finance.Assessment, error) {
		return finance.AssessSystem(ctx, in)
	}, func(s *jsonschema.Schema) {
		rMultiples(s, finance.MinAssessTrades, "R-multiples, oldest first")
		positiveDecimal(s, "starting_equity", "starting equity, currency")
		setDefault(prop(s, "starting_equity"), "100000")
		describe(s, "pnl_values", "P&L of each trade, in currency")
		describe(s, "seed", "Monte Carlo seed, echoed; default derived from the arguments")
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
	describe(s, "direction", "trade side, any letter case")
	prop(s, "direction").Enum = directionEnum
}

// symbol documents symbol and requires it non-empty.
func symbol(s *jsonschema.Schema) {
	describe(s, "symbol", "symbol, matched to authorized_instruments")
	nonEmpty(s, "symbol")
}

// riskPercent documents risk_percent: a fraction in (0, 1], default 0.02.
func riskPercent(s *jsonschema.Schema) {
	describe(s, "risk_percent", "equity fraction risked per trade")
	fractions(s, "risk_percent")
	setDefault(prop(s, "risk_percent"), "0.02")
}

// entryAndStop documents the planned entry price and the initial stop.
func entryAndStop(s *jsonschema.Schema) {
	positiveDecimal(s, "entry_price", "planned entry price, currency")
	positiveDecimal(s, "stop_price", "initial stop, currency, on the losing side of entry")
}

// dailyPnL documents daily_pnl (default 0).
func dailyPnL(s *jsonschema.Schema) {
	describe(s, "daily_pnl", "today's realised P&L, currency (loss < 0)")
	setDefault(prop(s, "daily_pnl"), "0")
}
