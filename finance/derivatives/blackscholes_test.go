package derivatives

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Textbook values from Hull, Options, Futures, and Other Derivatives, at the
// precision the book prints them.
func TestBlackScholesHullExamples(t *testing.T) {
	t.Run("Example 15.6: S=42 K=40 r=10% σ=20% T=0.5", func(t *testing.T) {
		c, err := BlackScholes(BSInput{Type: Call, Spot: 42, Strike: 40, Years: 0.5, Rate: 0.1, Volatility: 0.2})
		require.NoError(t, err)
		p, err := BlackScholes(BSInput{Type: Put, Spot: 42, Strike: 40, Years: 0.5, Rate: 0.1, Volatility: 0.2})
		require.NoError(t, err)
		assert.InDelta(t, 0.7693, c.D1, 5e-5)
		assert.InDelta(t, 0.6278, c.D2, 5e-5)
		assert.InDelta(t, 4.76, c.Price, 5e-3)
		assert.InDelta(t, 0.81, p.Price, 5e-3)
	})
	t.Run("Greek letters chapter: S=49 K=50 r=5% σ=20% T=20 weeks", func(t *testing.T) {
		g, err := BlackScholes(BSInput{Type: Call, Spot: 49, Strike: 50, Years: 0.3846, Rate: 0.05, Volatility: 0.2})
		require.NoError(t, err)
		assert.InDelta(t, 2.40, g.Price, 5e-3)
		assert.InDelta(t, 0.522, g.Delta, 5e-4)
		assert.InDelta(t, 0.066, g.Gamma, 5e-4)
		assert.InDelta(t, -4.31/365, g.Theta, 0.005/365) // Hull: −4.31 per year
		assert.InDelta(t, 0.121, g.Vega, 5e-4)           // Hull: 12.1 per unit σ
		assert.InDelta(t, 0.0891, g.Rho, 5e-5)           // Hull: 8.91 per unit r
	})
	t.Run("Example 17.1 (index, dividend yield): S=930 K=900 r=8% q=3% σ=20% T=2/12", func(t *testing.T) {
		g, err := BlackScholes(BSInput{Type: Call, Spot: 930, Strike: 900, Years: 2.0 / 12, Rate: 0.08, DividendYield: 0.03, Volatility: 0.2})
		require.NoError(t, err)
		assert.InDelta(t, 0.5444, g.D1, 1e-4) // Hull truncates 0.54448
		assert.InDelta(t, 0.4628, g.D2, 5e-5)
		assert.InDelta(t, 51.83, g.Price, 5e-3)
	})
}

// bsGrid covers moneyness, maturities, rates, yields and volatilities.
func bsGrid() []BSInput {
	var out []BSInput
	for _, k := range []float64{50, 90, 100, 110, 200} {
		for _, tt := range []float64{1.0 / 365, 0.1, 0.5, 2, 10} {
			for _, r := range []float64{-0.01, 0, 0.05} {
				for _, q := range []float64{0, 0.03} {
					for _, v := range []float64{0.05, 0.25, 1.2} {
						out = append(out, BSInput{Spot: 100, Strike: k, Years: tt, Rate: r, DividendYield: q, Volatility: v})
					}
				}
			}
		}
	}
	return out
}

func TestBlackScholesClosedFormIdentities(t *testing.T) {
	for _, p := range bsGrid() {
		p.Type = Call
		c, err := BlackScholes(p)
		require.NoError(t, err)
		p.Type = Put
		pp, err := BlackScholes(p)
		require.NoError(t, err)
		dq, dr := math.Exp(-p.DividendYield*p.Years), math.Exp(-p.Rate*p.Years)
		scale := math.Max(p.Spot, p.Strike)
		// Put–call parity of prices and its derivatives.
		assert.InDelta(t, p.Spot*dq-p.Strike*dr, c.Price-pp.Price, 1e-10*scale, "parity %+v", p)
		assert.InDelta(t, dq, c.Delta-pp.Delta, 1e-12, "delta parity %+v", p)
		assert.Equal(t, c.Gamma, pp.Gamma)
		assert.Equal(t, c.Vega, pp.Vega)
		wantTheta := (-p.Rate*p.Strike*dr + p.DividendYield*p.Spot*dq) / DaysPerYear
		assert.InDelta(t, wantTheta, c.Theta-pp.Theta, 1e-12*scale, "theta parity %+v", p)
		assert.InDelta(t, p.Strike*p.Years*dr/100, c.Rho-pp.Rho, 1e-12*scale, "rho parity %+v", p)
		// Gamma–vega relation: vega = σ T S² Γ (per unit σ).
		assert.InDelta(t, p.Volatility*p.Years*p.Spot*p.Spot*c.Gamma, c.Vega*100, 1e-10*math.Max(1, c.Vega*100), "%+v", p)
		// Black–Scholes PDE: Θ + (r−q)SΔ + ½σ²S²Γ = rV (annual theta).
		for _, g := range []Greeks{c, pp} {
			lhs := g.Theta*DaysPerYear + (p.Rate-p.DividendYield)*p.Spot*g.Delta + 0.5*p.Volatility*p.Volatility*p.Spot*p.Spot*g.Gamma
			assert.InDelta(t, p.Rate*g.Price, lhs, 1e-10*scale, "PDE %+v", p)
		}
		assert.GreaterOrEqual(t, c.Price, 0.0)
		assert.GreaterOrEqual(t, pp.Price, 0.0)
	}
}

