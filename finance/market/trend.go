package market

import (
	"context"
	"math"

	"github.com/agentfinance/toolkit"
)

// Trend-structure states.
const (
	PhaseExpansion   = "EXPANSION"
	PhaseCompression = "COMPRESSION"
	PhaseTransition  = "TRANSITION"

	SqueezeNone    = "NONE"
	SqueezeForming = "FORMING"
	SqueezeActive  = "ACTIVE"
	SqueezeFiring  = "FIRING"

	MomentumAccelerating = "ACCELERATING"
	MomentumDecelerating = "DECELERATING"
	MomentumSteady       = "STEADY"
)

// Trend-structure parameters (finance-methods.md §5.4), pinned.
const (
	TrendMinBars       = 21  // bars required by AnalyzeTrendStructure
	TrendBBPeriod      = 20  // Bollinger: SMA20 ± 2 population σ
	TrendBBDev         = 2.0 //
	TrendKCPeriod      = 20  // Keltner: SMA20 ± 1.5 × ATR20 (Wilder, TA-Lib)
	TrendKCMult        = 1.5 //
	TrendPctWindow     = 100 // bandwidth percentile over the last ≤100 values
	TrendSlopeBars     = 5   // bandwidth slope: least squares over the last 5 values
	TrendFiringBars    = 3   // FIRING: released within the last 3 bars...
	TrendMinSqueeze    = 3   // ...after at least 3 squeeze bars
	TrendFormingRatio  = 1.1 // FORMING: BB/KC width ratio in (1, 1.1] and BB width falling
	TrendMomPeriod     = 12  // momentum: close - close 12 bars earlier...
	TrendMomSmooth     = 6   // ...smoothed by an SMA of 6 (pandas-ta squeeze)
	TrendSteadyATRFrac = 0.05
)

// TrendResult is the answer of analyze_trend_structure.
type TrendResult struct {
	Phase               string        `json:"phase"`                // EXPANSION | COMPRESSION | TRANSITION
	Squeeze             string        `json:"squeeze"`              // NONE | FORMING | ACTIVE | FIRING
	Momentum            string        `json:"momentum"`             // ACCELERATING | DECELERATING | STEADY
	Direction           string        `json:"direction"`            // UP | DOWN | FLAT: sign of the momentum value
	Bandwidth           toolkit.Float `json:"bandwidth"`            // (BB upper - lower)/middle at the last bar
	BandwidthPercentile toolkit.Float `json:"bandwidth_percentile"` // 0-100 mid-rank among the last ≤100 bandwidths
	BandwidthSlope      toolkit.Float `json:"bandwidth_slope"`      // per bar, least squares over the last ≤5 bandwidths
	BBWidth             toolkit.Float `json:"bb_width"`             // upper - lower (price units)
	KCWidth             toolkit.Float `json:"kc_width"`             // Keltner width 2·1.5·ATR20 (price units)
	WidthRatio          toolkit.Float `json:"width_ratio"`          // BB width / KC width
	SqueezeBars         int           `json:"squeeze_bars"`         // consecutive squeeze bars ending at the last bar (ACTIVE) or before the release (FIRING)
	MomentumValue       toolkit.Float `json:"momentum_value"`       // SMA6 of (close - close[-12]) at the last bar
	MomentumChange      toolkit.Float `json:"momentum_change"`      // change of that value over the last bar
	ATR                 toolkit.Float `json:"atr"`                  // ATR(14), the STEADY tolerance scale
	Bars                int           `json:"bars"`
}

// AnalyzeTrendStructure describes volatility phase, TTM-style squeeze and
// momentum at the last bar (bars oldest first, at least TrendMinBars).
//
// Phase uses the Bollinger bandwidth (U-L)/M: its mid-rank percentile among
// the last ≤100 values and its least-squares slope over the last ≤5 values.
// EXPANSION: slope > 0 and percentile ≥ 50; COMPRESSION: slope < 0 and
// percentile ≤ 50; otherwise TRANSITION (bandwidth turning: rising from low
// levels, falling from high ones, or flat).
//
// Squeeze compares BB(20, 2σ population) with Keltner KC(20) = SMA20 ±
// 1.5·ATR20 (same middle line, so the squeeze is on when 2σ < 1.5·ATR20).
// ACTIVE: on at the last bar. FIRING: off now, released within the last 3
// bars after at least 3 consecutive squeeze bars. FORMING: off, BB/KC width
// ratio in (1, 1.1] and BB width lower than one bar earlier. NONE otherwise.
//
// Momentum m = SMA6(close_t - close_{t-12}) (first value at bar 17).
// STEADY when |m_t - m_{t-1}| < 0.05·ATR14; ACCELERATING when |m| rose on
// each of the last two bars with an unchanged sign; DECELERATING when |m|
// fell on the last bar or its sign flipped; STEADY otherwise.
//
// Fewer than TrendMinBars bars is the InsufficientBars answer (see Answer).
func AnalyzeTrendStructure(ctx context.Context, bars []Bar) (Answer[TrendResult], error) {
	return analyse(ctx, "analyze_trend_structure", bars, TrendMinBars, func() (*TrendResult, error) { return analyzeTrendStructure(bars) })
}

// trendScratchFloats is the float64 scratch of analyze_trend_structure per
// bar: the columns (5), the Bollinger bands (3) and two ATRs.
const trendScratchFloats = 10

