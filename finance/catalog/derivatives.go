package catalog

import (
	"context"

	"github.com/agentfinance/toolkit/finance/derivatives"
	"github.com/google/jsonschema-go/jsonschema"
)

// The categories of the derivatives family.
const (
	categoryDerivatives = "derivatives"
	categoryCompliance  = "compliance"
)

// derivativesTools returns the options, futures, margin and compliance
// tools (package finance/derivatives). Each tool's operation (price key) is
// its name; the price table decides what it costs (unlisted = free).
func derivativesTools() []Tool {
	return []Tool{
		NewTool(toolSpec(categoryDerivatives, "size_options_position", "Options Position Size",
			"Size an options position in whole contracts (floored, exact decimals) by equity risk, premium, delta or spread.").
			WithAliases("calculate_options_size").
			WithExample(map[string]any{"mode": "equity_risk", "equity": "100000", "risk_pct": "0.02", "entry_premium": "5.35"}),
			func(_ context.Context, _ Call, in derivatives.OptionsSizingInput) (*derivatives.OptionsSizing, error) {
				return derivatives.SizeOptions(in)
			}, tightenOptionsSizing),
		NewTool(toolSpec(categoryDerivatives, "size_futures_position", "Futures Position Size",
			"Size a futures position in whole contracts by risk to a stop, margin or a notional cap; every constraint given applies.").
			WithAliases("calculate_futures_size").
			WithExample(map[string]any{"mode": "margin_based", "available_margin": "100000", "initial_margin_per_contract": "12000"}),
			func(_ context.Context, _ Call, in derivatives.FuturesSizingInput) (*derivatives.FuturesSizing, error) {
				return derivatives.SizeFutures(in)
			}, tightenFuturesSizing),
		NewTool(toolSpec(categoryDerivatives, "analyze_greeks", "Option Greeks (Black-Scholes-Merton)",
			"Black–Scholes–Merton price and greeks (theta per day, vega per vol point, rho per 1 %) of an option chain, with totals."),
			func(ctx context.Context, _ Call, in derivatives.GreeksInput) (*derivatives.GreeksResult, error) {
				return derivatives.AnalyzeGreeks(ctx, in)
			}, tightenGreeks),
		NewTool(toolSpec(categoryDerivatives, "analyze_futures_curve", "Futures Curve (Contango, Backwardation)",
			"Futures curve shape (contango, backwardation, flat), annualised roll yields, slope and basis to spot."),
			func(_ context.Context, _ Call, in derivatives.CurveInput) (*derivatives.CurveResult, error) {
				return derivatives.AnalyzeFuturesCurve(in)
			}, tightenCurve),
		NewTool(toolSpec(categoryDerivatives, "calculate_margin", "Margin Requirements",
			"Initial and maintenance margin of a book, free margin, usage, leverage and the margin-call flag, in exact decimals.").
			WithExample(map[string]any{"account_equity": "30000",
				"positions": []any{map[string]any{"symbol": "ESH5", "quantity": "-2", "price": "5000", "margin_rate": "0.05"}}}),
			func(_ context.Context, _ Call, in derivatives.MarginInput) (*derivatives.MarginResult, error) {
				return derivatives.CalculateMargin(in)
			}, tightenMargin),
		NewTool(toolSpec(categoryCompliance, "check_compliance", "Position Limits and Concentration",
			"Check a book or a proposed trade against position limits, concentration (largest share, HHI) and restricted symbols.").
			WithExample(map[string]any{"equity": "100000",
				"positions": []any{map[string]any{"symbol": "AAPL", "quantity": "100", "price": "185.50"}}}),
			func(_ context.Context, call Call, in derivatives.ComplianceInput) (*derivatives.ComplianceResult, error) {
				return derivatives.CheckCompliance(in, call.Limits)
			}, tightenCompliance),
	}
}

// dateProp documents a date property. The tool checks the date itself
// (a schema pattern would be reported as a malformed decimal by
// schemaMessage).
func dateProp(p *jsonschema.Schema, what string) {
	p.Format = "date"
	p.Description = what + ", YYYY-MM-DD"
}
