package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
	"gonum.org/v1/gonum/stat/distuv"
)

// Histogram bucket-count bounds of AnalyzeDistribution.
const (
	DefaultBucketCount = 10
	MaxBucketCount     = 1000
)

// HistogramBucket is one equal-width bucket [Lower, Upper); the last
// bucket also holds its upper edge (the maximum).
type HistogramBucket struct {
	Lower toolkit.Float `json:"lower"`
	Upper toolkit.Float `json:"upper"`
	Count int           `json:"count"`
	// Share is Count/n.
	Share toolkit.Float `json:"share"`
}

// Quantiles are type-7 quantiles of R.
type Quantiles struct {
	P1  toolkit.Float `json:"p1"`
	P5  toolkit.Float `json:"p5"`
	P10 toolkit.Float `json:"p10"`
	P25 toolkit.Float `json:"p25"`
	P50 toolkit.Float `json:"p50"`
	P75 toolkit.Float `json:"p75"`
	P90 toolkit.Float `json:"p90"`
	P95 toolkit.Float `json:"p95"`
	P99 toolkit.Float `json:"p99"`
}

// DistributionResult is the answer of AnalyzeDistribution.
type DistributionResult struct {
	TradeCount  int               `json:"trade_count"`
	BucketCount int               `json:"bucket_count"`
	Histogram   []HistogramBucket `json:"histogram"`
	Mean        toolkit.Float     `json:"mean"`
	Median      toolkit.Float     `json:"median"`
	// StdDev is the sample standard deviation (ddof 1).
	StdDev toolkit.Float `json:"stdev"`
	Min    toolkit.Float `json:"min"`
	Max    toolkit.Float `json:"max"`
	// Skewness is the bias-adjusted G1 (n ≥ 3 and non-zero variance, else null).
	Skewness *toolkit.Float `json:"skewness"`
	// ExcessKurtosis is the bias-adjusted excess G2 (n ≥ 4 and non-zero
	// variance, else null).
	ExcessKurtosis *toolkit.Float `json:"excess_kurtosis"`
	// JarqueBera = n/6·(g1² + g2²/4) with the moment estimators g1, g2;
	// null with zero variance.
	JarqueBera *toolkit.Float `json:"jarque_bera"`
	// JarqueBeraPValue is the χ²(2) survival of JarqueBera.
	JarqueBeraPValue *toolkit.Float `json:"jarque_bera_p_value"`
	// NormalAt5Pct is true when the Jarque–Bera test does not reject
	// normality at 5 % (false with zero variance).
	NormalAt5Pct bool      `json:"normal_at_5pct"`
	Quantiles    Quantiles `json:"quantiles"`
	// InterquartileRange is P75 - P25.
	InterquartileRange toolkit.Float `json:"interquartile_range"`
	// TailRatio is |P95|/|P5| (null when P5 = 0).
	TailRatio *toolkit.Float `json:"tail_ratio"`
	// TailRatio9010 is |P90|/|P10| (null when P10 = 0).
	TailRatio9010 *toolkit.Float `json:"tail_ratio_90_10"`
	// ExpectedShortfall5Pct is the mean of the worst ceil(5 % of n) values.
	ExpectedShortfall5Pct toolkit.Float `json:"expected_shortfall_5pct"`
	// ExpectedUpside5Pct is the mean of the best ceil(5 % of n) values.
	ExpectedUpside5Pct toolkit.Float `json:"expected_upside_5pct"`
	Warnings           []string      `json:"warnings"`
	Conventions        []string      `json:"conventions"`
}

