package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Rolling-G trends.
const (
	TrendImproving = "IMPROVING"
	TrendStable    = "STABLE"
	TrendDeclining = "DECLINING"
)

// DefaultWindowSize is the default rolling-G window (published default).
const DefaultWindowSize = 10

// TrendZ is the |z| above which the change between the last two blocks is
// called a trend (two-sided 5 %).
const TrendZ = 1.96

// RollingG is the result of CalculateRollingG.
type RollingG struct {
	WindowSize int `json:"window_size"`
	// WindowRule says how WindowSize was chosen (RollingGWindowRule).
	WindowRule string `json:"window_rule"`
	// RollingG[k] is the published G of trades k..k+w−1 (overlapping,
	// stride 1): N−w+1 values, oldest first.
	RollingG toolkit.Floats `json:"rolling_g"`
	LatestG  toolkit.Float  `json:"latest_g"` // the last window
	MinG     toolkit.Float  `json:"min_g"`
	MaxG     toolkit.Float  `json:"max_g"`
	MeanG    toolkit.Float  `json:"mean_g"` // mean of rolling_g
	// BlockG holds G of non-overlapping blocks of w trades aligned to the
	// end of the series (the oldest N mod w trades are left out), oldest
	// first. The trend uses only these blocks.
	BlockG toolkit.Floats `json:"block_g"`
	Trend  string         `json:"trend"` // IMPROVING | STABLE | DECLINING
	// TrendDelta is G(last block) − G(previous block); null with fewer than
	// two blocks.
	TrendDelta *toolkit.Float `json:"trend_delta"`
	// TrendZ is trend_delta / sqrt((s²_last + s²_prev)/w) with s² the sample
	// variances of the two blocks; null with fewer than two blocks or when
	// both blocks have no variance.
	TrendZ    *toolkit.Float `json:"trend_z"`
	TrendRule string         `json:"trend_rule"`
}

// RollingGTrendRule documents the trend classification.
const RollingGTrendRule = "compare G of the last w trades with G of the w trades before them (non-overlapping blocks; needs N >= 2w): z = delta/sqrt((s2_last+s2_prev)/w) with sample variances; IMPROVING if z > 1.96, DECLINING if z < -1.96, STABLE otherwise; with zero variance in both blocks the sign of delta decides; with fewer than two blocks the trend is STABLE (no evidence of change)"

// RollingGWindowRule documents the window: the rule evaluate_performance
// and analyze_consistency follow too.
const RollingGWindowRule = "window_size: as given (2..N), else min(10, N) with N the number of r_multiples, so the minimum of 2 trades works"

// CalculateRollingG computes G over rolling windows of window trades
// (RollingGWindowRule: nil means min(10, len(r)); a given window is 2 to
// len(r)) and classifies the trend by RollingGTrendRule. r needs at least
// 2 trades.
func CalculateRollingG(r []float64, window *int) (RollingG, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return RollingG{}, err
	}
	w := orDefault(window, min(DefaultWindowSize, len(r)))
	if w < 2 {
		return RollingG{}, invalid("window_size", "must be at least 2, got %d", w)
	}
	if w > len(r) {
		return RollingG{}, invalid("window_size", "must not exceed the number of r_multiples (%d), got %d", len(r), w)
	}
	series := rollingG(r, w)
	out := RollingG{WindowSize: w, WindowRule: RollingGWindowRule, RollingG: toolkit.Floats(series), TrendRule: RollingGTrendRule, Trend: TrendStable}
	lo, hi, sum := series[0], series[0], 0.0
	for _, g := range series {
		lo, hi, sum = min(lo, g), max(hi, g), sum+g
	}
	out.LatestG, out.MinG, out.MaxG = toolkit.Float(series[len(series)-1]), toolkit.Float(lo), toolkit.Float(hi)
	out.MeanG = toolkit.Float(sum / float64(len(series)))
	k := len(r) / w
	off := len(r) - k*w
	blocks := make([]float64, k)
	for b := range k {
		blocks[b] = G(r[off+b*w : off+(b+1)*w])
	}
	out.BlockG = toolkit.Floats(blocks)
	if k < 2 {
		return out, nil
	}
	last, prev := r[off+(k-1)*w:], r[off+(k-2)*w:off+(k-1)*w]
	delta := blocks[k-1] - blocks[k-2]
	out.TrendDelta = ptr(delta)
	_, m2Last := meanM2(last)
	_, m2Prev := meanM2(prev)
	fw := float64(w)
	se := math.Sqrt((m2Last/(fw-1) + m2Prev/(fw-1)) / fw)
	switch {
	case se > 0:
		z := delta / se
		out.TrendZ = ptr(z)
		if z > TrendZ {
			out.Trend = TrendImproving
		} else if z < -TrendZ {
			out.Trend = TrendDeclining
		}
	case delta > 0:
		out.Trend = TrendImproving
	case delta < 0:
		out.Trend = TrendDeclining
	}
	return out, nil
}

// rollingG returns G of every window of w consecutive values in O(n):
// the window mean and sum of squared deviations slide with the exact
// update m' = m + (x_in − x_out)/w, M2' = M2 + (x_in − x_out)(x_in − m' +
// x_out − m), recomputed from scratch every 64 windows to stop drift.
func rollingG(r []float64, w int) []float64 {
	out := make([]float64, len(r)-w+1)
	fw := float64(w)
	m, m2 := meanM2(r[:w])
	out[0] = m - m2/fw/2
	for k := 1; k < len(out); k++ {
		if k%64 == 0 {
			m, m2 = meanM2(r[k : k+w])
		} else {
			in, old := r[k+w-1], r[k-1]
			mNew := m + (in-old)/fw
			m2 = max(m2+(in-old)*(in-mNew+old-m), 0)
			m = mNew
		}
		out[k] = m - m2/fw/2
	}
	return out
}
