package performance

import (
	"container/heap"
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
)

// Variance-killer defaults and limits.
const (
	DefaultKillerCount = 10
	MaxKillerCount     = 1000
)

// VarianceKiller is one trade whose removal raises G.
type VarianceKiller struct {
	Rank          int           `json:"rank"`  // 1 = removing it raises G the most
	Index         int           `json:"index"` // 0-based position in r_multiples
	TradeID       string        `json:"trade_id,omitempty"`
	Symbol        string        `json:"symbol,omitempty"`
	RMultiple     toolkit.Float `json:"r_multiple"`
	GImpact       toolkit.Float `json:"g_impact"`       // G without this trade − G with all trades (> 0)
	GWithout      toolkit.Float `json:"g_without"`      // G without this trade
	VarianceShare toolkit.Float `json:"variance_share"` // (R_i − mean)²/Σ(R_j − mean)²
}

// VarianceKillers is the result of FindVarianceKillers.
type VarianceKillers struct {
	G          toolkit.Float    `json:"g"` // published G of all trades
	TradeCount int              `json:"trade_count"`
	Killers    []VarianceKiller `json:"killers"` // ranked, at most top_n, only g_impact > 0
	// KillerCount counts all trades whose removal raises G (the list may
	// be shorter).
	KillerCount int `json:"killer_count"`
	// GWithoutKillers is G of the series without the listed killers
	// (null when fewer than one trade would remain).
	GWithoutKillers *toolkit.Float `json:"g_without_killers"`
	// VarianceShareLossesBeyond1R is the share of Σ(R−mean)² from trades
	// with R < −1 (stop slippage, undisciplined exits).
	VarianceShareLossesBeyond1R toolkit.Float `json:"variance_share_losses_beyond_1r"`
	// VarianceShareTop5Pct is the share of Σ(R−mean)² from the ceil(5 % of
	// N) largest R values.
	VarianceShareTop5Pct toolkit.Float `json:"variance_share_top_5pct"`
}

// KillerOptions tunes FindVarianceKillers. A nil option takes its default.
type KillerOptions struct {
	TradeIDs []string // optional, parallel to r
	Symbols  []string // optional, parallel to r
	TopN     *int     // default 10, 1..1000
}

// FindVarianceKillers ranks the trades of r (at least 2) by how much
// removing each one alone raises the published G = mean − popvar/2. The
// leave-one-out G of every trade comes from the exact downdate of mean and
// sum of squared deviations (O(n) in total):
// mean' = mean − (R_i − mean)/(n−1), M2' = M2 − (R_i − mean)²·n/(n−1).
// Ties rank by lower index first.
func FindVarianceKillers(r []float64, opt KillerOptions) (VarianceKillers, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return VarianceKillers{}, err
	}
	n := len(r)
	for _, labels := range []struct {
		field string
		items []string
	}{{"trade_ids", opt.TradeIDs}, {"symbols", opt.Symbols}} {
		if labels.items == nil {
			continue
		}
		if err := validateParallel(labels.field, len(labels.items), n); err != nil {
			return VarianceKillers{}, err
		}
		if err := nonEmptyStrings(labels.field, labels.items); err != nil {
			return VarianceKillers{}, err
		}
	}
	top := orDefault(opt.TopN, DefaultKillerCount)
	if err := validateCount("top_n", top, 1, MaxKillerCount); err != nil {
		return VarianceKillers{}, err
	}
	mean, m2 := meanM2(r)
	fn := float64(n)
	g := mean - m2/fn/2
	out := VarianceKillers{G: toolkit.Float(g), TradeCount: n, Killers: []VarianceKiller{}}
	// the top candidates so far in a heap whose root is the weakest
	// (lowest impact, then highest index): O(n log top) in all
	best := make(killerHeap, 0, top)
	var beyond1R float64
	for i, x := range r {
		d := x - mean
		if x < -1 {
			beyond1R += d * d
		}
		m := mean - d/(fn-1)
		v := max(m2-d*d*fn/(fn-1), 0) / (fn - 1)
		gi := m - v/2
		impact := gi - g
		if impact <= 0 {
			continue
		}
		out.KillerCount++
		c := killerCandidate{i, impact, gi}
		switch {
		case len(best) < top:
			heap.Push(&best, c)
		case impact > best[0].impact: // an equal impact keeps the earlier index
			best[0] = c
			heap.Fix(&best, 0)
		}
	}
	slices.SortFunc(best, func(a, b killerCandidate) int { // impact desc, index asc
		if a.weaker(b) {
			return 1
		}
		return -1
	})
	removed := make([]bool, n)
	for k, c := range best {
		d := r[c.idx] - mean
		kl := VarianceKiller{Rank: k + 1, Index: c.idx, RMultiple: toolkit.Float(r[c.idx]), GImpact: toolkit.Float(c.impact), GWithout: toolkit.Float(c.gOut)}
		if m2 > 0 {
			kl.VarianceShare = toolkit.Float(d * d / m2)
		}
		if opt.TradeIDs != nil {
			kl.TradeID = opt.TradeIDs[c.idx]
		}
		if opt.Symbols != nil {
			kl.Symbol = opt.Symbols[c.idx]
		}
		out.Killers = append(out.Killers, kl)
		removed[c.idx] = true
	}
	if len(best) < n {
		rest := make([]float64, 0, n-len(best))
		for i, x := range r {
			if !removed[i] {
				rest = append(rest, x)
			}
		}
		out.GWithoutKillers = ptr(G(rest))
	}
	if m2 > 0 {
		out.VarianceShareLossesBeyond1R = toolkit.Float(beyond1R / m2)
		out.VarianceShareTop5Pct = toolkit.Float(topShare(r, mean, m2))
	}
	return out, nil
}

// topShare returns the share of m2 from the ceil(5 % of n) largest values.
func topShare(r []float64, mean, m2 float64) float64 {
	k := int(math.Ceil(0.05 * float64(len(r))))
	xs := slices.Clone(r)
	selectKth(xs, len(xs)-k)
	var s float64
	for _, x := range xs[len(xs)-k:] {
		d := x - mean
		s += d * d
	}
	return s / m2
}

// killerCandidate is a trade whose removal raises G.
type killerCandidate struct {
	idx          int
	impact, gOut float64
}

// weaker reports whether c ranks below o: a lower impact, or the same
// impact and a later index.
func (c killerCandidate) weaker(o killerCandidate) bool {
	return c.impact < o.impact || c.impact == o.impact && c.idx > o.idx
}

// killerHeap is a container/heap of candidates, the weakest at the root.
type killerHeap []killerCandidate

func (h killerHeap) Len() int           { return len(h) }
func (h killerHeap) Less(i, j int) bool { return h[i].weaker(h[j]) }
func (h killerHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *killerHeap) Push(x any)        { *h = append(*h, x.(killerCandidate)) }
func (h *killerHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
