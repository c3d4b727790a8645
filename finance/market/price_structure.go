package market

import (
	"context"
	"slices"

	"github.com/agentfinance/toolkit"
)

// PriceStructureMinBars is the fewest bars analyze_price_structure
// analyses; below it the tool answers insufficient_bars.
const PriceStructureMinBars = 21

// Structure labels of analyze_price_structure.
const (
	StructureUptrend   = "uptrend"
	StructureDowntrend = "downtrend"
	StructureRange     = "range"
)

// Price-structure parameters (see docs/tools/analyze_price_structure.md).
const (
	DefaultSwingWindow         = 2   // Williams fractal: 2 bars each side
	DefaultConsolidationWindow = 10  // bars in a consolidation window
	swingEqualTolerance        = 0.1 // ×ATR: swings this close are "equal"
	levelClusterTolerance      = 0.5 // ×ATR: swing prices this close form one level
	consolidationRangeATR      = 2.5 // ×ATR: largest range of a consolidation window
	maxLevelsPerSide           = 5   // nearest support/resistance levels reported
	sequenceLength             = 8   // labels in Sequence
	breakOfStructureBullish    = "bullish"
	breakOfStructureBearish    = "bearish"
	breakOfStructureNone       = "none"
	swingKindHigh              = "high"
	swingKindLow               = "low"
)

// PriceStructureOptions tunes analyze_price_structure. A nil option takes
// its default.
type PriceStructureOptions struct {
	// SwingWindow is the fractal half-window L = R (default 2, 1..10).
	SwingWindow *int
	// ConsolidationWindow is the window of the consolidation test
	// (default 10, 5..50).
	ConsolidationWindow *int
}

// SwingPoint is one confirmed swing high or low.
type SwingPoint struct {
	Index int `json:"index"`
	// ConfirmedAt is Index + SwingWindow: the first bar at which the swing
	// is known (the lag that makes it non-repainting).
	ConfirmedAt int           `json:"confirmed_at"`
	Kind        string        `json:"kind"` // high | low
	Price       toolkit.Float `json:"price"`
	// Label compares with the previous swing of the same kind: HH/LH/EH
	// for highs, HL/LL/EL for lows; empty for the first of its kind.
	Label string `json:"label,omitempty"`
}

// Level is a support or resistance level: a cluster of swing prices.
type Level struct {
	Price      toolkit.Float `json:"price"`   // mean of the clustered swing prices
	Touches    int           `json:"touches"` // swing points in the cluster
	FirstIndex int           `json:"first_index"`
	LastIndex  int           `json:"last_index"`
	// DistancePct is (Price - last close)/last close × 100.
	DistancePct toolkit.Float `json:"distance_pct"`
}

// ConsolidationZone is a run of bars trading in a narrow range.
type ConsolidationZone struct {
	StartIndex int           `json:"start_index"`
	EndIndex   int           `json:"end_index"`
	Bars       int           `json:"bars"`
	High       toolkit.Float `json:"high"`
	Low        toolkit.Float `json:"low"`
	Active     bool          `json:"active"` // the zone reaches the last bar
}

// Pivots are the classic floor-trader pivots of the last bar.
type Pivots struct {
	Pivot toolkit.Float `json:"pivot"` // (H + L + C)/3
	R1    toolkit.Float `json:"r1"`    // 2P - L
	S1    toolkit.Float `json:"s1"`    // 2P - H
	R2    toolkit.Float `json:"r2"`    // P + (H - L)
	S2    toolkit.Float `json:"s2"`    // P - (H - L)
}

// PriceStructureReport is the result of analyze_price_structure.
type PriceStructureReport struct {
	BarsAnalyzed        int           `json:"bars_analyzed"`
	SwingWindow         int           `json:"swing_window"`
	ConsolidationWindow int           `json:"consolidation_window"`
	ATR                 toolkit.Float `json:"atr"` // Wilder ATR(14) at the last bar
	SwingHighs          []SwingPoint  `json:"swing_highs"`
	SwingLows           []SwingPoint  `json:"swing_lows"`
	// Sequence holds the labels of the last (up to 8) labelled swings of
	// both kinds in bar order.
	Sequence  []string `json:"sequence"`
	Structure string   `json:"structure"` // uptrend | downtrend | range
	// LastSwingHigh and LastSwingLow are null when no swing was found.
	LastSwingHigh *SwingPoint `json:"last_swing_high"`
	LastSwingLow  *SwingPoint `json:"last_swing_low"`
	// BreakOfStructure is bullish when the last close is above the last
	// swing high, bearish when below the last swing low, else none.
	BreakOfStructure   string              `json:"break_of_structure"`
	Support            []Level             `json:"support"`
	Resistance         []Level             `json:"resistance"`
	ConsolidationZones []ConsolidationZone `json:"consolidation_zones"`
	Pivots             Pivots              `json:"pivots"`
}

