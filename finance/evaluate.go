package finance

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// Evaluation tiers.
const (
	TierBasic         = "basic"
	TierFull          = "full"
	TierComprehensive = "comprehensive"
)

// Edge verdicts of an R-multiple series.
const (
	VerdictPositiveEdge     = "POSITIVE_EDGE"
	VerdictNoEdge           = "NO_EDGE"
	VerdictNegativeEdge     = "NEGATIVE_EDGE"
	VerdictInsufficientData = "INSUFFICIENT_DATA"
)

// Verdict thresholds.
const (
	// MinTradesForVerdict: fewer trades give INSUFFICIENT_DATA.
	MinTradesForVerdict = 10
	// EdgeSQN is the |SQN| at which an edge is called: SQN = √N·mean/sd is
	// the t-statistic of mean R, so 1 means the mean lies one standard
	// error from zero.
	EdgeSQN = 1.0
	// ReliableTrades: below it the result carries a reliability warning.
	ReliableTrades = 30
)

// VerdictRule documents how the edge verdict is decided.
const VerdictRule = "INSUFFICIENT_DATA if trade_count < 10; otherwise POSITIVE_EDGE if sqn >= 1, NEGATIVE_EDGE if sqn <= -1, NO_EDGE in between " +
	"(sqn = sqrt(N)*mean/sample sd, the t-statistic of mean R); when every R is equal (sd = 0) the sign of mean R decides. " +
	"The published g (f = 1, risking all equity per 1R) does not decide the verdict."

// GDefinition documents the g field.
const GDefinition = "g = mean(R) - popvar(R)/2 (published G, population variance): second-order log growth per trade when risking 1 unit of equity per 1R"

// minEvalTrades is the minimum length of an evaluated series.
const minEvalTrades = 2

// EvaluationInput is the input of Evaluate and of the evaluate_performance
// tool.
type EvaluationInput struct {
	// RMultiples are the trade results in R, oldest first; at least 2.
	RMultiples toolkit.Floats `json:"r_multiples"`
	// Tier is basic (default), full or comprehensive.
	Tier string `json:"tier,omitempty"`
	// WindowSize is the rolling-G window of the full and comprehensive
	// tiers, 2..N; nil means min(10, N).
	WindowSize *int `json:"window_size,omitempty"`
}

// Evaluation is the result of Evaluate. The basic fields are always set;
// the full tier adds the rolling-G and system-score fields, the
// comprehensive tier adds Impact. Fields of higher tiers are omitted.
type Evaluation struct {
	Tier       string        `json:"tier"`
	TradeCount int           `json:"trade_count"`
	G          toolkit.Float `json:"g"`       // see GDefinition
	GScore     toolkit.Float `json:"g_score"` // same value as g (published name)
	// GDefinition states the formula of g.
	GDefinition string        `json:"g_definition"`
	ExpectedR   toolkit.Float `json:"expected_r"` // mean R
	Verdict     string        `json:"verdict"`
	VerdictRule string        `json:"verdict_rule"`
	WinRate     toolkit.Float `json:"win_rate"`   // #(R > 0)/N; breakevens count in N only
	Expectancy  toolkit.Float `json:"expectancy"` // mean R (= expected_r)
	// SQN is √N·mean/sd (sample sd); SQNCapped caps N at 100. Both are
	// null when every R is equal (sd = 0).
	SQN       *toolkit.Float `json:"sqn"`
	SQNCapped *toolkit.Float `json:"sqn_capped"`
	// LogGrowth is the Kelly view g(f) = mean ln(1 + f·R).
	LogGrowth LogGrowth `json:"log_growth"`
	Warnings  []string  `json:"warnings"`

	// Full tier.
	WindowSize    int                      `json:"window_size,omitempty"`
	RollingG      toolkit.Floats           `json:"rolling_g,omitempty"`       // G per window, oldest first
	RollingGTrend string                   `json:"rolling_g_trend,omitempty"` // IMPROVING | STABLE | DECLINING
	Rolling       *performance.RollingG    `json:"rolling,omitempty"`         // the full rolling-G analysis
	SystemRScore  *performance.SystemScore `json:"system_r_score,omitempty"`  // 0–100 with grade and components

	// Comprehensive tier.
	Impact *Impact `json:"impact,omitempty"`
}

// LogGrowth is the log-growth view of a series: g(f) = mean ln(1 + f·R),
// the expected log growth of equity per trade when risking the fraction f
// of equity per 1R.
type LogGrowth struct {
	Definition string `json:"definition"`
	// OptimalF is the Kelly fraction f* = argmax g(f); null when mean R <= 0
	// (no positive optimum: do not trade) or when there is no losing trade
	// (g grows without bound); Note says which, in the words of every tool
	// (performance.NoKellyReason).
	OptimalF        *toolkit.Float `json:"optimal_f"`
	GAtOptimalF     *toolkit.Float `json:"g_at_optimal_f"`
	HalfOptimalF    *toolkit.Float `json:"half_optimal_f"`
	GAtHalfOptimalF *toolkit.Float `json:"g_at_half_optimal_f"`
	// RuinBound is 1/|min R|: risking this fraction lets the worst trade
	// wipe out the account. Null without losing trades.
	RuinBound *toolkit.Float `json:"ruin_bound"`
	// Curve gives g(f) at the fixed fractions 0.005, 0.01, 0.02 and 0.05;
	// g is null at or past the ruin bound.
	Curve []GrowthPoint `json:"curve"`
	Note  string        `json:"note,omitempty"`
}

