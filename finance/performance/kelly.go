package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// DefaultRuinDrawdown is the drawdown (fraction of starting equity lost)
// that counts as ruin in the Kelly risk-of-ruin figure.
const DefaultRuinDrawdown = 0.5

// KellyOptions tunes CalculateKelly. A nil option takes its default.
type KellyOptions struct {
	// RiskPerTrade is the caller's fraction of equity risked per 1R, at
	// which risk_of_ruin is evaluated (default 0.01).
	RiskPerTrade *float64
	// RuinDrawdown is the loss from the starting equity that counts as
	// ruin, as a fraction in (0, 1) (default 0.5: losing half).
	RuinDrawdown *float64
}

// Kelly is the result of CalculateKelly. Fractions are of equity risked per
// 1R (0.1 = risk 10 % of equity on a trade whose stop loses 1R).
//
// When no positive, finite Kelly fraction exists (mean R <= 0, or no
// losing trade) every Kelly figure is null and Note says why
// (NoKellyReason): the same answer as evaluate_performance and
// assess_trading_system give.
type Kelly struct {
	// FullKelly is f*, the numeric argmax of mean ln(1 + f·R) over
	// 0 < f < 1/|min R|.
	FullKelly *toolkit.Float `json:"full_kelly"`
	// KellyFraction repeats full_kelly (the name the assess-system reads).
	KellyFraction *toolkit.Float `json:"kelly_fraction"`
	HalfKelly     *toolkit.Float `json:"half_kelly"`    // f*/2, recommended
	QuarterKelly  *toolkit.Float `json:"quarter_kelly"` // f*/4, conservative
	// BinaryKelly is the closed form p/|avgLoss| − q/avgWin with p and q the
	// win and loss shares among non-breakeven trades; with avgLoss = −1 it
	// is the textbook (b·p − q)/b. It equals full_kelly when R takes only
	// two values, and is null when it is not positive.
	BinaryKelly *toolkit.Float `json:"binary_kelly"`
	// ContinuousKelly is μ/σ² (population variance), the second-order
	// approximation of f*.
	ContinuousKelly *toolkit.Float `json:"continuous_kelly"`
	// RuinBound is 1/|min R|: risking this much per 1R lets the worst
	// trade wipe out the account; null without a losing trade.
	RuinBound *toolkit.Float `json:"ruin_bound"`
	// Growth figures: mean ln(1 + f·R) per trade at f*, f*/2 and f*/4.
	GrowthFullKelly    *toolkit.Float `json:"growth_full_kelly"`
	GrowthHalfKelly    *toolkit.Float `json:"growth_half_kelly"`
	GrowthQuarterKelly *toolkit.Float `json:"growth_quarter_kelly"`
	// RiskPerTrade echoes the fraction at which risk_of_ruin is evaluated.
	RiskPerTrade toolkit.Float `json:"risk_per_trade"`
	// GrowthAtRisk is mean ln(1 + f·R) at risk_per_trade.
	GrowthAtRisk toolkit.Float `json:"growth_at_risk"`
	// RuinDrawdown echoes the loss counted as ruin (fraction of start).
	RuinDrawdown toolkit.Float `json:"ruin_drawdown"`
	// RiskOfRuin is the probability that equity ever falls to
	// (1 − ruin_drawdown) of its start when risking risk_per_trade per 1R,
	// by the diffusion formula x^(2g/s²) (see RiskOfRuin).
	RiskOfRuin toolkit.Float `json:"risk_of_ruin"`
	// RiskOfRuinKelly gives the same probability at f*, f*/2 and f*/4.
	RiskOfRuinKelly *KellyRuin `json:"risk_of_ruin_kelly"`
	// Note says why the Kelly figures are null; absent when they are set.
	Note string `json:"note,omitempty"`
	// Method documents the estimator.
	Method string `json:"method"`
}

// KellyRuin holds risk-of-ruin probabilities at the Kelly fractions.
type KellyRuin struct {
	Full    toolkit.Float `json:"full"`
	Half    toolkit.Float `json:"half"`
	Quarter toolkit.Float `json:"quarter"`
}

// KellyMethod describes how CalculateKelly works.
const KellyMethod = "full_kelly = argmax of mean ln(1+f*R) over 0<f<1/|min R| (safeguarded Newton on the derivative, bracketed by bisection); i.i.d. trades assumed; the sample optimum is biased upward, so trade a fraction of it"