// price returns the BSM price with one parameter changed.
func price(t *testing.T, p BSInput) float64 {
	g, err := BlackScholes(p)
	require.NoError(t, err)
	return g.Price
}

// TestBlackScholesFiniteDifferences checks every greek against central
// differences of the price.
func TestBlackScholesFiniteDifferences(t *testing.T) {
	for _, p := range bsGrid() {
		if p.Years < 0.05 || p.Volatility < 0.1 {
			continue // kinks make finite differences unreliable
		}
		for _, typ := range []OptionType{Call, Put} {
			p.Type = typ
			g, err := BlackScholes(p)
			require.NoError(t, err)
			bump := func(f func(*BSInput, float64), h float64) (float64, float64) {
				up, dn := p, p
				f(&up, h)
				f(&dn, -h)
				return price(t, up), price(t, dn)
			}
			hs := 1e-4 * p.Spot
			up, dn := bump(func(q *BSInput, h float64) { q.Spot += h }, hs)
			assert.InDelta(t, (up-dn)/(2*hs), g.Delta, 1e-6, "delta %+v", p)
			assert.InDelta(t, (up-2*g.Price+dn)/(hs*hs), g.Gamma, 1e-6, "gamma %+v", p)
			up, dn = bump(func(q *BSInput, h float64) { q.Volatility += h }, 1e-5)
			assert.InDelta(t, (up-dn)/2e-5/100, g.Vega, 1e-7, "vega %+v", p)
			up, dn = bump(func(q *BSInput, h float64) { q.Rate += h }, 1e-5)
			assert.InDelta(t, (up-dn)/2e-5/100, g.Rho, 1e-7, "rho %+v", p)
			up, dn = bump(func(q *BSInput, h float64) { q.Years += h }, 1e-6)
			assert.InDelta(t, -(up-dn)/2e-6/DaysPerYear, g.Theta, 1e-7, "theta %+v", p)
		}
	}
}

func TestBlackScholesDomain(t *testing.T) {
	for _, p := range []BSInput{
		{Type: Call, Spot: 0, Strike: 1, Years: 1, Volatility: 0.2},
		{Type: Call, Spot: 1, Strike: -1, Years: 1, Volatility: 0.2},
		{Type: Call, Spot: 1, Strike: 1, Years: 0, Volatility: 0.2},
		{Type: Call, Spot: 1, Strike: 1, Years: 1, Volatility: 0},
		{Type: Call, Spot: math.NaN(), Strike: 1, Years: 1, Volatility: 0.2},
		{Type: Call, Spot: 1, Strike: 1, Years: 1, Rate: math.Inf(1), Volatility: 0.2},
		{Type: "STRADDLE", Spot: 1, Strike: 1, Years: 1, Volatility: 0.2},
	} {
		_, err := BlackScholes(p)
		assert.Error(t, err, "%+v", p)
	}
	// Extreme but valid inputs never give NaN.
	g, err := BlackScholes(BSInput{Type: Put, Spot: 1e-6, Strike: 1e6, Years: 1.0 / 365, Volatility: 1e-4})
	require.NoError(t, err)
	assert.InDelta(t, -1, g.Delta, 1e-12)
	assert.Zero(t, g.Gamma)
}

func TestImpliedVolatilityRoundTrip(t *testing.T) {
	for _, p := range bsGrid() {
		for _, typ := range []OptionType{Call, Put} {
			p.Type = typ
			g, err := BlackScholes(p)
			require.NoError(t, err)
			if g.Vega < 1e-6 {
				continue // price carries no volatility information
			}
			vol, err := ImpliedVolatility(p, g.Price)
			require.NoError(t, err, "%+v price %v", p, g.Price)
			assert.InDelta(t, p.Volatility, vol, 1e-8, "%+v", p)
		}
	}
	p := BSInput{Type: Call, Spot: 100, Strike: 100, Years: 0.5, Rate: 0.05}
	_, err := ImpliedVolatility(p, 101) // above the spot: no volatility reaches it
	assert.Error(t, err)
	_, err = ImpliedVolatility(p, 1) // below the forward intrinsic value
	assert.Error(t, err)
	_, err = ImpliedVolatility(p, math.NaN())
	assert.Error(t, err)
}
