package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Peak/valley states.
const (
	AtPeak   = "AT_PEAK"
	AtValley = "AT_VALLEY"
	Between  = "BETWEEN"
)

// PeakValleyTolerance is the relative tolerance of the state test: equity
// within PeakValleyTolerance×peak of the peak (or of the valley) counts as
// equal to it.
const PeakValleyTolerance = 1e-12

// PeakValley is the result of DetectPeakValley. Points follow the drawdown
// convention: 0 is the starting equity, i is the equity after trade i.
type PeakValley struct {
	// State is AT_PEAK when the last equity equals the running peak (within
	// the tolerance), AT_VALLEY when it equals the lowest equity since that
	// peak, BETWEEN otherwise.
	State         string        `json:"state"`
	CurrentEquity toolkit.Float `json:"current_equity"`
	PeakEquity    toolkit.Float `json:"peak_equity"` // running (all-time) peak
	PeakIndex     int           `json:"peak_index"`
	// ValleyEquity is the lowest equity since the peak (= peak at a peak).
	ValleyEquity          toolkit.Float  `json:"valley_equity"`
	ValleyIndex           int            `json:"valley_index"`
	DistanceFromPeakPct   toolkit.Float  `json:"distance_from_peak_pct"`   // (peak − current)/peak × 100
	DistanceFromPeakUSD   toolkit.Float  `json:"distance_from_peak_usd"`   // peak − current
	DistanceFromValleyPct *toolkit.Float `json:"distance_from_valley_pct"` // (current − valley)/valley × 100; null for a valley at 0
	GainToRecoverPct      *toolkit.Float `json:"gain_to_recover_pct"`      // (peak/current − 1) × 100; null at equity 0
	Peaks                 []PeakPoint    `json:"peaks"`                    // the peak before each drawdown episode
	Valleys               []PeakPoint    `json:"valleys"`                  // the lowest point of each episode
	Tolerance             toolkit.Float  `json:"tolerance"`
}

// PeakPoint is one peak or valley.
type PeakPoint struct {
	Index    int           `json:"index"`
	Equity   toolkit.Float `json:"equity"`
	DepthPct toolkit.Float `json:"depth_pct"` // for valleys: depth below the episode's peak, percent; 0 for peaks
}

// DetectPeakValley classifies the end of an equity curve (equity after
// each trade, at least 1 value, each >= 0; startingEquity > 0) and lists
// the peaks and valleys of its drawdown episodes.
func DetectPeakValley(equity []float64, startingEquity float64) (PeakValley, error) {
	points, err := curvePoints(equity, startingEquity)
	if err != nil {
		return PeakValley{}, err
	}
	out := PeakValley{Tolerance: PeakValleyTolerance, Peaks: []PeakPoint{}, Valleys: []PeakPoint{}}
	peak, peakIdx := points[0], 0
	valley, valleyIdx := peak, 0
	for i, e := range points {
		if e >= peak {
			peak, peakIdx, valley, valleyIdx = e, i, e, i
		} else if e < valley {
			valley, valleyIdx = e, i
		}
	}
	eps := drawdownEpisodes(points)
	out.Peaks, out.Valleys = make([]PeakPoint, 0, len(eps)), make([]PeakPoint, 0, len(eps))
	for _, ep := range eps {
		out.Peaks = append(out.Peaks, PeakPoint{Index: ep.PeakIndex, Equity: ep.PeakEquity})
		out.Valleys = append(out.Valleys, PeakPoint{Index: ep.ValleyIndex, Equity: ep.ValleyEquity, DepthPct: ep.DepthPct})
	}
	cur := points[len(points)-1]
	tol := PeakValleyTolerance * peak
	switch {
	case math.Abs(peak-cur) <= tol:
		out.State = AtPeak
	case math.Abs(cur-valley) <= tol:
		out.State = AtValley
	default:
		out.State = Between
	}
	out.CurrentEquity, out.PeakEquity, out.PeakIndex = toolkit.Float(cur), toolkit.Float(peak), peakIdx
	out.ValleyEquity, out.ValleyIndex = toolkit.Float(valley), valleyIdx
	out.DistanceFromPeakUSD = toolkit.Float(peak - cur)
	out.DistanceFromPeakPct = toolkit.Float((peak - cur) / peak * 100)
	if valley > 0 {
		out.DistanceFromValleyPct = ptr((cur - valley) / valley * 100)
	}
	if cur > 0 {
		out.GainToRecoverPct = ptr((peak/cur - 1) * 100)
	}
	return out, nil
}
