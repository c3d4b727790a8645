package market

import (
	"context"
	"math"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// StructuralBreakMinBars is the fewest bars detect_structural_break
// analyses (220 returns); below it the tool answers insufficient_bars.
const StructuralBreakMinBars = 221

// Defaults and limits of BreakOptions.
const (
	DefaultBreakAlpha = 0.05
	DefaultBreakTrim  = 0.15
	MinBreakAlpha     = 0.001
	MaxBreakAlpha     = 0.20
	MinBreakTrim      = 0.05
	MaxBreakTrim      = 0.30
)

// supFCap bounds the sup-F statistic when a split explains (numerically)
// all the variation, where F would be infinite.
const supFCap = 1e12

// BreakOptions tunes detect_structural_break. A nil option takes its
// default.
type BreakOptions struct {
	// Alpha is the significance level of both tests, a fraction (default
	// 0.05, allowed 0.001..0.20).
	Alpha *float64
	// Trim is the fraction of returns excluded at each end from the sup-F
	// search (default 0.15, allowed 0.05..0.30).
	Trim *float64
}

// BreakTest is the outcome of one break test.
type BreakTest struct {
	Statistic     toolkit.Float `json:"statistic"`
	PValue        toolkit.Float `json:"p_value"`
	CriticalValue toolkit.Float `json:"critical_value"` // at Alpha
	Reject        bool          `json:"reject"`
	// BreakIndex is the first bar of the candidate new regime (the bar
	// whose return opens the second segment).
	BreakIndex int `json:"break_index"`
}

// SegmentStats describes the log returns of one side of the break.
type SegmentStats struct {
	StartIndex int `json:"start_index"` // first bar whose return is in the segment
	EndIndex   int `json:"end_index"`   // last bar whose return is in the segment
	Returns    int `json:"returns"`
	// MeanReturn is the mean log return per bar.
	MeanReturn toolkit.Float `json:"mean_return"`
	// Volatility is the sample standard deviation (ddof 1) of the log
	// returns per bar.
	Volatility toolkit.Float `json:"volatility"`
}

// BreakReport is the result of detect_structural_break.
type BreakReport struct {
	BarsAnalyzed int           `json:"bars_analyzed"`
	Returns      int           `json:"returns"`
	Alpha        toolkit.Float `json:"alpha"`
	Trim         toolkit.Float `json:"trim"`
	// BreakDetected is SupF.Reject: the sup-F test is the decision rule.
	BreakDetected bool `json:"break_detected"`
	// BreakIndex is the sup-F location (reported even without a break).
	BreakIndex int `json:"break_index"`
	// BreakFraction is the share of returns before the break.
	BreakFraction toolkit.Float `json:"break_fraction"`
	SupF          BreakTest     `json:"sup_f"`
	Cusum         BreakTest     `json:"cusum"`
	Before        SegmentStats  `json:"before"`
	After         SegmentStats  `json:"after"`
	// MeanShift is After.MeanReturn - Before.MeanReturn.
	MeanShift toolkit.Float `json:"mean_shift"`
	// VolatilityRatio is After.Volatility / Before.Volatility; null when
	// the volatility before the break is 0.
	VolatilityRatio *toolkit.Float `json:"volatility_ratio"`
}

// DetectStructuralBreak tests the log returns of bars (oldest first) for a
// break in their mean:
//   - sup-F (Andrews 1993 / Quandt likelihood ratio): the largest Chow F
//     for a single mean shift over the splits with ⌊Trim·n⌋ to n − ⌊Trim·n⌋
//     returns before the break (R strucchange's Fstats(r ~ 1, from = Trim)),
//     with the p-value of Hansen's (1997) approximation as strucchange
//     computes it (sctest(type = "supF"), within 1e-6 of it; see
//     testdata/gen/strucchange.R) and the critical value that inverts it;
//   - OLS-CUSUM (Ploberger & Krämer 1992): sup|Σ(r - mean)| / (σ̂·√n),
//     σ̂ with ddof 1, with a Broadie–Glasserman–Kou discrete-monitoring
//     correction of +0.5826/√n, against the sup of a Brownian bridge
//     (Kolmogorov distribution).
//
// BreakDetected is the sup-F decision; Before/After describe the returns on
// each side of the sup-F split. A series without any variation gives
// statistics 0 and p-values 1. Fewer than StructuralBreakMinBars bars is
// the InsufficientBars answer (see Answer).
func DetectStructuralBreak(ctx context.Context, bars []Bar, opt BreakOptions) (Answer[BreakReport], error) {
	return analyse(ctx, "detect_structural_break", bars, StructuralBreakMinBars, func() (*BreakReport, error) {
		return detectStructuralBreak(ctx, bars, opt)
	})
}

// detectStructuralBreak is DetectStructuralBreak on enough valid bars.
func detectStructuralBreak(ctx context.Context, bars []Bar, opt BreakOptions) (*BreakReport, error) {
	alpha, trim := orDefault(opt.Alpha, DefaultBreakAlpha), orDefault(opt.Trim, DefaultBreakTrim)
	if !(alpha >= MinBreakAlpha && alpha <= MaxBreakAlpha) {
		return nil, invalid("alpha", "must be between %v and %v, got %v", MinBreakAlpha, MaxBreakAlpha, alpha)
	}
	if !(trim >= MinBreakTrim && trim <= MaxBreakTrim) {
		return nil, invalid("trim", "must be between %v and %v, got %v", MinBreakTrim, MaxBreakTrim, trim)
	}
	s := getScratch(len(bars))
	defer s.release()
	r := closeLogReturns(s.floats(len(bars)-1), bars)
	n := len(r)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	supF, m, cusum, mc := breakStatistics(r, trim)
	rep := &BreakReport{BarsAnalyzed: len(bars), Returns: n, Alpha: toolkit.Float(alpha), Trim: toolkit.Float(trim)}
	tau := float64(supFFrom(n, trim)) / float64(n)
	rep.SupF = BreakTest{Statistic: toolkit.Float(supF), PValue: toolkit.Float(supFPValue(supF, tau)),
		CriticalValue: toolkit.Float(supFCritical(alpha, tau)), BreakIndex: m + 1}
	rep.SupF.Reject = float64(rep.SupF.PValue) < alpha
	rep.Cusum = BreakTest{Statistic: toolkit.Float(cusum), PValue: toolkit.Float(1 - kolmogorovCDF(cusum)),
		CriticalValue: toolkit.Float(kolmogorovQuantile(1 - alpha)), BreakIndex: mc + 1}
	rep.Cusum.Reject = float64(rep.Cusum.PValue) < alpha
	rep.BreakDetected = rep.SupF.Reject
	rep.BreakIndex = m + 1
	rep.BreakFraction = toolkit.Float(float64(m) / float64(n))
	rep.Before = segmentStats(r[:m], 1)
	rep.After = segmentStats(r[m:], m+1)
	rep.MeanShift = rep.After.MeanReturn - rep.Before.MeanReturn
	if rep.Before.Volatility > 0 {
		v := rep.After.Volatility / rep.Before.Volatility
		rep.VolatilityRatio = &v
	}
	return rep, nil
}

// breakStatistics returns the sup-F statistic and its split m (returns
// before the break), and the bias-corrected OLS-CUSUM statistic and the
// split at its maximum. r needs at least 4 values.
func breakStatistics(r []float64, trim float64) (supF float64, m int, cusum float64, mc int) {
	n := len(r)
	mean := 0.0
	for _, v := range r {
		mean += v
	}
	mean /= float64(n)
	ssr := 0.0
	for _, v := range r {
		ssr += (v - mean) * (v - mean)
	}
	lo := supFFrom(n, trim)
	hi := n - lo
	m, mc = lo, lo
	if !(ssr > 0) {
		return 0, m, 0, mc
	}
	s, best, bestAbs := 0.0, -1.0, -1.0
	for t := 1; t < n; t++ {
		s += r[t-1] - mean
		if a := math.Abs(s); a > bestAbs {
			bestAbs, mc = a, t
		}
		if t < lo || t > hi {
			continue
		}
		ess := s * s * float64(n) / (float64(t) * float64(n-t))
		rss := ssr - ess
		f := supFCap
		if rss > ssr*1e-14 {
			f = math.Min(supFCap, ess/(rss/float64(n-2)))
		}
		if f > best {
			best, m = f, t
		}
	}
	sigma := math.Sqrt(ssr / float64(n-1))
	cusum = bestAbs/(sigma*math.Sqrt(float64(n))) + cusumDiscreteCorrection/math.Sqrt(float64(n))
	return best, m, cusum, mc
}

// supFFrom is the fewest returns before a candidate split of the sup-F
// search, as in R strucchange's Fstats(from = trim): ⌊trim·n⌋, at least 2.
// The splits run from there to n − supFFrom.
func supFFrom(n int, trim float64) int {
	return max(int(math.Floor(trim*float64(n))), 2)
}

// cusumDiscreteCorrection is -ζ(1/2)/√(2π), the Broadie–Glasserman–Kou
// shift that maps a maximum over n discrete steps onto the continuous sup.
const cusumDiscreteCorrection = 0.5826

// segmentStats summarises the returns r whose first value belongs to bar
// first.
func segmentStats(r []float64, first int) SegmentStats {
	return SegmentStats{StartIndex: first, EndIndex: first + len(r) - 1, Returns: len(r),
		MeanReturn: toolkit.Float(performance.Mean(r)), Volatility: toolkit.Float(performance.SampleStdDev(r))}
}
