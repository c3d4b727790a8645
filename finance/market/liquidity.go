package market

import (
	"context"
	"math"

	"github.com/agentfinance/toolkit"
)

// Liquidity states.
const (
	LiquidityNormal   = "NORMAL"
	LiquidityThinning = "THINNING"
	LiquidityStressed = "STRESSED"
	LiquiditySpike    = "SPIKE"
)

// Liquidity rules (finance-methods.md §5.7), pinned.
const (
	LiquidityMinBars         = 2
	LiquidityDefaultPeriod   = 20
	LiquiditySpikeZ          = 3.0 // log-volume z-score at or above: SPIKE
	LiquiditySpikeRVOL       = 3.0 // or relative volume at or above: SPIKE
	LiquidityStressPct       = 90  // Amihud percentile at or above...
	LiquidityStressRange     = 1.5 // ...with range expansion at or above: STRESSED
	LiquidityStressMinValues = 10  // Amihud values needed to rank (else no STRESSED)
	LiquidityThinRatio       = 0.6 // short/long mean volume below: THINNING
	LiquidityPctWindow       = 200 // Amihud ranked over the last ≤200 rolling values
)

// LiquidityResult is the answer of analyze_liquidity. Nullable fields are
// null when the input is too short or degenerate for them (see each).
type LiquidityResult struct {
	State            string         `json:"state"`              // NORMAL | THINNING | STRESSED | SPIKE
	Reasons          []string       `json:"reasons"`            // the rule that decided
	Period           int            `json:"period"`             // requested baseline window
	BaselineBars     int            `json:"baseline_bars"`      // bars in the baseline actually used: min(period, bars-1)
	VolumeZScore     *toolkit.Float `json:"volume_z_score"`     // (ln v_t - mean ln v)/sd over the baseline (population sd); null if sd is 0, fewer than 2 baseline bars with volume, or v_t is 0
	RelativeVolume   *toolkit.Float `json:"relative_volume"`    // v_t / mean volume of the baseline; null if that mean is 0
	RangeExpansion   *toolkit.Float `json:"range_expansion"`    // (h_t - l_t) / mean(h - l) of the baseline; null if that mean is 0
	Amihud           *toolkit.Float `json:"amihud_illiquidity"` // mean over the last baseline-many bars of |ln(c_t/c_{t-1})|/(c_t·v_t), × 1e6; null without a usable bar
	AmihudPercentile *toolkit.Float `json:"amihud_percentile"`  // 0-100 mid-rank of the current Amihud among its last ≤200 rolling values; null with fewer than 10
	VolumeTrendRatio toolkit.Float  `json:"volume_trend_ratio"` // mean volume of the last short window / of the last long window
	ShortWindow      int            `json:"short_window"`       // min(5, ceil(bars/4))
	LongWindow       int            `json:"long_window"`        // min(50, bars)
	ZeroVolumeBars   int            `json:"zero_volume_bars"`   // bars with volume 0 (skipped by log volume and Amihud)
	Bars             int            `json:"bars"`
}

// AnalyzeLiquidity classifies the liquidity of the last bar (bars oldest
// first, at least 2; period ≥ 2 is the baseline window, nil for the
// default 20, shrunk to bars-1 when fewer bars are given). Rules, first match wins:
//
//   - SPIKE: log-volume z-score ≥ 3 or relative volume ≥ 3;
//   - STRESSED: Amihud illiquidity percentile ≥ 90 (needs ≥ 10 rolling
//     values) and range expansion ≥ 1.5;
//   - THINNING: mean volume of the last short window is below 0.6 × that
//     of the long window;
//   - NORMAL otherwise.
//
// The baseline is the bars before the last one, so the last bar is
// compared with its own history. A single bar is the InsufficientBars
// answer (see Answer).
func AnalyzeLiquidity(ctx context.Context, bars []Bar, baseline *int) (Answer[LiquidityResult], error) {
	return analyse(ctx, "analyze_liquidity", bars, LiquidityMinBars, func() (*LiquidityResult, error) { return analyzeLiquidity(bars, baseline) })
}

// analyzeLiquidity is AnalyzeLiquidity on enough valid bars.
func analyzeLiquidity(bars []Bar, baseline *int) (*LiquidityResult, error) {
	period := orDefault(baseline, LiquidityDefaultPeriod)
	if err := checkPeriod("period", period, 2); err != nil {
		return nil, err
	}
	n := len(bars)
	last := n - 1
	w := min(period, n-1)
	base := last - w // baseline = bars base..last-1
	res := &LiquidityResult{Period: period, BaselineBars: w, Bars: n}
	for i := range bars {
		if bars[i].Volume == 0 {
			res.ZeroVolumeBars++
		}
	}
	// Only the last bars enter the figures: the baseline window, the ≤200
	// rolling Amihud windows ending at the last bars and the volume-trend
	// windows. c holds their columns at the bars' own indexes (from lo on).
	res.ShortWindow = min(5, (n+3)/4)
	res.LongWindow = min(50, n)
	start := max(w, n-LiquidityPctWindow) // first window end that is ranked
	lo := min(base, start-w+1, n-res.LongWindow)
	s := getScratch(6 * n)
	defer s.release()
	c := s.columnsFrom(bars, lo)

	liquidityBaseline(res, c, base, last)
	amihudPct := liquidityAmihud(res, s, c, bars, start, w)
	ratio := liquidityVolumeTrend(res, c)
	liquidityState(res, amihudPct, ratio)
	return res, nil
}

