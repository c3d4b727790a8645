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
		WithRequirements(NewTool(toolSpec(categoryDerivatives, "size_options_position",
			"Size an options position in whole contracts (floored, exact decimals): equity_risk, premium, "+
				"delta_adjusted or spread mode; risk_pct is a fraction (0.02 = 2 %)."),
			func(_ context.Context, _ Call, in derivatives.OptionsSizingInput) (*derivatives.OptionsSizing, error) {
				return derivatives.SizeOptions(in)
			}, tightenOptionsSizing), optionsRequirements),
		WithRequirements(NewTool(toolSpec(categoryDerivatives, "size_futures_position",
			"Size a futures position in whole contracts from tick value and a stop (tick_value), margin "+
				"(margin_based) or a notional cap (notional); every constraint whose inputs are given is enforced."),
			func(_ context.Context, _ Call, in derivatives.FuturesSizingInput) (*derivatives.FuturesSizing, error) {
				return derivatives.SizeFutures(in)
			}, tightenFuturesSizing), futuresRequirements),
		NewTool(toolSpec(categoryDerivatives, "analyze_greeks",
			"Black–Scholes–Merton price, delta, gamma, theta (per day), vega (per vol point) and rho "+
				"(per 1 %) for every option of a chain, with position totals; as_of is the valuation date."),
			func(ctx context.Context, _ Call, in derivatives.GreeksInput) (*derivatives.GreeksResult, error) {
				return derivatives.AnalyzeGreeks(ctx, in)
			}, tightenGreeks),
		NewTool(toolSpec(categoryDerivatives, "analyze_futures_curve",
			"Classify a futures curve as contango, backwardation or flat and measure annualised roll "+
				"yield per adjacent pair and front to back, the slope, and the basis to spot."),
			func(_ context.Context, _ Call, in derivatives.CurveInput) (*derivatives.CurveResult, error) {
				return derivatives.AnalyzeFuturesCurve(in)
			}, tightenCurve),
		WithRequirements(NewTool(toolSpec(categoryDerivatives, "calculate_margin",
			"Initial and maintenance margin of a book (rate of notional or per contract), free margin, "+
				"usage, leverage and the margin-call flag, in exact decimals."),
			func(_ context.Context, _ Call, in derivatives.MarginInput) (*derivatives.MarginResult, error) {
				return derivatives.CalculateMargin(in)
			}, tightenMargin), marginRequirements),
		WithRequirements(NewTool(toolSpec(categoryCompliance, "check_compliance",
			"Check a book or a proposed trade against position limits (and the agent's "+
				"max_position_size_pct), concentration (largest share, HHI) and restricted or unauthorized symbols."),
			func(_ context.Context, call Call, in derivatives.ComplianceInput) (*derivatives.ComplianceResult, error) {
				return derivatives.CheckCompliance(in, call.Limits)
			}, tightenCompliance), complianceRequirements),
	}
}

// dateProp documents a date property. The tool checks the date itself
// (a schema pattern would be reported as a malformed decimal by
// schemaMessage).
func dateProp(p *jsonschema.Schema, what string) {
	p.Format = "date"
	p.Description = what + ", a calendar date YYYY-MM-DD"
}
