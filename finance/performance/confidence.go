package performance

import (
	"context"
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
	"gonum.org/v1/gonum/stat/distuv"
)

// Defaults and limits of AnalyzeConfidence.
const (
	// DefaultConfidenceLevel is the two-sided confidence level used when
	// none is given.
	DefaultConfidenceLevel = 0.95
	// DefaultBootstrapSamples is the number of bootstrap resamples used
	// when none is given; it is also the maximum.
	DefaultBootstrapSamples = 10_000
	// MinBootstrapSamples is the smallest accepted number of resamples.
	MinBootstrapSamples = 100
	// MinConfidenceLevel and MaxConfidenceLevel bound the confidence level.
	MinConfidenceLevel = 0.5
	// MaxConfidenceLevel is the largest accepted confidence level.
	MaxConfidenceLevel = 0.999
)

// ConfidenceOptions configures AnalyzeConfidence. A nil option takes its
// default.
type ConfidenceOptions struct {
	// Level is the two-sided confidence level in [0.5, 0.999], a fraction;
	// nil means 0.95.
	Level *float64
	// Samples is the number of bootstrap resamples in [100, 10000]; nil
	// means 10000.
	Samples *int
	// Seed seeds the bootstrap; the same seed and input give bit-identical
	// results on any number of cores.
	Seed uint64
}

// Interval is a two-sided confidence interval.
type Interval struct {
	Lower toolkit.Float `json:"lower"`
	Upper toolkit.Float `json:"upper"`
}

// ConfidenceResult is the answer of AnalyzeConfidence.
type ConfidenceResult struct {
	TradeCount       int           `json:"trade_count"`
	ConfidenceLevel  toolkit.Float `json:"confidence_level"`
	BootstrapSamples int           `json:"bootstrap_samples"`
	Seed             uint64        `json:"seed"`
	// MeanR is the expectancy, mean(R).
	MeanR toolkit.Float `json:"mean_r"`
	// StdDevR is the sample standard deviation of R (ddof 1).
	StdDevR toolkit.Float `json:"stdev_r"`
	// StandardError is StdDevR/sqrt(n).
	StandardError toolkit.Float `json:"standard_error"`
	// MeanRTInterval is mean ± t(1-α/2, n-1)·s/√n.
	MeanRTInterval Interval `json:"mean_r_t_interval"`
	// TCritical is the Student-t quantile t(1-α/2, n-1) used above.
	TCritical toolkit.Float `json:"t_critical"`
	// MeanRBootstrapCI is the bootstrap percentile interval of mean(R).
	MeanRBootstrapCI Interval `json:"mean_r_bootstrap_ci"`
	// WinRate is #(R > 0)/n; breakevens count as non-wins.
	WinRate toolkit.Float `json:"win_rate"`
	// WinRateBootstrapCI is the bootstrap percentile interval of the win rate.
	WinRateBootstrapCI Interval `json:"win_rate_bootstrap_ci"`
	// WinRateWilsonCI is the Wilson score interval of the win rate.
	WinRateWilsonCI Interval `json:"win_rate_wilson_ci"`
	// ProbabilityEdgePositive is the share of bootstrap resamples whose
	// mean R is strictly positive.
	ProbabilityEdgePositive toolkit.Float `json:"probability_edge_positive"`
	// TStatistic is mean/(s/√n); null when s = 0.
	TStatistic *toolkit.Float `json:"t_statistic"`
	// PValueOneSided is P(T ≥ t) under H0: mean R ≤ 0, T ~ t(n-1); null
	// when s = 0.
	PValueOneSided *toolkit.Float `json:"p_value_one_sided"`
	// EdgeSignificant is true when PValueOneSided < 1 - confidence level.
	EdgeSignificant bool     `json:"edge_significant"`
	Warnings        []string `json:"warnings"`
	Conventions     []string `json:"conventions"`
}