// AnalyzeDistribution describes the distribution of an R series.
//
// Histogram: bucketCount equal-width buckets from min(R) to max(R), edge i
// = min + i·(max - min)/k, bucket i = [edge i, edge i+1), the last bucket
// closed; with max = min every value is in bucket 0 and all edges equal
// min. buckets nil means 10; it must be 1..1000. Skewness and kurtosis
// are the bias-adjusted G1 and excess G2 (as pandas, Excel and gonum):
// G1 = g1·√(n(n-1))/(n-2), G2 = ((n+1)g2 + 6)(n-1)/((n-2)(n-3)), with the
// moment estimators g1 = m3/m2^1.5, g2 = m4/m2² - 3 (m_k central moments
// dividing by n). Jarque–Bera uses g1 and g2. Quantiles are Hyndman–Fan
// type 7. It needs at least 2 values.
func AnalyzeDistribution(r []float64, buckets *int) (*DistributionResult, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return nil, err
	}
	bucketCount := orDefault(buckets, DefaultBucketCount)
	if err := validateCount("bucket_count", bucketCount, 1, MaxBucketCount); err != nil {
		return nil, err
	}
	n := len(r)
	nf := float64(n)
	s := sortedCopy(r)
	mean, sd := meanStd(r)
	var m2, m3, m4 float64
	for _, x := range r {
		d := x - mean
		d2 := d * d
		m2 += d2
		m3 += d2 * d
		m4 += d2 * d2
	}
	m2, m3, m4 = m2/nf, m3/nf, m4/nf
	q := func(p float64) toolkit.Float { return toolkit.Float(quantileSorted(s, p)) }
	res := &DistributionResult{
		TradeCount:  n,
		BucketCount: bucketCount,
		Histogram:   histogramBuckets(r, s[0], s[n-1], bucketCount),
		Mean:        toolkit.Float(mean),
		Median:      q(0.5),
		StdDev:      toolkit.Float(sd),
		Min:         toolkit.Float(s[0]),
		Max:         toolkit.Float(s[n-1]),
		Quantiles: Quantiles{
			P1: q(0.01), P5: q(0.05), P10: q(0.10), P25: q(0.25), P50: q(0.5),
			P75: q(0.75), P90: q(0.90), P95: q(0.95), P99: q(0.99),
		},
		Warnings: []string{},
		Conventions: []string{
			"stdev: sample standard deviation, ddof 1",
			"skewness: bias-adjusted G1 = g1·sqrt(n(n-1))/(n-2), g1 = m3/m2^1.5 (needs n >= 3)",
			"excess_kurtosis: bias-adjusted G2 = ((n+1)·g2 + 6)·(n-1)/((n-2)(n-3)), g2 = m4/m2² - 3 (needs n >= 4)",
			"jarque_bera = n/6·(g1² + g2²/4) with the moment estimators g1, g2; p-value from χ²(2)",
			"quantiles: Hyndman–Fan type 7 (numpy default); median = p50",
			"histogram: bucket_count equal-width buckets [lower, upper) from min to max, last bucket closed",
			"tail_ratio = |p95|/|p5|; tail_ratio_90_10 = |p90|/|p10|",
			"expected_shortfall_5pct / expected_upside_5pct: mean of the worst / best ceil(0.05·n) values",
		},
	}
	res.InterquartileRange = res.Quantiles.P75 - res.Quantiles.P25
	res.TailRatio = ratioOrNil(math.Abs(float64(res.Quantiles.P95)), math.Abs(float64(res.Quantiles.P5)))
	res.TailRatio9010 = ratioOrNil(math.Abs(float64(res.Quantiles.P90)), math.Abs(float64(res.Quantiles.P10)))
	k := int(math.Ceil(0.05 * nf))
	var lo, hi float64
	for i := 0; i < k; i++ {
		lo += s[i]
		hi += s[n-1-i]
	}
	res.ExpectedShortfall5Pct = toolkit.Float(lo / float64(k))
	res.ExpectedUpside5Pct = toolkit.Float(hi / float64(k))

	if m2 > 0 {
		g1 := m3 / math.Pow(m2, 1.5)
		g2 := m4/(m2*m2) - 3
		if n >= 3 {
			res.Skewness = finiteOrNil(g1 * math.Sqrt(nf*(nf-1)) / (nf - 2))
		}
		if n >= 4 {
			res.ExcessKurtosis = finiteOrNil(((nf+1)*g2 + 6) * (nf - 1) / ((nf - 2) * (nf - 3)))
		}
		jb := nf / 6 * (g1*g1 + g2*g2/4)
		pv := distuv.ChiSquared{K: 2}.Survival(jb)
		res.JarqueBera, res.JarqueBeraPValue = finiteOrNil(jb), finiteOrNil(pv)
		res.NormalAt5Pct = pv >= 0.05
	} else {
		res.Warnings = append(res.Warnings, "all R values are equal: skewness, kurtosis and Jarque–Bera are undefined")
	}
	if n < 30 {
		res.Warnings = append(res.Warnings, "fewer than 30 trades: shape statistics are unreliable")
	}
	return res, nil
}

// histogramBuckets buckets r into k equal-width buckets between lo and hi.
// Bucket i holds lo+i·w <= x < lo+(i+1)·w as computed in float64 (the last
// one also holds hi), so membership agrees with the reported edges.
func histogramBuckets(r []float64, lo, hi float64, k int) []HistogramBucket {
	w := (hi - lo) / float64(k)
	edges := make([]float64, k+1)
	for i := range edges {
		edges[i] = lo + float64(i)*w
	}
	edges[k] = hi
	counts := make([]int, k)
	for _, x := range r {
		i := 0
		if w > 0 {
			i = min(k-1, int((x-lo)/w))
			for i > 0 && x < edges[i] {
				i--
			}
			for i < k-1 && x >= edges[i+1] {
				i++
			}
		}
		counts[i]++
	}
	out := make([]HistogramBucket, k)
	nf := float64(len(r))
	for i := range out {
		out[i] = HistogramBucket{
			Lower: toolkit.Float(edges[i]), Upper: toolkit.Float(edges[i+1]),
			Count: counts[i], Share: toolkit.Float(float64(counts[i]) / nf),
		}
	}
	return out
}
