package performance

import (
	"math"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVarianceKillersLeaveOneOut checks the O(n) downdate against a
// direct recomputation of G without each trade (O(n²)).
func TestVarianceKillersLeaveOneOut(t *testing.T) {
	r := benchR(120)
	r[17], r[60] = -4, 6 // an outsized loss and an outsized win
	got, err := FindVarianceKillers(r, KillerOptions{TopN: ref(1000)})
	require.NoError(t, err)
	g := G(r)
	scale := PopVariance(r)
	want := map[int]float64{} // index → impact, for impacts clearly > 0
	for i := range r {
		rest := slices.Delete(slices.Clone(r), i, i+1)
		if imp := G(rest) - g; imp > 1e-12*scale {
			want[i] = imp
		}
	}
	require.Equal(t, len(want), got.KillerCount)
	require.Len(t, got.Killers, len(want))
	for k, kl := range got.Killers {
		imp, ok := want[kl.Index]
		require.True(t, ok, "index %d is not a killer", kl.Index)
		assert.InDelta(t, imp, float64(kl.GImpact), 1e-12*math.Max(scale, 1))
		assert.Equal(t, k+1, kl.Rank)
		assert.Equal(t, toolkit.Float(r[kl.Index]), kl.RMultiple)
		if k > 0 { // ranked by impact, then by index
			prev := got.Killers[k-1]
			assert.True(t, prev.GImpact > kl.GImpact || (prev.GImpact == kl.GImpact && prev.Index < kl.Index))
		}
	}
	assert.Equal(t, 17, got.Killers[0].Index) // the −4R trade hurts G most
}

func TestVarianceKillersOptions(t *testing.T) {
	r := []float64{1, -3, 1, -3, 0.5}
	ids := []string{"a", "b", "c", "d", "e"}
	syms := []string{"X", "Y", "X", "Y", "Z"}
	got, err := FindVarianceKillers(r, KillerOptions{TradeIDs: ids, Symbols: syms, TopN: ref(1)})
	require.NoError(t, err)
	require.Len(t, got.Killers, 1)
	k := got.Killers[0]
	assert.Equal(t, 1, k.Index) // tie between b and d: lower index first
	assert.Equal(t, "b", k.TradeID)
	assert.Equal(t, "Y", k.Symbol)
	assert.Equal(t, 2, got.KillerCount)
	relEq(t, G([]float64{1, 1, -3, 0.5}), float64(*got.GWithoutKillers))
	m, m2 := meanM2(r)
	relEq(t, (2*(-3-m)*(-3-m))/m2, float64(got.VarianceShareLossesBeyond1R))
	relEq(t, (1-m)*(1-m)/m2, float64(got.VarianceShareTop5Pct)) // ceil(0.25) = 1 trade: the max
	relEq(t, (-3-m)*(-3-m)/m2, float64(k.VarianceShare))

	none, err := FindVarianceKillers([]float64{1, 1, 1}, KillerOptions{})
	require.NoError(t, err)
	assert.Empty(t, none.Killers)
	assert.NotNil(t, none.Killers)
}

func TestVarianceKillersBadInput(t *testing.T) {
	cases := []struct {
		opt KillerOptions
		r   []float64
		msg string
	}{
		{KillerOptions{}, []float64{1}, "r_multiples: needs at least 2"},
		{KillerOptions{TradeIDs: []string{"a"}}, []float64{1, 2}, "trade_ids: must have the same length"},
		{KillerOptions{Symbols: []string{"a", "b", "c"}}, []float64{1, 2}, "symbols: must have the same length"},
		{KillerOptions{Symbols: []string{"a", ""}}, []float64{1, 2}, "symbols: item 1 must not be empty"},
		{KillerOptions{TradeIDs: []string{"", "b"}}, []float64{1, 2}, "trade_ids: item 0 must not be empty"},
		{KillerOptions{TopN: ref(1001)}, []float64{1, 2}, "top_n: must be between 1 and 1000"},
	}
	for _, c := range cases {
		_, err := FindVarianceKillers(c.r, c.opt)
		require.Error(t, err, c.msg)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
