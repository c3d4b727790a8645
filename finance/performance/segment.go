package performance

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// Segmentation keys of SegmentTrades.
const (
	SegmentBySymbol    = "symbol"
	SegmentByDayOfWeek = "day_of_week"
	SegmentByStrategy  = "strategy"
	SegmentByRegime    = "regime"
	// SegmentUnknown labels the trades that lack the segmentation field.
	SegmentUnknown = "UNKNOWN"
	// MinSegmentSample is the sample size under which a segment is flagged.
	MinSegmentSample = 30
)

// dayNames are the day_of_week labels, 0 = Monday.
var dayNames = [7]string{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"}

// SegmentTrade is one trade of SegmentTrades.
type SegmentTrade struct {
	PnLR   float64        // realised R
	PnLUSD toolkit.Amount // realised P&L in USD
	Symbol string
	// DayOfWeek is 0 = Monday .. 6 = Sunday; nil when unknown.
	DayOfWeek  *int
	StrategyID string
	Regime     string
}

// SegmentStats are the figures of one segment.
type SegmentStats struct {
	Segment    string `json:"segment"`
	Count      int    `json:"count"`
	Wins       int    `json:"wins"`
	Losses     int    `json:"losses"`
	Breakevens int    `json:"breakevens"`
	// WinRate is Wins/Count (breakevens count in Count).
	WinRate toolkit.Float `json:"win_rate"`
	// Expectancy is mean(R).
	Expectancy toolkit.Float `json:"expectancy"`
	// G is mean(R) - popvar(R)/2.
	G      toolkit.Float `json:"g"`
	TotalR toolkit.Float `json:"total_r"`
	// TotalPnLUSD is the exact decimal sum of pnl_usd.
	TotalPnLUSD toolkit.Amount `json:"total_pnl_usd"`
	// ShareOfTrades is Count/n.
	ShareOfTrades toolkit.Float `json:"share_of_trades"`
	// LowSample is true when Count < 30.
	LowSample bool `json:"low_sample"`
}

// SegmentResult is the answer of SegmentTrades.
type SegmentResult struct {
	SegmentBy    string         `json:"segment_by"`
	TradeCount   int            `json:"trade_count"`
	SegmentCount int            `json:"segment_count"`
	Segments     []SegmentStats `json:"segments"`
	// BestSegment and WorstSegment have the highest and lowest expectancy
	// (ties: the first in the listed order).
	BestSegment  string         `json:"best_segment"`
	WorstSegment string         `json:"worst_segment"`
	TotalPnLUSD  toolkit.Amount `json:"total_pnl_usd"`
	Warnings     []string       `json:"warnings"`
	Conventions  []string       `json:"conventions"`
}

// SegmentTrades groups trades by symbol, day_of_week, strategy or regime
// (by defaults to symbol) and reports count, win rate, expectancy, G, total
// R and the exact USD total per segment.
//
// Keys are compared exactly (case-sensitive, untrimmed); a trade with an
// empty key (or no day_of_week) goes to UNKNOWN. Segments are ordered by
// key: day_of_week Monday..Sunday, the others in byte order; UNKNOWN comes
// last. A win is R > 0, a loss R < 0, a breakeven R = 0. It needs at least
// one trade. It checks ctx about every 65,536 trades and returns
// ctx.Err() once ctx is done.
func SegmentTrades(ctx context.Context, trades []SegmentTrade, by string) (*SegmentResult, error) {
	if by == "" {
		by = SegmentBySymbol
	}
	if err := checkSegmentInput(trades, by); err != nil {
		return nil, err
	}
	keys, err := segmentKeys(ctx, trades, by)
	if err != nil {
		return nil, err
	}
	var sg segmentation
	sg.groupKeys(keys, by)
	if err := sg.bucket(ctx, trades); err != nil {
		return nil, err
	}
	res := &SegmentResult{
		SegmentBy:    by,
		TradeCount:   len(trades),
		SegmentCount: len(sg.names),
		Segments:     make([]SegmentStats, len(sg.names)),
		Warnings:     []string{},
		Conventions:  segmentConventions(),
	}
	var total toolkit.Amount
	best, worst := 0, 0
	low := 0
	for p, g := range sg.order {
		st := segmentStats(sg.names[g], sg.rs[sg.start[p]:sg.start[p+1]], sg.totals[p], len(trades))
		if st.LowSample {
			low++
		}
		res.Segments[p] = st
		total = total.Add(sg.totals[p])
		if st.Expectancy > res.Segments[best].Expectancy {
			best = p
		}
		if st.Expectancy < res.Segments[worst].Expectancy {
			worst = p
		}
	}
	res.TotalPnLUSD = money.Canonical(total)
	res.BestSegment, res.WorstSegment = res.Segments[best].Segment, res.Segments[worst].Segment
	if low > 0 {
		res.Warnings = append(res.Warnings, "some segments have fewer than 30 trades: their figures are unreliable")
	}
	if len(sg.names) > 1 {
		res.Warnings = append(res.Warnings, "comparing many segments: at a 5 % level about 1 segment in 20 looks significant by chance")
	}
	return res, nil
}

// segmentConventions are the rules SegmentTrades states in its answer.
func segmentConventions() []string {
	return []string{
		"win: R > 0; loss: R < 0; breakeven: R = 0 (counted in win_rate's denominator)",
		"g = mean(R) - popvar(R)/2 per segment",
		"total_pnl_usd: exact decimal sum of pnl_usd",
		"keys compared exactly (case-sensitive); missing keys grouped as UNKNOWN, listed last",
		"order: day_of_week Monday..Sunday, other keys in byte order",
		"best/worst segment: highest/lowest expectancy, ties to the first listed",
		"low_sample: fewer than 30 trades in the segment",
	}
}

// checkSegmentInput checks the number of trades and the segmentation key.
func checkSegmentInput(trades []SegmentTrade, by string) error {
	if len(trades) > limits.MaxItems {
		return toolkit.Errorf(toolkit.TooLarge, "trades: at most %d trades are accepted", limits.MaxItems)
	}
	if len(trades) == 0 {
		return invalid("trades", "needs at least 1 trade")
	}
	if by != SegmentBySymbol && by != SegmentByDayOfWeek && by != SegmentByStrategy && by != SegmentByRegime {
		return invalid("segment_by", "must be one of symbol, day_of_week, strategy, regime")
	}
	return nil
}

// segmentKeys checks each trade and returns its segmentation key,
// checking ctx about every 65,536 trades.
func segmentKeys(ctx context.Context, trades []SegmentTrade, by string) ([]string, error) {
	every := limits.CheckEvery(1)
	keys := make([]string, len(trades))
	for i, t := range trades {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if math.IsNaN(t.PnLR) || math.IsInf(t.PnLR, 0) {
			return nil, invalid("trades", "item %d: pnl_r must be a finite number", i)
		}
		if t.DayOfWeek != nil && (*t.DayOfWeek < 0 || *t.DayOfWeek > 6) {
			return nil, invalid("trades", "item %d: day_of_week must be 0 (Monday) to 6 (Sunday)", i)
		}
		keys[i] = segmentKey(t, by)
	}
	return keys, nil
}

// segmentation holds the trades grouped by segment, segments in their
// listed order (position p).
type segmentation struct {
	names  []string         // keys, in order of first appearance (group g)
	group  []int            // group of each trade
	order  []int            // order[p] is the group listed at position p
	rank   []int            // rank[g] is the position of group g
	start  []int            // the R values of position p are rs[start[p]:start[p+1]]
	rs     []float64        // R values, bucketed by position
	totals []toolkit.Amount // exact USD total per position
}

// groupKeys numbers the distinct keys and orders them for listing.
func (sg *segmentation) groupKeys(keys []string, by string) {
	group := make([]int, len(keys))
	// Room for the usual number of segments (seven days, a few symbols,
	// strategies or regimes) in one allocation.
	names := make([]string, 0, min(len(keys), 16))
	index := make(map[string]int)
	for i, k := range keys {
		g, ok := index[k]
		if !ok {
			g = len(names)
			index[k] = g
			names = append(names, k)
		}
		group[i] = g
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareSegments(names[a], names[b], by) })
	rank := make([]int, len(names))
	for pos, g := range order {
		rank[g] = pos
	}
	sg.names, sg.group, sg.order, sg.rank = names, group, order, rank
}