// The reasons NoKellyReason gives.
const (
	NoEdgeKellyNote = "mean R <= 0: no risk fraction grows equity, so there is no Kelly fraction (null); do not trade this system"
	NoLossKellyNote = "no losing trade (R < 0): log growth rises without bound, so the Kelly fraction is undefined (null)"
)

// NoKellyReason returns why r has no positive, finite Kelly fraction
// (NoEdgeKellyNote when mean R <= 0, NoLossKellyNote without a losing
// trade), or "" when it has one. Every tool answers these cases the same
// way: a 200 whose Kelly figures are null, with this reason as its note.
func NoKellyReason(r []float64) string {
	switch {
	case Mean(r) <= 0:
		return NoEdgeKellyNote
	case slicesMin(r) >= 0:
		return NoLossKellyNote
	}
	return ""
}

// CalculateKelly computes the Kelly fractions of r (at least 2 trades).
//
// When no positive optimum exists — mean R <= 0 (growth falls from f = 0
// on) or no losing trade (growth rises without bound; Kelly would stake
// everything) — it is not an error: the Kelly figures are null and Note
// says why (NoKellyReason); risk_of_ruin and growth_at_risk at
// risk_per_trade are still given. It fails (Invalid) on bad input and when
// opt.RiskPerTrade >= 1/|min R|.
func CalculateKelly(r []float64, opt KellyOptions) (Kelly, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return Kelly{}, err
	}
	risk := orDefault(opt.RiskPerTrade, DefaultRiskPerTrade)
	if err := validateRiskFraction("risk_per_trade", risk); err != nil {
		return Kelly{}, err
	}
	ruinDD := orDefault(opt.RuinDrawdown, DefaultRuinDrawdown)
	if err := validateRiskFraction("ruin_drawdown", ruinDD); err != nil {
		return Kelly{}, err
	}
	out := Kelly{RiskPerTrade: toolkit.Float(risk), RuinDrawdown: toolkit.Float(ruinDD), Method: KellyMethod}
	if minR := slicesMin(r); minR < 0 {
		bound := 1 / -minR
		if risk >= bound {
			return Kelly{}, invalid("risk_per_trade", "must be below the ruin bound 1/|min R| = %v", bound)
		}
		out.RuinBound = ptr(bound)
	}
	if bk := binaryKelly(r); bk > 0 {
		out.BinaryKelly = ptr(bk)
	}
	level := 1 - ruinDD
	if out.Note = NoKellyReason(r); out.Note != "" {
		g, ruin := growthAndRuin(r, [4]float64{risk, risk, risk, risk}, level)
		out.GrowthAtRisk, out.RiskOfRuin = toolkit.Float(g[0]), toolkit.Float(ruin[0])
		return out, nil
	}
	f, err := OptimalF(r)
	if err != nil {
		return Kelly{}, err
	}
	mean, m2 := meanM2(r)
	out.FullKelly, out.KellyFraction = ptr(f), ptr(f)
	out.HalfKelly, out.QuarterKelly = ptr(f/2), ptr(f/4)
	out.ContinuousKelly = ptr(mean / (m2 / float64(len(r))))
	g, ruin := growthAndRuin(r, [4]float64{f, f / 2, f / 4, risk}, level)
	out.GrowthFullKelly, out.GrowthHalfKelly, out.GrowthQuarterKelly = ptr(g[0]), ptr(g[1]), ptr(g[2])
	out.GrowthAtRisk, out.RiskOfRuin = toolkit.Float(g[3]), toolkit.Float(ruin[3])
	out.RiskOfRuinKelly = &KellyRuin{Full: toolkit.Float(ruin[0]), Half: toolkit.Float(ruin[1]), Quarter: toolkit.Float(ruin[2])}
	return out, nil
}

// OptimalF returns f*, the argmax of g(f) = mean ln(1 + f·R) over
// 0 < f < 1/|min R|. g is strictly concave there, g'(0) = mean R and
// g'(f) → −∞ at the bound, so f* is the unique root of g'. It is found by
// Newton steps safeguarded by a bisection bracket, to the last bits of
// float64. Errors (Invalid): fewer than 2 values, mean R <= 0, no R < 0.
func OptimalF(r []float64) (float64, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return 0, err
	}
	mean := Mean(r)
	if mean <= 0 {
		return 0, invalid("r_multiples", "no positive Kelly fraction exists: mean R is %v (must be > 0)", mean)
	}
	minR := slicesMin(r)
	if minR >= 0 {
		return 0, invalid("r_multiples", "no finite Kelly fraction exists: at least one losing trade (R < 0) is needed, otherwise log growth rises without bound")
	}
	lo, hi := 0.0, 1/-minR
	// second-order start μ/E[R²], pulled inside the bracket
	f := mean / meanSquare(r)
	if !(f > lo && f < hi) {
		f = hi / 2
	}
	for iter := 0; iter < 200; iter++ {
		d1, d2 := growthDerivatives(r, f)
		if d1 == 0 {
			return f, nil
		}
		if d1 > 0 {
			lo = f
		} else {
			hi = f
		}
		next := f - d1/d2
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-f) <= 1e-15*f || hi-lo <= 1e-15*hi {
			return next, nil
		}
		f = next
	}
	return f, nil
}

