package market

import "math"

// Null distributions of the structural-break tests.

// supFTail is the Estrella (2003) approximation (after DeLong 1981) of
// P(sup F > x) for one restriction and symmetric trimming trim:
//
//	x^{1/2} e^{-x/2} / (√2·Γ(1/2)) · [(1 - 1/x)·ln λ + 2/x],  λ = (1-trim)²/trim².
//
// At trim 0.15 it gives 0.0987, 0.0506 and 0.0107 at Andrews' (1993)
// critical values 7.12, 8.68 and 12.16.
func supFTail(x, trim float64) float64 {
	lambda := (1 - trim) * (1 - trim) / (trim * trim)
	return math.Sqrt(x) * math.Exp(-x/2) / (math.Sqrt2 * math.SqrtPi) * ((1-1/x)*math.Log(lambda) + 2/x)
}

// supFMode is where supFTail peaks on (0, 10]; below it the
// approximation is not a tail probability any more.
func supFMode(trim float64) float64 {
	lo, hi := 0.05, 10.0
	for range 60 { // ternary search of a unimodal function
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		if supFTail(a, trim) < supFTail(b, trim) {
			lo = a
		} else {
			hi = b
		}
	}
	return (lo + hi) / 2
}

// supFPValue is the p-value of a sup-F statistic given xm = supFMode(trim):
// supFTail above the mode x*, and a straight line from 1 at x = 0 to supFTail(x*) below it (a
// coarse region where p > 0.5 anyway). The result is clamped to [0, 1].
func supFPValue(x, trim, xm float64) float64 {
	if !(x > 0) {
		return 1
	}
	if x < xm {
		pm := supFTail(xm, trim)
		return clamp01(1 - (1-pm)*x/xm)
	}
	return clamp01(supFTail(x, trim))
}

// supFCritical inverts supFPValue by bisection: the sup-F value whose
// p-value is alpha (xm = supFMode(trim)).
func supFCritical(alpha, trim, xm float64) float64 {
	lo, hi := xm, 200.0
	for range 64 {
		mid := (lo + hi) / 2
		if supFPValue(mid, trim, xm) > alpha {
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
