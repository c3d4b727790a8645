package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
	"gonum.org/v1/gonum/stat/distuv"
)

// SerialAlpha is the significance level of the serial-dependence verdicts.
const SerialAlpha = 0.05

// MaxLjungBoxLags bounds the lags of the Ljung–Box test.
const MaxLjungBoxLags = 100

// Runs-test readings.
const (
	DependenceStreaky     = "STREAKY"     // fewer runs than chance (Z < -1.96)
	DependenceAlternating = "ALTERNATING" // more runs than chance (Z > +1.96)
	DependenceRandom      = "RANDOM"      // no significant departure
	DependenceUndefined   = "UNDEFINED"   // no wins or no non-wins, or zero variance
)

// LjungBox is the Ljung–Box portmanteau test of R.
type LjungBox struct {
	// Lags is h, the number of autocorrelations tested.
	Lags int `json:"lags"`
	// Q = n(n+2)·Σ_{k=1..h} ρ_k²/(n-k); null when R has zero variance.
	Q *toolkit.Float `json:"q_statistic"`
	// PValue is the χ²(h) survival of Q.
	PValue *toolkit.Float `json:"p_value"`
	// Significant is PValue < 0.05.
	Significant bool `json:"significant"`
}

// RunsTest is the Wald–Wolfowitz runs test of the win/non-win sequence.
type RunsTest struct {
	Runs    int `json:"runs"`
	Wins    int `json:"wins"`
	NonWins int `json:"non_wins"`
	// ExpectedRuns μ = 2·n₁·n₂/n + 1.
	ExpectedRuns *toolkit.Float `json:"expected_runs"`
	// StdDev σ = √(2n₁n₂(2n₁n₂ - n)/(n²(n-1))).
	StdDev *toolkit.Float `json:"stdev_runs"`
	// Z = (runs - μ)/σ without continuity correction.
	Z *toolkit.Float `json:"z_score"`
	// PValue is the two-sided normal p-value 2·Φ(-|Z|).
	PValue      *toolkit.Float `json:"p_value"`
	Significant bool           `json:"significant"`
	// Dependence is STREAKY, ALTERNATING, RANDOM or UNDEFINED.
	Dependence string `json:"dependence"`
}

// SerialCorrelationResult is the answer of AnalyzeSerialCorrelation.
type SerialCorrelationResult struct {
	TradeCount int `json:"trade_count"`
	// AutocorrelationLag1 is ρ₁; null when R has zero variance.
	AutocorrelationLag1 *toolkit.Float `json:"autocorrelation_lag1"`
	// Lag1Significant is |ρ₁| > 1.96/√n.
	Lag1Significant bool `json:"lag1_significant"`
	// Autocorrelations holds ρ₁..ρ_h (empty when R has zero variance).
	Autocorrelations toolkit.Floats `json:"autocorrelations"`
	LjungBox         LjungBox       `json:"ljung_box"`
	RunsTest         RunsTest       `json:"runs_test"`
	// SerialDependence is true when the Ljung–Box or the runs test rejects
	// independence at 5 %.
	SerialDependence bool     `json:"serial_dependence"`
	Warnings         []string `json:"warnings"`
	Conventions      []string `json:"conventions"`
}

// DefaultLjungBoxLags returns the default number of Ljung–Box lags for n
// observations: min(10, n/4) with integer division, at least 1.
func DefaultLjungBoxLags(n int) int {
	return max(1, min(10, n/4))
}