// LogGrowth returns mean ln(1 + f·R), the expected log growth per trade
// when risking the fraction f of equity per 1R. It fails (Invalid) when
// 1 + f·R <= 0 for some trade (f at or past the ruin bound 1/|min R|).
func LogGrowth(r []float64, f float64) (float64, error) {
	if err := ValidateSeries("r_multiples", r, 1); err != nil {
		return 0, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, invalid("risk_fraction", "must be a finite number >= 0, got %v", f)
	}
	if minR := slicesMin(r); minR < 0 && f >= 1/-minR {
		return 0, invalid("risk_fraction", "must be below the ruin bound 1/|min R| = %v, got %v", 1/-minR, f)
	}
	var s float64
	for _, x := range r {
		s += math.Log1p(f * x)
	}
	return s / float64(len(r)), nil
}

// RiskOfRuin returns the probability that equity ever falls to the
// fraction level (0 < level < 1) of its start, given per-trade log growth
// with mean g and variance s2: the Brownian-motion hitting probability
// level^(2g/s2) (1 when g <= 0, 0 when s2 = 0 and g > 0). Infinite
// horizon, i.i.d. trades, continuous-path approximation; at full Kelly it
// gives ≈ level (Thorp).
func RiskOfRuin(g, s2, level float64) float64 {
	switch {
	case g <= 0:
		return 1
	case s2 <= 0:
		return 0
	}
	return math.Pow(level, 2*g/s2)
}

// growthAndRuin returns mean ln(1+fR) and RiskOfRuin at level for four
// fractions in one pass (the logarithms dominate the cost of the tool).
func growthAndRuin(r []float64, f [4]float64, level float64) (g, ror [4]float64) {
	var s, ss [4]float64
	for _, x := range r {
		l0, l1, l2, l3 := math.Log1p(f[0]*x), math.Log1p(f[1]*x), math.Log1p(f[2]*x), math.Log1p(f[3]*x)
		s[0], s[1], s[2], s[3] = s[0]+l0, s[1]+l1, s[2]+l2, s[3]+l3
		ss[0], ss[1], ss[2], ss[3] = ss[0]+l0*l0, ss[1]+l1*l1, ss[2]+l2*l2, ss[3]+l3*l3
	}
	n := float64(len(r))
	for k := range 4 {
		g[k] = s[k] / n
		ror[k] = RiskOfRuin(g[k], max(ss[k]/n-g[k]*g[k], 0), level)
	}
	return g, ror
}

// growthDerivatives returns g'(f) and g”(f) of mean ln(1+fR).
func growthDerivatives(r []float64, f float64) (d1, d2 float64) {
	for _, x := range r {
		t := x / (1 + f*x)
		d1 += t
		d2 -= t * t
	}
	n := float64(len(r))
	return d1 / n, d2 / n
}

// binaryKelly returns p/|avgLoss| − q/avgWin over the non-breakeven
// trades (0 when there are no wins or no losses).
func binaryKelly(r []float64) float64 {
	var nw, nl int
	var sw, sl float64
	for _, x := range r {
		if x > 0 {
			nw++
			sw += x
		} else if x < 0 {
			nl++
			sl += x
		}
	}
	if nw == 0 || nl == 0 {
		return 0
	}
	p := float64(nw) / float64(nw+nl)
	q := float64(nl) / float64(nw+nl)
	return p/(-sl/float64(nl)) - q/(sw/float64(nw))
}

func meanSquare(r []float64) float64 {
	var s float64
	for _, x := range r {
		s += x * x
	}
	return s / float64(len(r))
}

func slicesMin(r []float64) float64 {
	m := r[0]
	for _, x := range r[1:] {
		if x < m {
			m = x
		}
	}
	return m
}