// analyzeTrendStructure is AnalyzeTrendStructure on enough valid bars.
func analyzeTrendStructure(bars []Bar) (*TrendResult, error) {
	n := len(bars)
	s := getScratch(trendScratchFloats * n)
	defer s.release()
	c := s.columns(bars)
	bb, err := BBandsInto(s.floats(n), s.floats(n), s.floats(n), c.Close, TrendBBPeriod, TrendBBDev)
	if err != nil {
		return nil, err
	}
	atrKC, err := ATRInto(s.floats(n), c.High, c.Low, c.Close, TrendKCPeriod)
	if err != nil {
		return nil, err
	}
	atr14, err := ATRInto(s.floats(n), c.High, c.Low, c.Close, 14)
	if err != nil {
		return nil, err
	}
	res := &TrendResult{Bars: n}
	trendPhase(res, s, bb, n)
	trendSqueeze(res, bb, atrKC, n-1)
	a14, _ := atr14.Last()
	trendMomentum(res, c.Close, a14)
	return res, nil
}

// trendPhase sets the bandwidth figures and the phase from the bandwidth
// series over the last ≤100 of the n bars.
func trendPhase(res *TrendResult, s *scratch, bb BBandsResult, n int) {
	bw := s.floats(min(TrendPctWindow, len(bb.Middle.Values)))[:0]
	for i := max(bb.Middle.First, n-TrendPctWindow); i < n; i++ {
		u, _ := bb.Upper.At(i)
		m, _ := bb.Middle.At(i)
		l, _ := bb.Lower.At(i)
		bw = append(bw, (u-l)/m)
	}
	bwT := bw[len(bw)-1]
	pct := 100 * midRank(bw, bwT)
	slope := slopeOf(bw[max(0, len(bw)-TrendSlopeBars):])
	res.Bandwidth, res.BandwidthPercentile, res.BandwidthSlope = fl(bwT), fl(pct), fl(slope)
	switch {
	case slope > 0 && pct >= 50:
		res.Phase = PhaseExpansion
	case slope < 0 && pct <= 50:
		res.Phase = PhaseCompression
	default:
		res.Phase = PhaseTransition
	}
}

// squeezeBands are the Bollinger bands and the Keltner ATR that decide
// whether a bar is in a squeeze.
type squeezeBands struct {
	bb    BBandsResult
	atrKC Series
}

// on reports whether the squeeze is on at bar i: the Bollinger width is
// inside the Keltner width.
func (q squeezeBands) on(i int) bool {
	u, _ := q.bb.Upper.At(i)
	l, _ := q.bb.Lower.At(i)
	a, ok := q.atrKC.At(i)
	return ok && u-l < 2*TrendKCMult*a
}

// run counts the consecutive squeeze bars ending at bar end.
func (q squeezeBands) run(end int) int {
	k := 0
	for i := end; i >= q.atrKC.First && q.on(i); i-- {
		k++
	}
	return k
}

// trendSqueeze sets the band widths, their ratio and the squeeze state at
// the last bar.
func trendSqueeze(res *TrendResult, bb BBandsResult, atrKC Series, last int) {
	q := squeezeBands{bb: bb, atrKC: atrKC}
	uT, _ := bb.Upper.At(last)
	lT, _ := bb.Lower.At(last)
	aT, _ := atrKC.At(last)
	kcW := 2 * TrendKCMult * aT
	res.BBWidth, res.KCWidth = fl(uT-lT), fl(kcW)
	ratio := 1.0
	if kcW > 0 {
		ratio = (uT - lT) / kcW
	} else if uT-lT > 0 {
		ratio = math.MaxFloat64
	}
	res.WidthRatio = fl(min(ratio, 1e12))
	res.Squeeze = SqueezeNone
	if q.on(last) {
		res.Squeeze, res.SqueezeBars = SqueezeActive, q.run(last)
		return
	}
	for k := 1; k <= TrendFiringBars && last-k >= atrKC.First; k++ {
		if q.on(last - k) {
			if r := q.run(last - k); r >= TrendMinSqueeze {
				res.Squeeze, res.SqueezeBars = SqueezeFiring, r
			}
			break
		}
	}
	if res.Squeeze == SqueezeNone && ratio > 1 && ratio <= TrendFormingRatio {
		uP, _ := bb.Upper.At(last - 1)
		lP, _ := bb.Lower.At(last - 1)
		if uT-lT < uP-lP {
			res.Squeeze = SqueezeForming
		}
	}
}

// trendMomentum sets the momentum value, its change, direction and state
// at the last close; a14 is the ATR(14) that scales the STEADY tolerance.
func trendMomentum(res *TrendResult, closes []float64, a14 float64) {
	last := len(closes) - 1
	res.ATR = fl(a14)
	mom := func(i int) float64 { // SMA6 of close - close[-12] ending at i
		s := 0.0
		for j := i - TrendMomSmooth + 1; j <= i; j++ {
			s += closes[j] - closes[j-TrendMomPeriod]
		}
		return s / TrendMomSmooth
	}
	m0, m1, m2 := mom(last), mom(last-1), mom(last-2)
	res.MomentumValue, res.MomentumChange = fl(m0), fl(m0-m1)
	switch {
	case m0 > 0:
		res.Direction = "UP"
	case m0 < 0:
		res.Direction = "DOWN"
	default:
		res.Direction = "FLAT"
	}
	sameSign := (m0 > 0 && m1 > 0 && m2 > 0) || (m0 < 0 && m1 < 0 && m2 < 0)
	switch {
	case math.Abs(m0-m1) < TrendSteadyATRFrac*a14:
		res.Momentum = MomentumSteady
	case sameSign && math.Abs(m0) > math.Abs(m1) && math.Abs(m1) > math.Abs(m2):
		res.Momentum = MomentumAccelerating
	case math.Abs(m0) < math.Abs(m1) || (m0 > 0) != (m1 > 0):
		res.Momentum = MomentumDecelerating
	default:
		res.Momentum = MomentumSteady
	}
}
