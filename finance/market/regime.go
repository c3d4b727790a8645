package market

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
)

// The market regimes.
const (
	RegimeTrendingUp   = "TRENDING_UP"
	RegimeTrendingDown = "TRENDING_DOWN"
	RegimeRanging      = "RANGING"
	RegimeLowVol       = "LOW_VOLATILITY"
	RegimeVolatile     = "VOLATILE"
)

// Regime rules (finance-methods.md §5.1). They are the project's choice,
// pinned here, in the docs and in the tests.
const (
	RegimeMinBars       = 200  // bars required by DetectRegime
	RegimeADXPeriod     = 14   // ADX, ATR period
	RegimeADXTrend      = 25.0 // ADX at or above: trending
	RegimeADXRange      = 20.0 // ADX below: ranging (20-25 is ambiguous)
	RegimeSMAPeriod     = 200  // long SMA, shortened to bars-20 when fewer bars
	RegimeSlopeBars     = 20   // slope of the long SMA over this many bars
	RegimeSlopeMin      = 0.05 // |SMA slope| in ATR per bar needed for a trend
	RegimePctWindow     = 200  // NATR percentile over the last this many values
	RegimeVolatilePct   = 90.0 // NATR percentile at or above: VOLATILE
	RegimeLowVolPct     = 15.0 // NATR percentile at or below: LOW_VOLATILITY
	RegimeVolatileRatio = 1.3  // and NATR at least this multiple of its window median: VOLATILE
	RegimeLowVolRatio   = 0.8  // and NATR at most this multiple of its window median: LOW_VOLATILITY
	regimeSlopeForFull  = 0.20 // slope giving full slope confidence
)

// RegimeEvidence holds the components the regime is decided from.
type RegimeEvidence struct {
	ADX                 toolkit.Float `json:"adx"`                   // ADX(14), TA-Lib
	PlusDI              toolkit.Float `json:"plus_di"`               // +DI(14)
	MinusDI             toolkit.Float `json:"minus_di"`              // -DI(14)
	ATR                 toolkit.Float `json:"atr"`                   // ATR(14), Wilder
	NATRPct             toolkit.Float `json:"natr_pct"`              // 100·ATR/close
	ATRPercentile       toolkit.Float `json:"atr_percentile"`        // 0-100, mid-rank of today's NATR
	ATRPercentileWindow int           `json:"atr_percentile_window"` // NATR values ranked
	ATRRatio            toolkit.Float `json:"atr_ratio"`             // NATR / median NATR of the window
	SMAPeriod           int           `json:"sma_period"`            // long SMA period used
	SMA                 toolkit.Float `json:"sma"`                   // long SMA at the last bar
	SMASlope            toolkit.Float `json:"sma_slope"`             // (SMA_t-SMA_{t-20})/(20·ATR_t)
	PriceVsSMAPct       toolkit.Float `json:"price_vs_sma_pct"`      // 100·(close/SMA - 1)
	Close               toolkit.Float `json:"close"`                 // last close
}

// RegimeResult is the answer of detect_regime.
type RegimeResult struct {
	Regime     string         `json:"regime"`     // one of the five regimes
	Confidence toolkit.Float  `json:"confidence"` // 0-1, see DetectRegime
	Evidence   RegimeEvidence `json:"evidence"`
	Reasons    []string       `json:"reasons"` // the rules that decided, in words
	Bars       int            `json:"bars"`
}

