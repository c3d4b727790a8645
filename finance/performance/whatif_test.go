package performance

import (
	"slices"
	"sort"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWhatIfAgainstReference(t *testing.T) {
	r := benchR(200)
	got, err := RunWhatIf(r, WhatIfOptions{RemoveCount: ref(7), LossCap: ref(0.8), WinnerScale: ref(1.25), SkipAfterLosses: ref(2)})
	require.NoError(t, err)
	sorted := slices.Clone(r)
	sort.Float64s(sorted)
	var capped, scaled, taken []float64
	streak := 0
	for _, x := range r {
		capped = append(capped, max(x, -0.8))
		if x > 0 {
			scaled = append(scaled, x*1.25)
		} else {
			scaled = append(scaled, x)
		}
		if streak == 2 {
			streak = 0
			continue
		}
		taken = append(taken, x)
		if x < 0 {
			streak++
		} else {
			streak = 0
		}
	}
	want := map[string][]float64{
		"remove_worst": sorted[7:], "remove_best": sorted[:193],
		"cap_losses": capped, "scale_winners": scaled, "skip_after_losses": taken,
	}
	relEq(t, G(r), float64(got.Baseline.G))
	require.Len(t, got.Scenarios, 5)
	names := []string{"remove_worst", "remove_best", "cap_losses", "scale_winners", "skip_after_losses"}
	for i, s := range got.Scenarios {
		assert.Equal(t, names[i], s.Name)
		w := want[s.Name]
		assert.Equal(t, len(w), s.TradeCount, s.Name)
		relEq(t, G(w), float64(s.G), s.Name)
		relEq(t, Mean(w), float64(s.Expectancy), s.Name)
		relEq(t, WinRate(w), float64(s.WinRate), s.Name)
		relEq(t, G(w)-G(r), float64(s.GChange), s.Name)
	}
	assert.Less(t, len(taken), len(r))
}

func TestWhatIfDefaults(t *testing.T) {
	r := benchR(41)
	got, err := RunWhatIf(r, WhatIfOptions{})
	require.NoError(t, err)
	assert.Equal(t, WhatIfParameters{RemoveCount: 3, LossCap: 1, WinnerScale: 0.9, SkipAfterLosses: 3}, got.Parameters)
	two, err := RunWhatIf([]float64{1, -1}, WhatIfOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, two.Parameters.RemoveCount)
	assert.Equal(t, "remove_worst", two.BestScenario)
}

func TestWhatIfBadInput(t *testing.T) {
	cases := []struct {
		opt WhatIfOptions
		msg string
	}{
		{WhatIfOptions{RemoveCount: ref(2)}, "remove_count: must be between 1 and 1"},
		{WhatIfOptions{RemoveCount: ref(-1)}, "remove_count"},
		{WhatIfOptions{LossCap: ref(-1.0)}, "loss_cap"},
		{WhatIfOptions{WinnerScale: ref(-1.0)}, "winner_scale"},
		{WhatIfOptions{SkipAfterLosses: ref(-2)}, "skip_after_losses"},
	}
	for _, c := range cases {
		_, err := RunWhatIf([]float64{1, -1}, c.opt)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
	_, err := RunWhatIf([]float64{1}, WhatIfOptions{})
	assert.Contains(t, toolkit.MessageOf(err), "r_multiples: needs at least 2")
}