// liquidityBaseline sets the volume z-score on log volume, the relative
// volume and the range expansion of the last bar against the baseline
// bars base..last-1.
func liquidityBaseline(res *LiquidityResult, c OHLCV, base, last int) {
	w := float64(last - base)
	var lv []float64
	vsum, rsum := 0.0, 0.0
	for i := base; i < last; i++ {
		vsum += c.Volume[i]
		rsum += c.High[i] - c.Low[i]
		if c.Volume[i] > 0 {
			lv = append(lv, math.Log(c.Volume[i]))
		}
	}
	vT := c.Volume[last]
	if len(lv) >= 2 && vT > 0 {
		m := meanOf(lv)
		ss := 0.0
		for _, x := range lv {
			ss += (x - m) * (x - m)
		}
		if sd := math.Sqrt(ss / float64(len(lv))); sd > 0 {
			res.VolumeZScore = flp((math.Log(vT) - m) / sd)
		}
	}
	if vsum > 0 {
		res.RelativeVolume = flp(vT / (vsum / w))
	}
	if rsum > 0 {
		res.RangeExpansion = flp((c.High[last] - c.Low[last]) / (rsum / w))
	}
}

// liquidityAmihud sets the Amihud illiquidity of the window of w bars
// ending at the last bar and, with enough values, its percentile among the
// rolling windows ending at start..last; it returns that percentile (0
// when there is none).
func liquidityAmihud(res *LiquidityResult, s *scratch, c OHLCV, bars []Bar, start, w int) float64 {
	rolling, ok := amihudRolling(s, c, bars, start, w)
	if !ok { // the window ending at the last bar has no usable bar
		return 0
	}
	cur := rolling[len(rolling)-1]
	res.Amihud = flp(cur)
	if len(rolling) < LiquidityStressMinValues {
		return 0
	}
	pct := 100 * midRank(rolling, cur)
	res.AmihudPercentile = flp(pct)
	return pct
}

// amihudRolling is the rolling mean of |r|/(c·v) × 1e6 over w bars, for
// the windows ending at start..n-1 that hold a usable bar (volume above
// 0), and whether the last window does. The first window starts at
// start-w+1 >= 1, so every bar used has a previous close.
func amihudRolling(s *scratch, c OHLCV, bars []Bar, start, w int) ([]float64, bool) {
	n := len(bars)
	illiq := s.floats(n) // -1 where undefined (zero volume)
	for i := start - w + 1; i < n; i++ {
		illiq[i] = -1
		if c.Volume[i] > 0 {
			illiq[i] = math.Abs(math.Log(c.Close[i]/float64(bars[i-1].Close))) / (c.Close[i] * c.Volume[i]) * 1e6
		}
	}
	sum, k := 0.0, 0
	for i := start - w + 1; i <= start; i++ {
		if illiq[i] >= 0 {
			sum += illiq[i]
			k++
		}
	}
	rolling := s.floats(n - start)[:0]
	for end := start; end < n; end++ {
		if end > start {
			if illiq[end] >= 0 {
				sum += illiq[end]
				k++
			}
			if old := end - w; illiq[old] >= 0 {
				sum -= illiq[old]
				k--
			}
			if k == 0 {
				sum = 0
			}
		}
		if k > 0 {
			rolling = append(rolling, sum/float64(k))
		}
	}
	return rolling, k > 0
}

// liquidityVolumeTrend sets and returns the ratio of the mean volume of the
// short window to that of the long window (1 when the long mean is 0).
func liquidityVolumeTrend(res *LiquidityResult, c OHLCV) float64 {
	n := len(c.Volume)
	shortM := meanOf(c.Volume[n-res.ShortWindow:])
	longM := meanOf(c.Volume[n-res.LongWindow:])
	ratio := 1.0
	if longM > 0 {
		ratio = shortM / longM
	}
	res.VolumeTrendRatio = fl(ratio)
	return ratio
}

// liquidityState applies the rules in order (first match wins) and sets
// the state and the rule that decided.
func liquidityState(res *LiquidityResult, amihudPct, ratio float64) {
	switch {
	case res.VolumeZScore != nil && *res.VolumeZScore >= LiquiditySpikeZ:
		res.State, res.Reasons = LiquiditySpike, []string{"log-volume z-score >= 3"}
	case res.RelativeVolume != nil && *res.RelativeVolume >= LiquiditySpikeRVOL:
		res.State, res.Reasons = LiquiditySpike, []string{"relative volume >= 3"}
	case res.AmihudPercentile != nil && amihudPct >= LiquidityStressPct &&
		res.RangeExpansion != nil && *res.RangeExpansion >= LiquidityStressRange:
		res.State, res.Reasons = LiquidityStressed, []string{"Amihud illiquidity percentile >= 90", "range expansion >= 1.5"}
	case ratio < LiquidityThinRatio:
		res.State, res.Reasons = LiquidityThinning, []string{"short-window mean volume < 0.6 x long-window mean"}
	default:
		res.State, res.Reasons = LiquidityNormal, []string{"no spike, stress or thinning rule met"}
	}
}