// DetectRegime classifies the market state at the last bar (bars oldest
// first, at least RegimeMinBars). Rules, first match wins:
//
//  1. ATR is exactly 0 (no range at all): LOW_VOLATILITY, confidence 1.
//  2. VOLATILE: the percentile of today's NATR (ATR14/close) among the last
//     200 NATR values is ≥ 90 and today's NATR is ≥ 1.3× their median.
//     Confidence 0.5 + 0.25·(pct-90)/10 + 0.25·min(1, (ratio-1.3)/1.3).
//  3. TRENDING_UP / TRENDING_DOWN: ADX(14) ≥ 25, the slope of the long SMA
//     (200, or bars-20 when shorter) over the last 20 bars, in ATR per bar,
//     is ≥ +0.05 (≤ -0.05), the close is above (below) that SMA, and the
//     directional indicators agree: +DI > -DI (-DI > +DI). A trend is never
//     reported against the direction of the DIs: when ADX ≥ 25 but the SMA
//     and the DIs disagree, the rules go on (the market is ranging, the
//     reasons say so).
//     Confidence 0.4 + 0.3·min(1, (ADX-20)/20) + 0.3·min(1, |slope|/0.2).
//  4. LOW_VOLATILITY: NATR percentile ≤ 15 and NATR ≤ 0.8× the median.
//     Confidence 0.5 + 0.25·(15-pct)/15 + 0.25·(0.8-ratio)/0.8.
//  5. RANGING otherwise. Confidence 0.5 + 0.5·min(1, max(0, (25-ADX)/15)).
//
// The percentile is a mid-rank: (values below + half the values equal)/N,
// so ties (a flat history) sit at 50. The ratio to the median keeps a
// stationary series from being called VOLATILE or LOW_VOLATILITY merely for
// being at the edge of its own ordinary range.
//
// Fewer than RegimeMinBars bars is the InsufficientBars answer (see Answer).
func DetectRegime(ctx context.Context, bars []Bar) (Answer[RegimeResult], error) {
	return analyse(ctx, "detect_regime", bars, RegimeMinBars, func() (*RegimeResult, error) { return detectRegime(bars) })
}

// regimeScratchFloats is the float64 scratch of detect_regime per bar: the
// columns (5), ADX, +DI, -DI and ATR.
const regimeScratchFloats = 9

// smaTail returns the SMA of x over period at the last k bars only (a
// Series whose First is len(x)-k), in scratch memory.
func smaTail(s *scratch, x []float64, period, k int) (Series, error) {
	k = min(k, len(x)-period+1)
	from := len(x) - k - period + 1
	tail, err := SMAInto(s.floats(k), x[from:], period)
	tail.First += from
	return tail, err
}

// detectRegime is DetectRegime on enough valid bars.
func detectRegime(bars []Bar) (*RegimeResult, error) {
	n := len(bars)
	s := getScratch(regimeScratchFloats * n)
	defer s.release()
	c := s.columns(bars)
	dir, err := DirectionalInto(s.floats(n), s.floats(n), s.floats(n), c.High, c.Low, c.Close, RegimeADXPeriod)
	if err != nil {
		return nil, err
	}
	atr, err := ATRInto(s.floats(n), c.High, c.Low, c.Close, RegimeADXPeriod)
	if err != nil {
		return nil, err
	}
	smaPeriod := min(RegimeSMAPeriod, n-RegimeSlopeBars)
	sma, err := smaTail(s, c.Close, smaPeriod, RegimeSlopeBars+1)
	if err != nil {
		return nil, err
	}
	last := n - 1
	closeT := c.Close[last]
	adx, _ := dir.ADX.Last()
	pdi, _ := dir.PlusDI.Last()
	mdi, _ := dir.MinusDI.Last()
	atrT, _ := atr.Last()
	smaT, _ := sma.Last()
	smaPast, _ := sma.At(last - RegimeSlopeBars)

	// NATR of the last (up to) 200 bars, ranked.
	from := max(atr.First, n-RegimePctWindow)
	natr := s.floats(n - from)[:0]
	for i := from; i < n; i++ {
		a, _ := atr.At(i)
		natr = append(natr, a/c.Close[i])
	}
	pct := 100 * midRank(natr, atrT/closeT)
	ratio := 1.0
	if med := median(s, natr); med > 0 {
		ratio = atrT / closeT / med
	}
	slope := 0.0
	if atrT > 0 {
		slope = (smaT - smaPast) / (RegimeSlopeBars * atrT)
	}
	ev := RegimeEvidence{
		ADX: fl(adx), PlusDI: fl(pdi), MinusDI: fl(mdi), ATR: fl(atrT), NATRPct: fl(100 * atrT / closeT),
		ATRPercentile: fl(pct), ATRPercentileWindow: len(natr), ATRRatio: fl(ratio), SMAPeriod: smaPeriod, SMA: fl(smaT),
		SMASlope: fl(slope), PriceVsSMAPct: fl(100 * (closeT/smaT - 1)), Close: fl(closeT),
	}
	res := &RegimeResult{Evidence: ev, Bars: n}
	res.Regime, res.Confidence, res.Reasons = classifyRegime(regimeInputs{adx: adx, plusDI: pdi, minusDI: mdi, atr: atrT,
		pct: pct, ratio: ratio, slope: slope, close: closeT, sma: smaT})
	return res, nil
}