// bucket places the R values per segment (a counting sort by position)
// and sums each segment's USD exactly, checking ctx about every 65,536
// trades (the decimal sums are the slowest step).
func (sg *segmentation) bucket(ctx context.Context, trades []SegmentTrade) error {
	every := limits.CheckEvery(1)
	group, rank := sg.group, sg.rank
	start := make([]int, len(sg.names)+1)
	for _, g := range group {
		start[rank[g]+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	next := slices.Clone(start[:len(sg.names)])
	rs := make([]float64, len(trades))
	totals := make([]toolkit.Amount, len(sg.names))
	for i, t := range trades {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p := rank[group[i]]
		rs[next[p]] = t.PnLR
		next[p]++
		totals[p] = totals[p].Add(t.PnLUSD)
	}
	sg.start, sg.rs, sg.totals = start, rs, totals
	return nil
}

// segmentStats are the figures of the segment named name with R values
// seg and exact USD total, out of n trades in all.
func segmentStats(name string, seg []float64, total toolkit.Amount, n int) SegmentStats {
	st := SegmentStats{Segment: name, Count: len(seg), TotalPnLUSD: money.Canonical(total)}
	var sum float64
	for _, x := range seg {
		sum += x
		switch {
		case x > 0:
			st.Wins++
		case x < 0:
			st.Losses++
		default:
			st.Breakevens++
		}
	}
	mean, g := meanG(seg)
	st.WinRate = toolkit.Float(float64(st.Wins) / float64(len(seg)))
	st.Expectancy, st.G, st.TotalR = toolkit.Float(mean), toolkit.Float(g), toolkit.Float(sum)
	st.ShareOfTrades = toolkit.Float(float64(len(seg)) / float64(n))
	st.LowSample = len(seg) < MinSegmentSample
	return st
}

// segmentKey returns the segmentation key of t.
func segmentKey(t SegmentTrade, by string) string {
	var k string
	switch by {
	case SegmentBySymbol:
		k = t.Symbol
	case SegmentByStrategy:
		k = t.StrategyID
	case SegmentByRegime:
		k = t.Regime
	case SegmentByDayOfWeek:
		if t.DayOfWeek != nil {
			k = dayNames[*t.DayOfWeek]
		}
	}
	if k == "" {
		return SegmentUnknown
	}
	return k
}

// compareSegments orders segment keys: UNKNOWN last, weekdays in week
// order, other keys in byte order.
func compareSegments(a, b, by string) int {
	switch {
	case a == b:
		return 0
	case a == SegmentUnknown:
		return 1
	case b == SegmentUnknown:
		return -1
	case by == SegmentByDayOfWeek:
		return slices.Index(dayNames[:], a) - slices.Index(dayNames[:], b)
	}
	return strings.Compare(a, b)
}
