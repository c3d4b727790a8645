package market

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Null distributions of the structural-break tests.

// hansenSupF holds Hansen's (1997) response-surface coefficients of the
// sup-F test for one restriction, as tabulated in R strucchange 1.5.3
// (sc.beta.sup, rows 1-25): row i is the trimming tau = 0.49 − 0.02·i,
// and {b0, b1, df} give P(sup F > x) ≈ 1 − F_χ²(df)(max(0, b0 + b1·x)).
var hansenSupF = [25][3]float64{
	{-0.0648467, 0.99671156, 1.2573241},   // tau 0.49
	{-0.15305667, 0.96757645, 1.43651315}, // tau 0.47
	{-0.23071675, 0.95825013, 1.56531261}, // tau 0.45
	{-0.29247661, 0.95715782, 1.68851898}, // tau 0.43
	{-0.35706588, 0.95237505, 1.77889686}, // tau 0.41
	{-0.40514715, 0.96055795, 1.89761322}, // tau 0.39
	{-0.45248386, 0.95810999, 1.98370422}, // tau 0.37
	{-0.50458517, 0.96149538, 2.07086519}, // tau 0.35
	{-0.55009159, 0.96684273, 2.17244338}, // tau 0.33
	{-0.60241623, 0.96518399, 2.23509053}, // tau 0.31
	{-0.64308746, 0.97354902, 2.33722161}, // tau 0.29
	{-0.68833676, 0.97829106, 2.42776524}, // tau 0.27
	{-0.73136161, 0.9820687, 2.50833918},  // tau 0.25
	{-0.78078198, 0.99475319, 2.6209551},  // tau 0.23
	{-0.82894221, 1.00023473, 2.70286643}, // tau 0.21
	{-0.88430133, 1.00162529, 2.77835798}, // tau 0.19
	{-0.9499265, 1.00384268, 2.84325795},  // tau 0.17
	{-0.98828874, 1.01604712, 2.96752918}, // tau 0.15
	{-1.04892713, 1.02570939, 3.08442682}, // tau 0.13
	{-1.11527783, 1.03526033, 3.19770394}, // tau 0.11
	{-1.14992644, 1.06643436, 3.44739573}, // tau 0.09
	{-1.24010871, 1.06929468, 3.54993605}, // tau 0.07
	{-1.38522113, 1.06808543, 3.61667211}, // tau 0.05
	{-1.48296473, 1.1283969, 4.07202473},  // tau 0.03
	{-1.78738608, 1.17220925, 4.4726701},  // tau 0.01
}

// supFPValue is the p-value of a sup-F statistic x (one restriction) whose
// search starts at the fraction tau of the sample (tau = from/n, from the
// number of returns before the first candidate split): Hansen's (1997)
// approximation exactly as R strucchange's pvalue.Fstats computes it,
// interpolating linearly in tau between the tabulated rows; for tau ≥ 0.49
// it blends in the χ²(1) tail of the fixed mid-sample Chow test, for tau ≤
// 0.01 it takes the last row.
func supFPValue(x, tau float64) float64 {
	if !(x > 0) {
		return 1
	}
	row := func(i int) float64 {
		b := hansenSupF[i]
		return chiSquaredSurvival(max(0, b[0]+b[1]*x), b[2])
	}
	switch {
	case tau == 0.5:
		return chiSquaredSurvival(x, 1)
	case tau <= 0.01:
		return row(24)
	case tau >= 0.49:
		return clamp01(((0.5-tau)*row(0) + (tau-0.49)*chiSquaredSurvival(x, 1)) * 100)
	}
	a := (0.51 - tau) * 50 // R's taua, in (1, 25): between rows ⌊a⌋ and ⌊a⌋+1 (1-based)
	lo := math.Floor(a)
	i := int(lo) - 1
	if i >= 24 { // tau a hair above 0.01
		return row(24)
	}
	return clamp01((lo+1-a)*row(i) + (a-lo)*row(i+1))
}

// chiSquaredSurvival is P(χ²(df) > x).
func chiSquaredSurvival(x, df float64) float64 {
	if !(x > 0) {
		return 1
	}
	return distuv.ChiSquared{K: df}.Survival(x)
}

// supFCritical returns the sup-F value whose supFPValue at tau is alpha
// (0 < alpha < 1), by bisection on the decreasing p-value to 1e-10.
func supFCritical(alpha, tau float64) float64 {
	lo, hi := 0.0, 16.0
	for supFPValue(hi, tau) > alpha && hi < 1e6 {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1e-10*hi {
		mid := (lo + hi) / 2
		if supFPValue(mid, tau) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// kolmogorovCDF is P(sup|B| <= x) for a Brownian bridge B (the Kolmogorov
// distribution): the alternating series 1 - 2Σ(-1)^{k-1}e^{-2k²x²} for
// x >= 1 and the Jacobi-theta form √(2π)/x·Σe^{-(2k-1)²π²/(8x²)} below.
func kolmogorovCDF(x float64) float64 {
	switch {
	case !(x > 0):
		return 0
	case x < 1:
		return clamp01(kolmogorovTheta(x))
	}
	return clamp01(kolmogorovAlternating(x))
}

// kolmogorovTheta is the Jacobi-theta form, fast to converge for small x.
func kolmogorovTheta(x float64) float64 {
	s := 0.0
	for k := 1; k <= 20; k++ {
		d := float64(2*k - 1)
		s += math.Exp(-d * d * math.Pi * math.Pi / (8 * x * x))
	}
	return math.Sqrt(2*math.Pi) / x * s
}

// kolmogorovAlternating is the alternating series, fast for large x.
func kolmogorovAlternating(x float64) float64 {
	s := 0.0
	for k := 1; k <= 100; k++ {
		term := math.Exp(-2 * float64(k*k) * x * x)
		if k%2 == 1 {
			s += term
		} else {
			s -= term
		}
		if term < 1e-18 {
			break
		}
	}
	return 1 - 2*s
}

// kolmogorovQuantile inverts kolmogorovCDF by bisection.
func kolmogorovQuantile(p float64) float64 {
	lo, hi := 0.0, 10.0
	for range 64 {
		mid := (lo + hi) / 2
		if kolmogorovCDF(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
