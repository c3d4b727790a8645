package derivatives

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

func clCurve() CurveInput {
	// Given out of order on purpose.
	return CurveInput{Contracts: []CurveContract{
		{Symbol: "CLH5", Expiry: "2025-03-20", Price: amt("76.20")},
		{Symbol: "CLF5", Expiry: "2025-01-20", Price: amt("75.00")},
		{Symbol: "CLG5", Expiry: "2025-02-20", Price: amt("75.50")},
	}}
}

func TestAnalyzeFuturesCurveContango(t *testing.T) {
	res, err := AnalyzeFuturesCurve(clCurve())
	require.NoError(t, err)
	assert.Equal(t, Contango, res.Structure)
	assert.Equal(t, "CLF5", res.Front.Symbol)
	assert.Equal(t, "CLH5", res.Back.Symbol)
	assert.True(t, res.IsMonotonic)
	assert.InDelta(t, 1.2/75*100, float64(res.FrontToBackChangePct), 1e-13)
	assert.InDelta(t, math.Log(75/76.2)*365/59, float64(res.FrontToBackRollYield), 1e-14)
	require.Len(t, res.Pairs, 2)
	p := res.Pairs[0]
	assert.Equal(t, "CLF5", p.Near)
	assert.Equal(t, "CLG5", p.Far)
	assert.Equal(t, 31, p.DaysBetween)
	assertAmount(t, "0.50", p.Spread)
	assert.InDelta(t, math.Log(75/75.5)*365/31, float64(p.RollYield), 1e-14)
	assert.Equal(t, Contango, p.Structure)
	assert.Equal(t, 28, res.Pairs[1].DaysBetween)
	// Roll yields are additive in log terms: the days-weighted pair yields give front-to-back.
	weighted := (float64(res.Pairs[0].RollYield)*31 + float64(res.Pairs[1].RollYield)*28) / 59
	assert.InDelta(t, float64(res.FrontToBackRollYield), weighted, 1e-14)
	// Slopes against gonum's least squares.
	xs := []float64{0, 31.0 / 365, 59.0 / 365}
	_, b := stat.LinearRegression(xs, []float64{75, 75.5, 76.2}, nil, false)
	assert.InDelta(t, b, float64(res.Slope), 1e-9)
	_, bl := stat.LinearRegression(xs, []float64{math.Log(75), math.Log(75.5), math.Log(76.2)}, nil, false)
	assert.InDelta(t, bl, float64(res.LogSlope), 1e-12)
	assert.Nil(t, res.Basis)
	assert.Nil(t, res.Front.DaysToExpiry)
	golden.Check(t, "testdata/curve_cl.json", res)
}

func TestAnalyzeFuturesCurveShapes(t *testing.T) {
	mk := func(prices ...string) CurveInput {
		dates := []Date{"2025-01-20", "2025-02-20", "2025-03-20", "2025-04-20"}
		var in CurveInput
		for i, p := range prices {
			in.Contracts = append(in.Contracts, CurveContract{Expiry: dates[i], Price: amt(p)})
		}
		return in
	}
	cases := []struct {
		name      string
		in        CurveInput
		structure string
		monotonic bool
		pairs     []string
	}{
		{"backwardation", mk("80", "79", "77.5"), Backwardation, true, []string{Backwardation, Backwardation}},
		{"flat within 0.5 %", mk("100", "100.2", "100.5"), Flat, true, []string{Flat, Flat}},
		{"just above tolerance", mk("100", "100.51"), Contango, true, []string{Contango}},
		{"humped", mk("100", "103", "101", "100.1"), Flat, false, []string{Contango, Backwardation, Backwardation}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := AnalyzeFuturesCurve(c.in)
			require.NoError(t, err)
			assert.Equal(t, c.structure, res.Structure)
			assert.Equal(t, c.monotonic, res.IsMonotonic)
			var got []string
			for _, p := range res.Pairs {
				got = append(got, p.Structure)
			}
			assert.Equal(t, c.pairs, got)
			assert.Equal(t, "2025-01-20", res.Pairs[0].Near, "label falls back to the expiry")
		})
	}
	t.Run("custom tolerance", func(t *testing.T) {
		in := mk("100", "101")
		in.FlatTolerance = ptr(toolkit.Float(0.02))
		res, err := AnalyzeFuturesCurve(in)
		require.NoError(t, err)
		assert.Equal(t, Flat, res.Structure)
	})
}

func TestAnalyzeFuturesCurveSpot(t *testing.T) {
	in := clCurve()
	in.Spot, in.AsOf = pa("74.60"), ptr(Date("2024-12-20"))
	res, err := AnalyzeFuturesCurve(in)
	require.NoError(t, err)
	assertAmount(t, "-0.40", *res.Basis)
	assert.InDelta(t, -0.4/74.6*100, float64(*res.BasisPct), 1e-13)
	assert.Equal(t, 31, *res.Front.DaysToExpiry)
	assert.Equal(t, 90, *res.Back.DaysToExpiry)
	assert.InDelta(t, math.Log(74.6/75)*365/31, float64(*res.SpotRollYield), 1e-14)
	// Spot without as_of: basis but no annualised spot yield.
	in.AsOf = nil
	res, err = AnalyzeFuturesCurve(in)
	require.NoError(t, err)
	assert.NotNil(t, res.Basis)
	assert.Nil(t, res.SpotRollYield)
}

func TestAnalyzeFuturesCurveErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(*CurveInput)
		want string
	}{
		{"one contract", func(c *CurveInput) { c.Contracts = c.Contracts[:1] }, "contracts: must hold at least 2 contracts, got 1"},
		{"duplicate expiry", func(c *CurveInput) { c.Contracts[2].Expiry = "2025-03-20" }, "contracts[2].expiry: 2025-03-20 repeats the expiry of contracts[0]"},
		{"price", func(c *CurveInput) { c.Contracts[1].Price = amt("0") }, "contracts[1].price: must be greater than 0"},
		{"date", func(c *CurveInput) { c.Contracts[1].Expiry = "Jan 2025" }, "contracts[1].expiry: must be a date"},
		{"expired", func(c *CurveInput) { c.AsOf = ptr(Date("2025-01-20")) }, "contracts[1].expiry: 2025-01-20 is not after as_of 2025-01-20"},
		{"as_of", func(c *CurveInput) { c.AsOf = ptr(Date("yesterday")) }, "as_of: must be a date"},
		{"spot", func(c *CurveInput) { c.Spot = pa("-1") }, "spot: must be greater than 0"},
		{"tolerance", func(c *CurveInput) { c.FlatTolerance = ptr(toolkit.Float(1)) }, "flat_tolerance: must be a fraction in [0, 1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := clCurve()
			c.edit(&in)
			_, err := AnalyzeFuturesCurve(in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}
