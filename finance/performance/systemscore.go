package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// ScoreComponent is one weighted part of the System R Score.
type ScoreComponent struct {
	Name     string         `json:"name"`
	Value    *toolkit.Float `json:"value"`    // the raw metric (null when undefined)
	Score    toolkit.Float  `json:"score"`    // 0–100
	Weight   toolkit.Float  `json:"weight"`   // weights sum to 1
	Weighted toolkit.Float  `json:"weighted"` // score × weight
	Rule     string         `json:"rule"`
}

// SystemScore is the result of CalculateSystemScore.
type SystemScore struct {
	// SystemRScore is Σ weight·score, 0–100, rounded to 2 decimals.
	SystemRScore toolkit.Float    `json:"system_r_score"`
	Grade        string           `json:"grade"` // A+ >= 90, A >= 80, B >= 70, C >= 60, D >= 50, F below
	Components   []ScoreComponent `json:"components"`
	TradeCount   int              `json:"trade_count"`
	Warnings     []string         `json:"warnings"`
}

// Grade returns the letter grade of a 0–100 score: A+ >= 90, A >= 80,
// B >= 70, C >= 60, D >= 50, F otherwise.
func Grade(score float64) string {
	switch {
	case score >= 90:
		return "A+"
	case score >= 80:
		return "A"
	case score >= 70:
		return "B"
	case score >= 60:
		return "C"
	case score >= 50:
		return "D"
	}
	return "F"
}

// CalculateSystemScore grades r (at least 2 trades) on five components,
// each scored 0–100 by linear interpolation and clamped:
//   - expectancy (weight 0.25): mean R; 0 at <= 0, 100 at >= 0.5;
//   - sqn (0.25): SQN with N capped at 100; 0 at <= 0, 100 at >= 3
//     (undefined SQN, all R equal: 100 if R > 0, else 0);
//   - profit_factor (0.20): 0 at <= 1, 100 at >= 2.5 (no losses: 100 if
//     there are wins, else 0);
//   - recovery_factor (0.15): total R / max drawdown of the additive R
//     curve (starting at 0, a peak); 0 at <= 0, 100 at >= 3 (no drawdown:
//     100 if total R > 0, else 0);
//   - sample_size (0.15): N; 0 at 0, 100 at >= 100.
//
// Fewer than 30 trades add a reliability warning.
func CalculateSystemScore(r []float64) (SystemScore, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return SystemScore{}, err
	}
	n := len(r)
	mean := Mean(r)
	lin := func(x, lo, hi float64) float64 { return math.Min(math.Max((x-lo)/(hi-lo), 0), 1) * 100 }
	var comps []ScoreComponent
	add := func(name string, value *toolkit.Float, score, weight float64, rule string) {
		comps = append(comps, ScoreComponent{Name: name, Value: value, Score: toolkit.Float(score), Weight: toolkit.Float(weight), Weighted: toolkit.Float(score * weight), Rule: rule})
	}
	add("expectancy", ptr(mean), lin(mean, 0, 0.5), 0.25, "mean R: 0 at <= 0, 100 at >= 0.5")

	_, sqn, ok := SQN(r)
	sqnScore := 0.0
	var sqnVal *toolkit.Float
	if ok {
		sqnVal, sqnScore = ptr(sqn), lin(sqn, 0, 3)
	} else if mean > 0 {
		sqnScore = 100
	}
	add("sqn", sqnVal, sqnScore, 0.25, "SQN with N capped at 100: 0 at <= 0, 100 at >= 3")

	var gross, loss, cum, peak, maxDD float64
	for _, x := range r {
		if x > 0 {
			gross += x
		} else {
			loss -= x
		}
		cum += x
		peak = max(peak, cum)
		maxDD = max(maxDD, peak-cum)
	}
	// ratio scores num/den linearly from lo to hi; without a denominator
	// the ratio is undefined (null) and scores 100 for a positive
	// numerator, 0 otherwise.
	ratio := func(num, den, lo, hi float64) (*toolkit.Float, float64) {
		switch {
		case den > 0:
			return ptr(num / den), lin(num/den, lo, hi)
		case num > 0:
			return nil, 100
		}
		return nil, 0
	}
	pfVal, pfScore := ratio(gross, loss, 1, 2.5)
	add("profit_factor", pfVal, pfScore, 0.20, "gross win R / gross loss R: 0 at <= 1, 100 at >= 2.5")
	rfVal, rfScore := ratio(cum, maxDD, 0, 3)
	add("recovery_factor", rfVal, rfScore, 0.15, "total R / max drawdown in R: 0 at <= 0, 100 at >= 3")
	add("sample_size", ptr(float64(n)), lin(float64(n), 0, 100), 0.15, "trade count: 0 at 0, 100 at >= 100")

	var total float64
	for _, c := range comps {
		total += float64(c.Weighted)
	}
	total = math.Round(total*100) / 100
	out := SystemScore{SystemRScore: toolkit.Float(total), Grade: Grade(total), Components: comps, TradeCount: n, Warnings: []string{}}
	if n < 30 {
		out.Warnings = append(out.Warnings, "fewer than 30 trades: the score is unreliable")
	}
	return out, nil
}
