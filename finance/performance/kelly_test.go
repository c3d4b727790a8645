package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// binarySet returns n trades: k wins of +b and n−k losses of −l.
func binarySet(n, k int, b, l float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		if i < k {
			r[i] = b
		} else {
			r[i] = -l
		}
	}
	return r
}

func TestOptimalFMatchesBinaryClosedForm(t *testing.T) {
	cases := []struct {
		name       string
		n, k       int
		b, l, want float64
	}{
		{"p=0.5 b=2", 10, 5, 2, 1, 0.25},
		{"p=0.6 b=1", 10, 6, 1, 1, 0.2},
		{"p=0.4 b=3", 20, 8, 3, 1, 0.4 - 0.6/3},
		{"p=0.55 b=1.5 l=0.5", 20, 11, 1.5, 0.5, 0.55/0.5 - 0.45/1.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := binarySet(c.n, c.k, c.b, c.l)
			f, err := OptimalF(r)
			require.NoError(t, err)
			assert.InDelta(t, c.want, f, 1e-12*c.want)
			k, err := CalculateKelly(r, KellyOptions{})
			require.NoError(t, err)
			require.NotNil(t, k.FullKelly)
			assert.Equal(t, *k.FullKelly, *k.KellyFraction)
			assert.InDelta(t, c.want/2, float64(*k.HalfKelly), 1e-12)
			assert.InDelta(t, c.want/4, float64(*k.QuarterKelly), 1e-12)
			assert.Empty(t, k.Note)
			require.NotNil(t, k.BinaryKelly)
			assert.InDelta(t, c.want, float64(*k.BinaryKelly), 1e-12*c.want)
		})
	}
}

// TestOptimalFIsArgmax checks f* against an independent golden-section
// search and that the derivative vanishes there.
func TestOptimalFIsArgmax(t *testing.T) {
	r := benchR(200)
	f, err := OptimalF(r)
	require.NoError(t, err)
	g := func(f float64) float64 {
		s := 0.0
		for _, x := range r {
			s += math.Log(1 + f*x)
		}
		return s / float64(len(r))
	}
	lo, hi := 0.0, 1/1.5
	phi := (math.Sqrt(5) - 1) / 2
	for hi-lo > 1e-10 {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if g(a) < g(b) {
			lo = a
		} else {
			hi = b
		}
	}
	assert.InDelta(t, (lo+hi)/2, f, 1e-7)
	d1, _ := growthDerivatives(r, f)
	assert.InDelta(t, 0, d1, 1e-12)
	assert.GreaterOrEqual(t, g(f), g(f*(1+1e-6)))
	assert.GreaterOrEqual(t, g(f), g(f*(1-1e-6)))
}

func TestKellyHalfGrowthRatio(t *testing.T) {
	// near-normal data: deterministic normal quantiles, mean 0.2, sd 1
	n := 400
	r := make([]float64, n)
	for i := range r {
		r[i] = 0.2 + math.Sqrt2*math.Erfinv(2*(float64(i)+0.5)/float64(n)-1)
	}
	k, err := CalculateKelly(r, KellyOptions{})
	require.NoError(t, err)
	ratio := float64(*k.GrowthHalfKelly) / float64(*k.GrowthFullKelly)
	assert.GreaterOrEqual(t, ratio, 0.74)
	assert.LessOrEqual(t, ratio, 0.77)
	// risk of ruin at full Kelly is about the ruin level (Thorp): 0.5
	assert.InDelta(t, 0.5, float64(k.RiskOfRuinKelly.Full), 0.05)
	assert.Less(t, float64(k.RiskOfRuinKelly.Half), float64(k.RiskOfRuinKelly.Full))
}

func TestKellyErrors(t *testing.T) {
	cases := []struct {
		name  string
		r     []float64
		opt   KellyOptions
		field string
	}{
		{"too few", []float64{1}, KellyOptions{}, "r_multiples: needs at least 2"},
		{"NaN", []float64{1, math.NaN()}, KellyOptions{}, "r_multiples: item 1 must be a finite"},
		{"risk past bound", []float64{5, -4}, KellyOptions{RiskPerTrade: ref(0.3)}, "risk_per_trade: must be below the ruin bound"},
		{"risk >= 1", []float64{2, -1}, KellyOptions{RiskPerTrade: ref(1.0)}, "risk_per_trade: must be a fraction"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CalculateKelly(c.r, c.opt)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.field)
		})
	}
	_, err := LogGrowth([]float64{1, -2}, 0.5)
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
}

// TestKellyWithoutEdgeIsNullWithANote: no positive, finite Kelly fraction
// is an answer (nulls and a note), not an error.
func TestKellyWithoutEdgeIsNullWithANote(t *testing.T) {
	cases := []struct {
		name string
		r    []float64
		note string
	}{
		{"mean not positive", []float64{1, -1, -0.5}, NoEdgeKellyNote},
		{"mean zero", []float64{1, -1}, NoEdgeKellyNote},
		{"no losses", []float64{1, 2, 0}, NoLossKellyNote},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, err := CalculateKelly(c.r, KellyOptions{})
			require.NoError(t, err)
			assert.Equal(t, c.note, k.Note)
			assert.Equal(t, c.note, NoKellyReason(c.r))
			for _, f := range []*toolkit.Float{k.FullKelly, k.KellyFraction, k.HalfKelly, k.QuarterKelly, k.ContinuousKelly,
				k.GrowthFullKelly, k.GrowthHalfKelly, k.GrowthQuarterKelly} {
				assert.Nil(t, f)
			}
			assert.Nil(t, k.RiskOfRuinKelly)
			want, err := LogGrowth(c.r, DefaultRiskPerTrade)
			require.NoError(t, err)
			assert.InDelta(t, want, float64(k.GrowthAtRisk), 1e-15, "growth at the caller's risk is still given")
		})
	}
}

func TestRiskOfRuinFormula(t *testing.T) {
	assert.Equal(t, 1.0, RiskOfRuin(0, 1, 0.5))
	assert.Equal(t, 0.0, RiskOfRuin(0.1, 0, 0.5))
	assert.InDelta(t, math.Pow(0.5, 2*0.01/0.02), RiskOfRuin(0.01, 0.02, 0.5), 1e-15)
}
