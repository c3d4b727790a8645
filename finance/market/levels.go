package market

import (
	"slices"

	"github.com/agentfinance/toolkit"
)

// swingPrice is one swing price for clustering.
type swingPrice struct {
	price float64
	index int
}

// supportResistance clusters every swing price (highs and lows together):
// sorted by price, a price joins the current cluster when it is within tol
// of the cluster's running mean, else it starts a new cluster. Levels at or
// below the last close are support (nearest first), the others resistance
// (nearest first); at most maxLevelsPerSide of each are kept.
func supportResistance(highs, lows []SwingPoint, last, tol float64) (support, resistance []Level) {
	pts := make([]swingPrice, 0, len(highs)+len(lows))
	for _, s := range highs {
		pts = append(pts, swingPrice{float64(s.Price), s.Index})
	}
	for _, s := range lows {
		pts = append(pts, swingPrice{float64(s.Price), s.Index})
	}
	slices.SortFunc(pts, func(a, b swingPrice) int {
		switch {
		case a.price < b.price:
			return -1
		case a.price > b.price:
			return 1
		}
		return a.index - b.index
	})
	support, resistance = []Level{}, []Level{}
	emit := func(sum float64, cnt, first, lastIdx int) {
		mean := sum / float64(cnt)
		l := Level{Price: toolkit.Float(mean), Touches: cnt, FirstIndex: first, LastIndex: lastIdx,
			DistancePct: toolkit.Float((mean - last) / last * 100)}
		if mean <= last {
			support = append(support, l)
		} else {
			resistance = append(resistance, l)
		}
	}
	for i := 0; i < len(pts); {
		sum, cnt, first, lastIdx := pts[i].price, 1, pts[i].index, pts[i].index
		j := i + 1
		for ; j < len(pts) && pts[j].price-sum/float64(cnt) <= tol; j++ {
			sum += pts[j].price
			cnt++
			first, lastIdx = min(first, pts[j].index), max(lastIdx, pts[j].index)
		}
		emit(sum, cnt, first, lastIdx)
		i = j
	}
	slices.Reverse(support) // ascending prices -> nearest support first
	if len(support) > maxLevelsPerSide {
		support = support[:maxLevelsPerSide]
	}
	if len(resistance) > maxLevelsPerSide {
		resistance = resistance[:maxLevelsPerSide]
	}
	return support, resistance
}

// consolidationZones marks every window of w bars whose range (highest
// high - lowest low) is at most 2.5 × the ATR prevailing just before the
// window (the range scale at bar start-1), and merges overlapping or
// adjacent windows into zones.
func consolidationZones(s *scratch, b OHLCV, scale []float64, w int) []ConsolidationZone {
	zones := []ConsolidationZone{}
	n := b.Len()
	var cur *ConsolidationZone
	mx, mn := windowExtremes(s, b.High, b.Low, w)
	for end := w; end < n; end++ { // window [end-w+1, end]; the bar before it exists
		start := end - w + 1
		hi, lo := mx[end], mn[end]
		if hi-lo > consolidationRangeATR*scale[start-1] {
			continue
		}
		if cur != nil && start <= cur.EndIndex+1 {
			cur.EndIndex = end
			cur.High = toolkit.Float(max(float64(cur.High), hi))
			cur.Low = toolkit.Float(min(float64(cur.Low), lo))
			continue
		}
		zones = append(zones, ConsolidationZone{StartIndex: start, EndIndex: end, High: toolkit.Float(hi), Low: toolkit.Float(lo)})
		cur = &zones[len(zones)-1]
	}
	for i := range zones {
		zones[i].Bars = zones[i].EndIndex - zones[i].StartIndex + 1
		zones[i].Active = zones[i].EndIndex == n-1
	}
	return zones
}