// AnalyzeSerialCorrelation tests a chronological R series for serial
// dependence (tool analyze_correlation).
//
//   - ρ_k = Σ_{t>k}(x_t - x̄)(x_{t-k} - x̄) / Σ_t(x_t - x̄)² (the standard
//     sample ACF).
//   - Ljung–Box Q over lags 1..h, h = lags when lags > 0 (at most
//     min(100, n-1)), else DefaultLjungBoxLags(n); p-value from χ²(h).
//   - Runs test on the sequence win (R > 0) / non-win (R ≤ 0), normal
//     approximation, two-sided p-value; Z < 0 means streaky.
//
// It needs at least 3 values.
func AnalyzeSerialCorrelation(r []float64, ljungBoxLags *int) (*SerialCorrelationResult, error) {
	if err := ValidateSeries("r_multiples", r, 3); err != nil {
		return nil, err
	}
	n := len(r)
	lags := orDefault(ljungBoxLags, DefaultLjungBoxLags(n))
	if lags < 1 || lags > min(MaxLjungBoxLags, n-1) {
		return nil, invalid("lags", "must be between 1 and %d (min(100, n-1)) for %d values", min(MaxLjungBoxLags, n-1), n)
	}
	nf := float64(n)
	res := &SerialCorrelationResult{
		TradeCount: n,
		LjungBox:   LjungBox{Lags: lags},
		Warnings:   []string{},
		Conventions: []string{
			"autocorrelation: sample ACF, deviations from the full-sample mean, denominator Σ(x - mean)² over all n",
			"lag1_significant: |ρ1| > 1.96/sqrt(n)",
			"ljung_box: Q = n(n+2)·Σ ρk²/(n-k) for k = 1..lags, p-value from χ²(lags); default lags = max(1, min(10, n/4))",
			"runs_test: win = R > 0, non-win = R <= 0; Z = (runs - μ)/σ, no continuity correction; p-value two-sided normal",
			"significance level 0.05 throughout",
		},
	}
	acf := sampleACF(r, lags)
	if acf != nil {
		res.Autocorrelations = acf
		res.AutocorrelationLag1 = finiteOrNil(acf[0])
		res.Lag1Significant = math.Abs(acf[0]) > 1.959963984540054/math.Sqrt(nf)
		var q float64
		for k, rho := range acf {
			q += rho * rho / (nf - float64(k+1))
		}
		q *= nf * (nf + 2)
		pv := distuv.ChiSquared{K: float64(lags)}.Survival(q)
		res.LjungBox.Q, res.LjungBox.PValue = finiteOrNil(q), finiteOrNil(pv)
		res.LjungBox.Significant = pv < SerialAlpha
	} else {
		res.Autocorrelations = toolkit.Floats{}
		res.Warnings = append(res.Warnings, "all R values are equal: autocorrelations and Ljung–Box are undefined")
	}
	res.RunsTest = runsTest(r)
	if res.RunsTest.Dependence == DependenceUndefined {
		res.Warnings = append(res.Warnings, "the runs test needs both wins and non-wins")
	}
	res.SerialDependence = res.LjungBox.Significant || res.RunsTest.Significant
	if n < 30 {
		res.Warnings = append(res.Warnings, "fewer than 30 trades: the tests have little power")
	}
	return res, nil
}

// sampleACF returns ρ_1..ρ_h of x, or nil when x has zero variance.
func sampleACF(x []float64, h int) []float64 {
	n := len(x)
	var s float64
	for _, v := range x {
		s += v
	}
	mean := s / float64(n)
	d := make([]float64, n)
	var den float64
	for i, v := range x {
		d[i] = v - mean
		den += d[i] * d[i]
	}
	if den == 0 {
		return nil
	}
	out := make([]float64, h)
	for k := 1; k <= h; k++ {
		var num float64
		for t := k; t < n; t++ {
			num += d[t] * d[t-k]
		}
		out[k-1] = num / den
	}
	return out
}

// runsTest runs the Wald–Wolfowitz test on win (R > 0) / non-win.
func runsTest(r []float64) RunsTest {
	var rt RunsTest
	for i, x := range r {
		w := x > 0
		if w {
			rt.Wins++
		} else {
			rt.NonWins++
		}
		if i == 0 || w != (r[i-1] > 0) {
			rt.Runs++
		}
	}
	rt.Dependence = DependenceUndefined
	if rt.Wins == 0 || rt.NonWins == 0 {
		return rt
	}
	n1, n2 := float64(rt.Wins), float64(rt.NonWins)
	n := n1 + n2
	mu := 2*n1*n2/n + 1
	v := 2 * n1 * n2 * (2*n1*n2 - n) / (n * n * (n - 1))
	rt.ExpectedRuns = finiteOrNil(mu)
	if v <= 0 {
		return rt
	}
	sd := math.Sqrt(v)
	z := (float64(rt.Runs) - mu) / sd
	p := 2 * distuv.UnitNormal.CDF(-math.Abs(z))
	rt.StdDev, rt.Z, rt.PValue = finiteOrNil(sd), finiteOrNil(z), finiteOrNil(p)
	rt.Significant = p < SerialAlpha
	switch {
	case rt.Significant && z < 0:
		rt.Dependence = DependenceStreaky
	case rt.Significant:
		rt.Dependence = DependenceAlternating
	default:
		rt.Dependence = DependenceRandom
	}
	return rt
}