// GrowthPoint is g(f) at one risk fraction f.
type GrowthPoint struct {
	F toolkit.Float  `json:"f"`
	G *toolkit.Float `json:"g"`
}

// growthCurveFractions are the fractions of LogGrowth.Curve.
var growthCurveFractions = [...]float64{0.005, 0.01, 0.02, 0.05}

// Evaluate runs the evaluation of in.Tier ("" means basic); see
// EvaluateBasic, EvaluateFull and EvaluateComprehensive.
func Evaluate(in EvaluationInput) (Evaluation, error) {
	switch in.Tier {
	case "", TierBasic:
		return EvaluateBasic(in.RMultiples)
	case TierFull:
		return EvaluateFull(in.RMultiples, in.WindowSize)
	case TierComprehensive:
		return EvaluateComprehensive(in.RMultiples, in.WindowSize)
	}
	return Evaluation{}, invalid("tier", "must be basic, full or comprehensive, got %q", in.Tier)
}

// EvaluateBasic computes the basic tier for r (at least 2 finite values):
// g (= g_score), expected_r, the edge verdict (VerdictRule), win rate,
// expectancy, SQN and the log-growth view.
func EvaluateBasic(r []float64) (Evaluation, error) {
	if err := performance.ValidateSeries("r_multiples", r, minEvalTrades); err != nil {
		return Evaluation{}, err
	}
	n := len(r)
	mean := performance.Mean(r)
	g := performance.G(r)
	out := Evaluation{
		Tier: TierBasic, TradeCount: n,
		G: toolkit.Float(g), GScore: toolkit.Float(g), GDefinition: GDefinition,
		ExpectedR: toolkit.Float(mean), Expectancy: toolkit.Float(mean),
		WinRate:     toolkit.Float(performance.WinRate(r)),
		VerdictRule: VerdictRule,
		LogGrowth:   logGrowth(r),
		Warnings:    []string{},
	}
	raw, capped, ok := performance.SQN(r)
	if ok {
		out.SQN, out.SQNCapped = floatPtr(raw), floatPtr(capped)
	}
	out.Verdict = edgeVerdict(n, mean, raw, ok)
	if n < ReliableTrades {
		out.Warnings = append(out.Warnings, "fewer than 30 trades: sqn, the verdict and optimal_f are unreliable")
	}
	return out, nil
}

// edgeVerdict applies VerdictRule.
func edgeVerdict(n int, mean, sqn float64, sqnOK bool) string {
	switch {
	case n < MinTradesForVerdict:
		return VerdictInsufficientData
	case !sqnOK: // every R equal
		if mean > 0 {
			return VerdictPositiveEdge
		} else if mean < 0 {
			return VerdictNegativeEdge
		}
		return VerdictNoEdge
	case sqn >= EdgeSQN:
		return VerdictPositiveEdge
	case sqn <= -EdgeSQN:
		return VerdictNegativeEdge
	}
	return VerdictNoEdge
}

// logGrowth builds the LogGrowth view from the performance package's
// Kelly optimum and log-growth function.
func logGrowth(r []float64) LogGrowth {
	lg := LogGrowth{Definition: "g(f) = mean(ln(1 + f*R)) per trade at risk fraction f of equity per 1R", Curve: make([]GrowthPoint, 0, len(growthCurveFractions))}
	minR := slicesMin(r)
	if minR < 0 {
		lg.RuinBound = floatPtr(1 / -minR)
	}
	for _, f := range growthCurveFractions {
		p := GrowthPoint{F: toolkit.Float(f)}
		if v, err := performance.LogGrowth(r, f); err == nil {
			p.G = floatPtr(v)
		}
		lg.Curve = append(lg.Curve, p)
	}
	if lg.Note = performance.NoKellyReason(r); lg.Note != "" {
		return lg
	}
	f, err := performance.OptimalF(r)
	if err != nil { // excluded by the checks above
		lg.Note = toolkit.MessageOf(err)
		return lg
	}
	lg.OptimalF, lg.HalfOptimalF = floatPtr(f), floatPtr(f/2)
	if v, err := performance.LogGrowth(r, f); err == nil {
		lg.GAtOptimalF = floatPtr(v)
	}
	if v, err := performance.LogGrowth(r, f/2); err == nil {
		lg.GAtHalfOptimalF = floatPtr(v)
	}
	return lg
}

// floatPtr returns v as a nullable output number.
func floatPtr(v float64) *toolkit.Float {
	f := toolkit.Float(v)
	return &f
}

// ref returns a pointer to v, for an optional input.
func ref[T any](v T) *T { return &v }
