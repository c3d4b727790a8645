package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRollingGMatchesDirectWindows(t *testing.T) {
	r := benchR(700)
	for _, w := range []int{2, 10, 33, 700} {
		got, err := CalculateRollingG(r, ref(w))
		require.NoError(t, err)
		require.Len(t, got.RollingG, len(r)-w+1)
		for k, g := range got.RollingG {
			relEq(t, G(r[k:k+w]), g, "w=%d k=%d", w, k)
		}
		relEq(t, G(r[len(r)-w:]), float64(got.LatestG))
		require.Len(t, got.BlockG, len(r)/w)
		off := len(r) % w
		for b, g := range got.BlockG {
			assert.Equal(t, G(r[off+b*w:off+(b+1)*w]), g)
		}
	}
}

// drift returns n trades whose mean moves linearly from m0 to m1, with a
// deterministic ±1 noise pattern.
func drift(n int, m0, m1 float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		noise := float64(i%4) - 1.5
		r[i] = m0 + (m1-m0)*float64(i)/float64(n-1) + noise*0.6
	}
	return r
}

func TestRollingGTrend(t *testing.T) {
	cases := []struct {
		name  string
		r     []float64
		w     int
		trend string
	}{
		{"improving", drift(80, -1, 1.5), 20, TrendImproving},
		{"declining", drift(80, 1.5, -1), 20, TrendDeclining},
		{"stable noise", drift(80, 0.3, 0.3), 20, TrendStable},
		{"constant", []float64{0.5, 0.5, 0.5, 0.5}, 2, TrendStable},
		{"step without noise up", []float64{0, 0, 1, 1}, 2, TrendImproving},
		{"step without noise down", []float64{1, 1, 0, 0}, 2, TrendDeclining},
		{"one block only", drift(30, -1, 2), 20, TrendStable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CalculateRollingG(c.r, ref(c.w))
			require.NoError(t, err)
			assert.Equal(t, c.trend, got.Trend)
		})
	}
	got, err := CalculateRollingG(drift(80, -1, 1.5), ref(20))
	require.NoError(t, err)
	last, prev := drift(80, -1, 1.5)[60:], drift(80, -1, 1.5)[40:60]
	se := math.Sqrt((SampleStdDev(last)*SampleStdDev(last) + SampleStdDev(prev)*SampleStdDev(prev)) / 20)
	relEq(t, G(last)-G(prev), float64(*got.TrendDelta))
	relEq(t, (G(last)-G(prev))/se, float64(*got.TrendZ))
	one, err := CalculateRollingG(drift(30, -1, 2), ref(20))
	require.NoError(t, err)
	assert.Nil(t, one.TrendDelta)
	assert.Nil(t, one.TrendZ)
}

// TestRollingGDefaultWindowShrinks: without window_size the window is
// min(10, N), the rule of evaluate_performance, so the documented minimum
// of 2 R-multiples (and 5, and 9) is answered; the answer says so.
func TestRollingGDefaultWindowShrinks(t *testing.T) {
	for _, n := range []int{2, 5, 9, 10, 25} {
		got, err := CalculateRollingG(benchR(n), nil)
		require.NoError(t, err, "%d trades", n)
		assert.Equal(t, min(10, n), got.WindowSize, "%d trades", n)
		assert.Len(t, got.RollingG, n-got.WindowSize+1)
		assert.Equal(t, RollingGWindowRule, got.WindowRule)
	}
	got, err := CalculateRollingG([]float64{1, -0.5}, nil)
	require.NoError(t, err)
	assert.Equal(t, toolkit.Floats{G([]float64{1, -0.5})}, got.RollingG)
}

func TestRollingGBadInput(t *testing.T) {
	_, err := CalculateRollingG([]float64{1, 2, 3}, ref(4))
	assert.Contains(t, toolkit.MessageOf(err), "window_size: must not exceed the number of r_multiples (3), got 4")
	_, err = CalculateRollingG(benchR(20), nil) // default 10 fits
	assert.NoError(t, err)
	_, err = CalculateRollingG([]float64{1, 2, 3}, ref(1))
	assert.Contains(t, toolkit.MessageOf(err), "window_size: must be at least 2")
	_, err = CalculateRollingG([]float64{1}, ref(2))
	assert.Contains(t, toolkit.MessageOf(err), "r_multiples: needs at least 2")
}

func TestSystemScore(t *testing.T) {
	r := []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8}
	got, err := CalculateSystemScore(r)
	require.NoError(t, err)
	mean := Mean(r)
	_, sqn, _ := SQN(r)
	gross, loss := 1.5+2.3+1.8+3.2+0.8, 2.5
	// additive curve: 1.5, 0.5, 2.8, 2.3, 4.1, 3.1, 6.3, 7.1 → max DD 1.0
	rf := 7.1 / 1.0
	lin := func(x, lo, hi float64) float64 { return math.Min(math.Max((x-lo)/(hi-lo), 0), 1) * 100 }
	want := 0.25*lin(mean, 0, 0.5) + 0.25*lin(sqn, 0, 3) + 0.2*lin(gross/loss, 1, 2.5) + 0.15*lin(rf, 0, 3) + 0.15*8
	relEq(t, math.Round(want*100)/100, float64(got.SystemRScore))
	assert.Equal(t, Grade(want), got.Grade)
	require.Len(t, got.Components, 5)
	relEq(t, rf, float64(*got.Components[3].Value))
	var wsum float64
	for _, c := range got.Components {
		wsum += float64(c.Weight)
	}
	relEq(t, 1, wsum)
	assert.Len(t, got.Warnings, 1)

	bad, err := CalculateSystemScore([]float64{-1, -2, -0.5})
	require.NoError(t, err)
	assert.Equal(t, "F", bad.Grade)
	relEq(t, 0.15*3, float64(bad.SystemRScore))
	allWin, err := CalculateSystemScore([]float64{1, 1})
	require.NoError(t, err)
	assert.Nil(t, allWin.Components[1].Value) // SQN undefined: sd = 0
	relEq(t, 100, float64(allWin.Components[1].Score))
	relEq(t, 100, float64(allWin.Components[2].Score))
	_, err = CalculateSystemScore([]float64{1})
	assert.Contains(t, toolkit.MessageOf(err), "r_multiples: needs at least 2")
}

func TestGrade(t *testing.T) {
	cases := map[float64]string{100: "A+", 90: "A+", 89.99: "A", 80: "A", 70: "B", 60: "C", 50: "D", 49.99: "F", 0: "F"}
	for score, want := range cases {
		assert.Equal(t, want, Grade(score), "%v", score)
	}
}