// AnalyzePriceStructure finds swing highs and lows (fractals), labels them
// HH/HL/LH/LL, derives the structure, clusters the swing prices into
// support and resistance levels and finds consolidation zones. Fewer than
// PriceStructureMinBars bars is the InsufficientBars answer (see Answer).
func AnalyzePriceStructure(ctx context.Context, bars []Bar, opt PriceStructureOptions) (Answer[PriceStructureReport], error) {
	return analyse(ctx, "analyze_price_structure", bars, PriceStructureMinBars, func() (*PriceStructureReport, error) {
		return analyzePriceStructure(ctx, bars, opt)
	})
}

// priceStructureScratchFloats is the float64 scratch of
// analyze_price_structure per bar: the columns (5), the range scale and two
// window extremes (4 each).
const priceStructureScratchFloats = 14

// analyzePriceStructure is AnalyzePriceStructure on enough valid bars.
func analyzePriceStructure(ctx context.Context, bars []Bar, opt PriceStructureOptions) (*PriceStructureReport, error) {
	w, cw := orDefault(opt.SwingWindow, DefaultSwingWindow), orDefault(opt.ConsolidationWindow, DefaultConsolidationWindow)
	if w < 1 || w > 10 {
		return nil, invalid("swing_window", "must be between 1 and 10, got %d", w)
	}
	if cw < 5 || cw > 50 {
		return nil, invalid("consolidation_window", "must be between 5 and 50, got %d", cw)
	}
	s := getScratch(priceStructureScratchFloats * len(bars))
	defer s.release()
	b := s.columns(bars)
	n := b.Len()
	scale := rangeScale(s, b)
	atr := scale[n-1]
	rep := &PriceStructureReport{BarsAnalyzed: n, SwingWindow: w, ConsolidationWindow: cw, ATR: toolkit.Float(atr)}
	highs, lows := swingPoints(s, b.High, b.Low, w)
	rep.SwingHighs = labelSwings(highs, b.High, scale, w, true)
	rep.SwingLows = labelSwings(lows, b.Low, scale, w, false)
	rep.Sequence = swingSequence(rep.SwingHighs, rep.SwingLows)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.Structure = StructureRange
	rep.BreakOfStructure = breakOfStructureNone
	last := b.Close[n-1]
	if len(rep.SwingHighs) > 0 {
		rep.LastSwingHigh = &rep.SwingHighs[len(rep.SwingHighs)-1]
		if last > float64(rep.LastSwingHigh.Price) {
			rep.BreakOfStructure = breakOfStructureBullish
		}
	}
	if len(rep.SwingLows) > 0 {
		rep.LastSwingLow = &rep.SwingLows[len(rep.SwingLows)-1]
		if last < float64(rep.LastSwingLow.Price) {
			rep.BreakOfStructure = breakOfStructureBearish
		}
	}
	if rep.LastSwingHigh != nil && rep.LastSwingLow != nil {
		switch hl := rep.LastSwingHigh.Label + rep.LastSwingLow.Label; hl {
		case "HHHL":
			rep.Structure = StructureUptrend
		case "LHLL":
			rep.Structure = StructureDowntrend
		}
	}
	rep.Support, rep.Resistance = supportResistance(rep.SwingHighs, rep.SwingLows, last, levelClusterTolerance*atr)
	rep.ConsolidationZones = consolidationZones(s, b, scale, cw)
	h, l := b.High[n-1], b.Low[n-1]
	p := (h + l + last) / 3
	rep.Pivots = Pivots{Pivot: toolkit.Float(p), R1: toolkit.Float(2*p - l), S1: toolkit.Float(2*p - h),
		R2: toolkit.Float(p + (h - l)), S2: toolkit.Float(p - (h - l))}
	return rep, nil
}

// labelSwings builds the swing points at idx and labels each against the
// previous one of its kind with an equality tolerance of 0.1·ATR (ATR at
// the later swing).
func labelSwings(idx []int, x, scale []float64, w int, high bool) []SwingPoint {
	out := make([]SwingPoint, len(idx))
	for j, t := range idx {
		sp := SwingPoint{Index: t, ConfirmedAt: t + w, Kind: swingKindLow, Price: toolkit.Float(x[t])}
		if high {
			sp.Kind = swingKindHigh
		}
		if j > 0 {
			d, tol := x[t]-x[idx[j-1]], swingEqualTolerance*scale[t]
			switch {
			case d > tol && high:
				sp.Label = "HH"
			case d < -tol && high:
				sp.Label = "LH"
			case high:
				sp.Label = "EH"
			case d > tol:
				sp.Label = "HL"
			case d < -tol:
				sp.Label = "LL"
			default:
				sp.Label = "EL"
			}
		}
		out[j] = sp
	}
	return out
}

// swingSequence merges the labelled swings by bar index (a high before a
// low on the same bar) and keeps the last sequenceLength labels.
func swingSequence(highs, lows []SwingPoint) []string {
	seq := make([]string, 0, sequenceLength)
	i, j := len(highs)-1, len(lows)-1
	for len(seq) < sequenceLength && (i >= 0 || j >= 0) {
		var sp SwingPoint
		if j < 0 || i >= 0 && highs[i].Index > lows[j].Index {
			sp, i = highs[i], i-1
		} else {
			sp, j = lows[j], j-1
		}
		if sp.Label != "" {
			seq = append(seq, sp.Label)
		}
	}
	slices.Reverse(seq)
	return seq
}
