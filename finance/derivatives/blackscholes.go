package derivatives

import (
	"errors"
	"math"
)

// OptionType is CALL or PUT.
type OptionType string

// The option types.
const (
	Call OptionType = "CALL"
	Put  OptionType = "PUT"
)

// DaysPerYear converts calendar days to years (ACT/365) and annual theta
// to theta per calendar day.
const DaysPerYear = 365.0

// BSInput are the Black–Scholes–Merton parameters of one European option.
// Rates and yields are continuously compounded annual decimals (0.05 = 5 %);
// Volatility is the annualised standard deviation of log returns (0.25 =
// 25 %); Years is the time to expiry in years.
type BSInput struct {
	Type          OptionType
	Spot          float64 // S > 0
	Strike        float64 // K > 0
	Years         float64 // T > 0
	Rate          float64 // r
	DividendYield float64 // q
	Volatility    float64 // σ > 0
}

// Greeks are the Black–Scholes–Merton price and sensitivities of one option
// on one unit of the underlying (multiply by the contract multiplier for a
// contract).
type Greeks struct {
	Price float64 // theoretical value
	// Delta is ∂V/∂S: e^{-qT}N(d1) for a call, −e^{-qT}N(−d1) for a put.
	Delta float64
	// Gamma is ∂²V/∂S² = e^{-qT}n(d1)/(Sσ√T), the same for calls and puts.
	Gamma float64
	// Theta is ∂V/∂t per calendar day: the annual theta divided by 365.
	Theta float64
	// Vega is ∂V/∂σ per 1 volatility point (σ + 0.01): S e^{-qT}n(d1)√T / 100.
	Vega float64
	// Rho is ∂V/∂r per 1 % (r + 0.01): ±K T e^{-rT}N(±d2) / 100.
	Rho float64
	// D1 and D2 are the Black–Scholes d1 and d2.
	D1, D2 float64
}

// errBSDomain is returned for parameters outside the model's domain.
var errBSDomain = errors.New("spot, strike, years and volatility must be finite and greater than 0")

// normCDF is the standard normal CDF, via erfc for accuracy in the tails.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normPDF is the standard normal density.
func normPDF(x float64) float64 { return math.Exp(-0.5*x*x) / math.Sqrt(2*math.Pi) }

// validBS reports whether the parameters are inside the model's domain.
func validBS(p BSInput) bool {
	for _, v := range []float64{p.Spot, p.Strike, p.Years, p.Volatility, p.Rate, p.DividendYield} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return p.Spot > 0 && p.Strike > 0 && p.Years > 0 && p.Volatility > 0 && (p.Type == Call || p.Type == Put)
}

// BlackScholes returns the price and greeks of a European option under
// Black–Scholes–Merton with a continuous dividend yield:
//
//	d1 = (ln(S/K) + (r − q + σ²/2)T) / (σ√T),  d2 = d1 − σ√T
//	call = S e^{-qT} N(d1) − K e^{-rT} N(d2)
//	put  = K e^{-rT} N(−d2) − S e^{-qT} N(−d1)
//
// Theta is per calendar day (annual/365), vega per volatility point and rho
// per 1 % of rate. It fails outside the domain (S, K, T, σ > 0, finite) and
// never returns NaN or infinities.
func BlackScholes(p BSInput) (Greeks, error) {
	if !validBS(p) {
		return Greeks{}, errBSDomain
	}
	s, k, t, r, q, vol := p.Spot, p.Strike, p.Years, p.Rate, p.DividendYield, p.Volatility
	sqrtT := math.Sqrt(t)
	volT := vol * sqrtT
	d1 := (math.Log(s/k) + (r-q+vol*vol/2)*t) / volT
	d2 := d1 - volT
	dq, dr := math.Exp(-q*t), math.Exp(-r*t)
	pdf := normPDF(d1)
	g := Greeks{D1: d1, D2: d2}
	g.Gamma = dq * pdf / (s * volT)
	g.Vega = s * dq * pdf * sqrtT / 100
	decay := -s * dq * pdf * vol / (2 * sqrtT)
	if p.Type == Call {
		nd1, nd2 := normCDF(d1), normCDF(d2)
		g.Price = s*dq*nd1 - k*dr*nd2
		g.Delta = dq * nd1
		g.Theta = (decay - r*k*dr*nd2 + q*s*dq*nd1) / DaysPerYear
		g.Rho = k * t * dr * nd2 / 100
	} else {
		nd1, nd2 := normCDF(-d1), normCDF(-d2)
		g.Price = k*dr*nd2 - s*dq*nd1
		g.Delta = -dq * nd1
		g.Theta = (decay + r*k*dr*nd2 - q*s*dq*nd1) / DaysPerYear
		g.Rho = -k * t * dr * nd2 / 100
	}
	for _, v := range []float64{g.Price, g.Delta, g.Gamma, g.Theta, g.Vega, g.Rho, d1, d2} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Greeks{}, errors.New("the model is numerically undefined for these parameters")
		}
	}
	return g, nil
}

// Implied-volatility search bounds and tolerance.
const (
	minVol     = 1e-6
	maxVol     = 10.0 // 1000 %
	ivPriceTol = 1e-14
	ivMaxIter  = 200
)

// ImpliedVolatility returns the σ at which BlackScholes prices the option
// at price (p.Volatility is ignored). It uses Newton steps safeguarded by
// bisection on [1e-6, 10] and stops when the price error is below 1e-14 ×
// max(1, S, K) or the bracket is narrower than 1e-15. It fails
// when price lies outside the no-arbitrage bounds (for a call,
// max(S e^{-qT} − K e^{-rT}, 0) < price < S e^{-qT}) or σ would leave the
// search range.
func ImpliedVolatility(p BSInput, price float64) (float64, error) {
	p.Volatility = 1
	if !validBS(p) || math.IsNaN(price) || math.IsInf(price, 0) {
		return 0, errBSDomain
	}
	value := func(vol float64) (float64, float64) {
		q := p
		q.Volatility = vol
		g, err := BlackScholes(q)
		if err != nil {
			return math.NaN(), 0
		}
		return g.Price - price, g.Vega * 100
	}
	lo, hi := minVol, maxVol
	flo, _ := value(lo)
	fhi, _ := value(hi)
	if !(flo < 0 && fhi > 0) {
		return 0, errors.New("price is outside the range the model reaches (no-arbitrage bounds)")
	}
	vol := 0.3
	tol := ivPriceTol * math.Max(1, math.Max(p.Spot, p.Strike))
	for range ivMaxIter {
		f, vega := value(vol)
		if math.Abs(f) < tol {
			return vol, nil
		}
		if f > 0 {
			hi = vol
		} else {
			lo = vol
		}
		next := vol - f/vega
		if vega <= 0 || math.IsNaN(next) || next <= lo || next >= hi {
			next = (lo + hi) / 2
		}
		if hi-lo < 1e-15 {
			return next, nil
		}
		vol = next
	}
	return vol, nil
}