// AnalyzeConfidence estimates how sure we can be that an R series has an
// edge.
//
//   - Mean R: the Student-t interval mean ± t(1-α/2, n-1)·s/√n (s with
//     ddof 1) and the bootstrap percentile interval (type-7 quantiles at
//     α/2 and 1-α/2 of the resampled means).
//   - Win rate (R > 0 is a win; breakevens count in n): the bootstrap
//     percentile interval and the Wilson score interval.
//   - Probability the edge is positive: the share of resamples with mean
//     R > 0; the one-sided t-test p-value of H0: mean R ≤ 0 is also given.
//
// The bootstrap draws resample i from its own SplitMix64 stream seeded by
// (seed, i), so the result is bit-identical whatever GOMAXPROCS is; indices
// are drawn by Lemire's multiply-shift on 32-bit halves (bias below
// n/2^32). It needs at least 2 values; fewer than 30 adds a warning. The
// resampling checks ctx about every 65,536 draws and returns ctx.Err()
// once ctx is done.
func AnalyzeConfidence(ctx context.Context, r []float64, opt ConfidenceOptions) (*ConfidenceResult, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return nil, err
	}
	level, samples := orDefault(opt.Level, DefaultConfidenceLevel), orDefault(opt.Samples, DefaultBootstrapSamples)
	if !(level >= MinConfidenceLevel && level <= MaxConfidenceLevel) {
		return nil, invalid("confidence", "must be between %v and %v", MinConfidenceLevel, MaxConfidenceLevel)
	}
	if err := validateCount("bootstrap_samples", samples, MinBootstrapSamples, DefaultBootstrapSamples); err != nil {
		return nil, err
	}
	n := len(r)
	nf := float64(n)
	alpha := 1 - level
	mean, sd := meanStd(r)
	se := sd / math.Sqrt(nf)
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 1}.Quantile(1 - alpha/2)
	wins := winCount(r)
	p := float64(wins) / nf

	means := make([]float64, samples)
	winCounts := make([]int32, samples)
	if err := bootstrapMeans(ctx, r, opt.Seed, means, winCounts); err != nil {
		return nil, err
	}
	positive := 0
	for _, m := range means {
		if m > 0 {
			positive++
		}
	}
	slices.Sort(means)
	hist := make([]int, n+1)
	for _, w := range winCounts {
		hist[w]++
	}

	res := &ConfidenceResult{
		TradeCount:       n,
		ConfidenceLevel:  toolkit.Float(level),
		BootstrapSamples: samples,
		Seed:             opt.Seed,
		MeanR:            toolkit.Float(mean),
		StdDevR:          toolkit.Float(sd),
		StandardError:    toolkit.Float(se),
		MeanRTInterval:   Interval{toolkit.Float(mean - tq*se), toolkit.Float(mean + tq*se)},
		TCritical:        toolkit.Float(tq),
		MeanRBootstrapCI: Interval{
			toolkit.Float(quantileSorted(means, alpha/2)), toolkit.Float(quantileSorted(means, 1-alpha/2)),
		},
		WinRate: toolkit.Float(p),
		WinRateBootstrapCI: Interval{
			toolkit.Float(histQuantile(hist, samples, alpha/2) / nf),
			toolkit.Float(histQuantile(hist, samples, 1-alpha/2) / nf),
		},
		WinRateWilsonCI:         wilsonInterval(wins, n, distuv.UnitNormal.Quantile(1-alpha/2)),
		ProbabilityEdgePositive: toolkit.Float(float64(positive) / float64(samples)),
		Warnings:                []string{},
		Conventions: []string{
			"stdev_r uses ddof 1; standard_error = stdev_r/sqrt(n)",
			"mean_r_t_interval = mean ± t(1-α/2, n-1)·standard_error",
			"bootstrap intervals: percentile method, type-7 quantiles of the resampled statistic at α/2 and 1-α/2",
			"win: R > 0; breakevens (R = 0) count as non-wins in n",
			"probability_edge_positive = share of bootstrap resamples with mean R > 0",
			"p_value_one_sided tests H0: mean R <= 0 with Student's t (n-1 degrees of freedom)",
			"resample i uses its own SplitMix64 stream seeded from (seed, i): identical on any core count",
		},
	}
	if se > 0 {
		t := mean / se
		pv := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 1}.Survival(t)
		res.TStatistic, res.PValueOneSided = finiteOrNil(t), finiteOrNil(pv)
		res.EdgeSignificant = pv < alpha
	}
	if n < 30 {
		res.Warnings = append(res.Warnings, "fewer than 30 trades: the intervals are unreliable")
	}
	if se == 0 {
		res.Warnings = append(res.Warnings, "all R values are equal: the t statistic is undefined")
	}
	return res, nil
}

// wilsonInterval returns the Wilson score interval of wins successes in n trials
// at normal quantile z.
func wilsonInterval(wins, n int, z float64) Interval {
	nf := float64(n)
	p := float64(wins) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{toolkit.Float(math.Max(0, center-half)), toolkit.Float(math.Min(1, center+half))}
}

// histQuantile returns the type-7 p-quantile of total integer samples
// given as a histogram (hist[v] = how many samples equal v).
func histQuantile(hist []int, total int, p float64) float64 {
	h := float64(total-1) * p
	lo := int(math.Floor(h))
	a := histOrderStat(hist, lo)
	if lo+1 >= total {
		return float64(a)
	}
	b := histOrderStat(hist, lo+1)
	return float64(a) + (h-float64(lo))*float64(b-a)
}

// histOrderStat returns the k-th smallest (0-based) sample of a histogram.
func histOrderStat(hist []int, k int) int {
	seen := 0
	for v, c := range hist {
		seen += c
		if seen > k {
			return v
		}
	}
	return len(hist) - 1
}
