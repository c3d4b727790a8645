package performance

import (
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
)

// What-if defaults.
const (
	// DefaultRemovePct sets the default remove_count: ceil(5 % of N),
	// clamped to 1..N−1.
	DefaultRemovePct = 0.05
	// DefaultLossCap is the loss cap in R of the cap_losses scenario.
	DefaultLossCap = 1.0
	// DefaultWinnerScale is the factor applied to winners in the
	// scale_winners scenario (0.9: exits capture 10 % less).
	DefaultWinnerScale = 0.9
	// DefaultSkipAfterLosses is the losing streak after which the next
	// trade is skipped.
	DefaultSkipAfterLosses = 3
)

// WhatIfOptions sets the scenario parameters. A nil option takes its
// default.
type WhatIfOptions struct {
	RemoveCount     *int     // trades removed by remove_worst / remove_best (1..N−1; default ceil(5 % of N))
	LossCap         *float64 // cap losses at −LossCap R (> 0; default 1)
	WinnerScale     *float64 // multiply every R > 0 by this (> 0; default 0.9)
	SkipAfterLosses *int     // skip the trade after this many consecutive losses (>= 1; default 3)
}

// WhatIfStats are the metrics of one scenario.
type WhatIfStats struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	TradeCount  int           `json:"trade_count"`
	G           toolkit.Float `json:"g"`          // published G = mean − popvar/2
	Expectancy  toolkit.Float `json:"expectancy"` // mean R
	WinRate     toolkit.Float `json:"win_rate"`   // R > 0 over all trades
	TotalR      toolkit.Float `json:"total_r"`
	GChange     toolkit.Float `json:"g_change"`          // G − baseline G
	ExpChange   toolkit.Float `json:"expectancy_change"` // expectancy − baseline expectancy
}

// WhatIf is the result of RunWhatIf.
type WhatIf struct {
	Baseline  WhatIfStats   `json:"baseline"`
	Scenarios []WhatIfStats `json:"scenarios"` // fixed order, see RunWhatIf
	// Parameters echoes the values used after defaults.
	Parameters WhatIfParameters `json:"parameters"`
	// BestScenario names the scenario with the highest G (first on ties).
	BestScenario string `json:"best_scenario"`
}

// WhatIfParameters are the scenario parameters actually used.
type WhatIfParameters struct {
	RemoveCount     int           `json:"remove_count"`
	LossCap         toolkit.Float `json:"loss_cap"`
	WinnerScale     toolkit.Float `json:"winner_scale"`
	SkipAfterLosses int           `json:"skip_after_losses"`
}

// RunWhatIf recomputes G and expectancy of r (at least 2 trades) under
// these scenarios, in this order:
//   - remove_worst: drop the remove_count lowest R;
//   - remove_best: drop the remove_count highest R;
//   - cap_losses: replace every R < −loss_cap by −loss_cap;
//   - scale_winners: multiply every R > 0 by winner_scale;
//   - skip_after_losses: walking the trades in order, after a losing
//     streak (StreakRule: R < 0, ended by a win or a breakeven) of
//     skip_after_losses trades that were taken, skip the next trade (drop
//     it) and restart the count.
func RunWhatIf(r []float64, opt WhatIfOptions) (WhatIf, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return WhatIf{}, err
	}
	n := len(r)
	rc := orDefault(opt.RemoveCount, min(max(int(math.Ceil(DefaultRemovePct*float64(n))), 1), n-1))
	if rc < 1 || rc > n-1 {
		return WhatIf{}, invalid("remove_count", "must be between 1 and %d (N−1), got %d", n-1, rc)
	}
	capR := orDefault(opt.LossCap, DefaultLossCap)
	if math.IsNaN(capR) || math.IsInf(capR, 0) || capR <= 0 {
		return WhatIf{}, invalid("loss_cap", "must be a finite number > 0, got %v", capR)
	}
	scale := orDefault(opt.WinnerScale, DefaultWinnerScale)
	if math.IsNaN(scale) || math.IsInf(scale, 0) || scale <= 0 {
		return WhatIf{}, invalid("winner_scale", "must be a finite number > 0, got %v", scale)
	}
	skip := orDefault(opt.SkipAfterLosses, DefaultSkipAfterLosses)
	if skip < 1 {
		return WhatIf{}, invalid("skip_after_losses", "must be at least 1, got %d", skip)
	}
	base := whatIfStats("baseline", "all trades as recorded", r, nil)
	worst := slices.Clone(r)
	selectKth(worst, rc) // worst[:rc] are the rc lowest
	best := make([]float64, n, 2*n)
	copy(best, r)
	selectKth(best, n-rc) // best[:n−rc] are all but the rc highest
	capped := best[n:n]
	for _, x := range r {
		capped = append(capped, max(x, -capR))
	}
	out := WhatIf{
		Baseline:   base,
		Parameters: WhatIfParameters{RemoveCount: rc, LossCap: toolkit.Float(capR), WinnerScale: toolkit.Float(scale), SkipAfterLosses: skip},
	}
	out.Scenarios = append(out.Scenarios,
		whatIfStats("remove_worst", "without the remove_count lowest R", worst[rc:], &base),
		whatIfStats("remove_best", "without the remove_count highest R", best[:n-rc], &base),
		whatIfStats("cap_losses", "every loss capped at -loss_cap R", capped, &base))
	scaled := worst[:0] // reuse: the removal scenarios are done
	for _, x := range r {
		if x > 0 {
			x *= scale
		}
		scaled = append(scaled, x)
	}
	out.Scenarios = append(out.Scenarios, whatIfStats("scale_winners", "every win multiplied by winner_scale", scaled, &base))
	taken := capped[:0]
	streak := 0
	for _, x := range r {
		if streak >= skip {
			streak = 0
			continue
		}
		taken = append(taken, x)
		if x < 0 {
			streak++
		} else {
			streak = 0
		}
	}
	out.Scenarios = append(out.Scenarios, whatIfStats("skip_after_losses", "the trade after a losing streak (R < 0) of skip_after_losses taken trades is not taken", taken, &base))
	out.BestScenario = base.Name
	bestG := base.G
	for _, s := range out.Scenarios {
		if s.G > bestG {
			bestG, out.BestScenario = s.G, s.Name
		}
	}
	return out, nil
}

// whatIfStats computes the metrics of r, with changes against base.
func whatIfStats(name, desc string, r []float64, base *WhatIfStats) WhatIfStats {
	mean, m2 := meanM2(r)
	wins := 0
	var sum float64
	for _, x := range r {
		sum += x
		if x > 0 {
			wins++
		}
	}
	n := float64(len(r))
	s := WhatIfStats{Name: name, Description: desc, TradeCount: len(r),
		G: toolkit.Float(mean - m2/n/2), Expectancy: toolkit.Float(mean),
		WinRate: toolkit.Float(float64(wins) / n), TotalR: toolkit.Float(sum)}
	if base != nil {
		s.GChange, s.ExpChange = s.G-base.G, s.Expectancy-base.Expectancy
	}
	return s
}