// regimeInputs are the figures the regime is decided from (see
// DetectRegime).
type regimeInputs struct {
	adx, plusDI, minusDI, atr, pct, ratio, slope, close, sma float64
}

// classifyRegime applies the rules of DetectRegime.
func classifyRegime(in regimeInputs) (string, toolkit.Float, []string) {
	adx, atr, pct, ratio, slope, closeT, sma := in.adx, in.atr, in.pct, in.ratio, in.slope, in.close, in.sma
	switch {
	case atr == 0:
		return RegimeLowVol, 1, []string{"ATR is 0: the bars have no range"}
	case pct >= RegimeVolatilePct && ratio >= RegimeVolatileRatio:
		return RegimeVolatile, fl(0.5 + 0.25*clamp01((pct-RegimeVolatilePct)/(100-RegimeVolatilePct)) +
				0.25*clamp01((ratio-RegimeVolatileRatio)/RegimeVolatileRatio)),
			[]string{fmt.Sprintf("NATR percentile %.1f >= %.0f", pct, RegimeVolatilePct),
				fmt.Sprintf("NATR %.2fx its median >= %.2fx", ratio, RegimeVolatileRatio)}
	}
	trendConf := 0.4 + 0.3*clamp01((adx-RegimeADXRange)/20) + 0.3*clamp01(math.Abs(slope)/regimeSlopeForFull)
	diWhy := fmt.Sprintf("+DI %.1f vs -DI %.1f", in.plusDI, in.minusDI)
	smaUp, smaDown := slope >= RegimeSlopeMin && closeT > sma, slope <= -RegimeSlopeMin && closeT < sma
	if adx >= RegimeADXTrend {
		adxWhy := fmt.Sprintf("ADX %.1f >= %.0f", adx, RegimeADXTrend)
		if smaUp && in.plusDI > in.minusDI {
			return RegimeTrendingUp, fl(trendConf), []string{adxWhy,
				fmt.Sprintf("SMA slope %+.3f ATR/bar >= %+.2f", slope, RegimeSlopeMin), "close above the SMA", diWhy + ": +DI leads"}
		}
		if smaDown && in.minusDI > in.plusDI {
			return RegimeTrendingDown, fl(trendConf), []string{adxWhy,
				fmt.Sprintf("SMA slope %+.3f ATR/bar <= %+.2f", slope, -RegimeSlopeMin), "close below the SMA", diWhy + ": -DI leads"}
		}
	}
	if pct <= RegimeLowVolPct && ratio <= RegimeLowVolRatio {
		return RegimeLowVol, fl(0.5 + 0.25*clamp01((RegimeLowVolPct-pct)/RegimeLowVolPct) +
				0.25*clamp01((RegimeLowVolRatio-ratio)/RegimeLowVolRatio)),
			[]string{fmt.Sprintf("NATR percentile %.1f <= %.0f", pct, RegimeLowVolPct),
				fmt.Sprintf("NATR %.2fx its median <= %.2fx", ratio, RegimeLowVolRatio)}
	}
	why := fmt.Sprintf("ADX %.1f < %.0f", adx, RegimeADXTrend)
	switch {
	case adx < RegimeADXTrend:
	case smaUp || smaDown:
		why = fmt.Sprintf("ADX %.1f but the directional indicators (%s) point against the SMA direction: no trend is reported", adx, diWhy)
	default:
		why = fmt.Sprintf("ADX %.1f but SMA slope %+.3f ATR/bar and the close do not agree on a direction", adx, slope)
	}
	return RegimeRanging, fl(0.5 + 0.5*clamp01((RegimeADXTrend-adx)/15)), []string{why}
}

// midRank returns (count below v + half the count equal to v)/len(xs).
func midRank(xs []float64, v float64) float64 {
	if len(xs) == 0 {
		return 0.5
	}
	below, equal := 0, 0
	for _, x := range xs {
		switch {
		case x < v:
			below++
		case x == v:
			equal++
		}
	}
	return (float64(below) + 0.5*float64(equal)) / float64(len(xs))
}

// median returns the median of xs (0 when empty) without modifying xs
// (it sorts a copy in scratch memory).
func median(sc *scratch, xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := sc.floats(len(xs))
	copy(s, xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
