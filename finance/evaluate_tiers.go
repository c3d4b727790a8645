package finance

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// ImpactKillers is the number of variance killers the comprehensive tier
// lists (and the number that enter the levers ranking).
const ImpactKillers = 5

// Impact answers "which trades and which changes move G most".
type Impact struct {
	// VarianceKillers ranks the trades whose removal alone raises G most
	// (top 5; performance.FindVarianceKillers).
	VarianceKillers performance.VarianceKillers `json:"variance_killers"`
	// WhatIf recomputes G and expectancy under the default scenarios
	// (performance.RunWhatIf).
	WhatIf performance.WhatIf `json:"what_if"`
	// Levers merges the what-if scenarios and the removal of each listed
	// variance killer into one list ranked by g_change, largest first
	// (ties: scenarios before trades, then input order).
	Levers []Lever `json:"levers"`
	// Summary states the biggest lever and the biggest killer in words.
	Summary []string `json:"summary"`
}

// Lever is one change and how much it moves G.
type Lever struct {
	Kind        string        `json:"kind"` // "scenario" or "remove_trade"
	Name        string        `json:"name"` // scenario name or "remove_trade_<index>"
	Description string        `json:"description"`
	GChange     toolkit.Float `json:"g_change"` // G after − G before
	// TradeIndex is the 0-based trade for kind remove_trade.
	TradeIndex *int `json:"trade_index,omitempty"`
}

// EvaluateFull computes the basic tier plus rolling G over windows of
// window trades (nil means min(10, N); otherwise 2..N) with its trend
// (performance.RollingGTrendRule) and the System R Score (0–100, grade
// A+ >= 90, A >= 80, B >= 70, C >= 60, D >= 50, F below).
func EvaluateFull(r []float64, window *int) (Evaluation, error) {
	out, err := EvaluateBasic(r)
	if err != nil {
		return Evaluation{}, err
	}
	rolling, err := performance.CalculateRollingG(r, window) // window nil: min(10, N)
	if err != nil {
		return Evaluation{}, err
	}
	score, err := performance.CalculateSystemScore(r)
	if err != nil {
		return Evaluation{}, err
	}
	out.Tier = TierFull
	out.WindowSize = rolling.WindowSize
	out.RollingG = rolling.RollingG
	out.RollingGTrend = rolling.Trend
	out.Rolling = &rolling
	out.SystemRScore = &score
	return out, nil
}

// EvaluateComprehensive computes the full tier plus Impact.
func EvaluateComprehensive(r []float64, window *int) (Evaluation, error) {
	out, err := EvaluateFull(r, window)
	if err != nil {
		return Evaluation{}, err
	}
	impact, err := impactOf(r)
	if err != nil {
		return Evaluation{}, err
	}
	out.Tier = TierComprehensive
	out.Impact = &impact
	return out, nil
}

func impactOf(r []float64) (Impact, error) {
	killers, err := performance.FindVarianceKillers(r, performance.KillerOptions{TopN: ref(ImpactKillers)})
	if err != nil {
		return Impact{}, err
	}
	whatIf, err := performance.RunWhatIf(r, performance.WhatIfOptions{})
	if err != nil {
		return Impact{}, err
	}
	levers := make([]Lever, 0, len(whatIf.Scenarios)+len(killers.Killers))
	for _, s := range whatIf.Scenarios {
		levers = append(levers, Lever{Kind: "scenario", Name: s.Name, Description: s.Description, GChange: s.GChange})
	}
	for _, k := range killers.Killers {
		idx := k.Index
		levers = append(levers, Lever{
			Kind: "remove_trade", Name: fmt.Sprintf("remove_trade_%d", k.Index), TradeIndex: &idx,
			Description: fmt.Sprintf("drop trade %d (R = %s) alone", k.Index, k.RMultiple),
			GChange:     k.GImpact,
		})
	}
	slices.SortStableFunc(levers, func(a, b Lever) int { return cmp.Compare(b.GChange, a.GChange) })
	out := Impact{VarianceKillers: killers, WhatIf: whatIf, Levers: levers, Summary: []string{}}
	if len(levers) > 0 {
		top := levers[0]
		out.Summary = append(out.Summary, fmt.Sprintf("biggest lever: %s (%s) changes G by %s", top.Name, top.Description, top.GChange))
	}
	if len(killers.Killers) > 0 {
		k := killers.Killers[0]
		out.Summary = append(out.Summary, fmt.Sprintf("biggest variance killer: trade %d (R = %s); without it G rises by %s",
			k.Index, k.RMultiple, k.GImpact))
	} else {
		out.Summary = append(out.Summary, "no single trade lowers G: removing any one trade would not raise it")
	}
	return out, nil
}
