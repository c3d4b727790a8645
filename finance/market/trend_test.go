package market

import (
	"context"
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// closesBars builds bars from closes with a fixed high-low half range
// (as a fraction of the close) around each close.
func closesBars(closes []float64, halfRange float64) []Bar {
	bars := make([]Bar, len(closes))
	for i, c := range closes {
		o := c
		if i > 0 {
			o = closes[i-1]
		}
		h := max(o, c) * (1 + halfRange)
		l := min(o, c) * (1 - halfRange)
		bars[i] = Bar{Open: toolkit.Float(o), High: toolkit.Float(h), Low: toolkit.Float(l), Close: toolkit.Float(c), Volume: 100}
	}
	return bars
}

func TestTrendSqueezeStates(t *testing.T) {
	// Wide bars, closes barely moving: BB (close σ) inside KC (ATR) -> ACTIVE.
	quiet := make([]float64, 60)
	for i := range quiet {
		quiet[i] = 100 + 0.05*math.Sin(float64(i))
	}
	r, err := result(AnalyzeTrendStructure(context.Background(), closesBars(quiet, 0.01)))
	require.NoError(t, err)
	assert.Equal(t, SqueezeActive, r.Squeeze)
	assert.GreaterOrEqual(t, r.SqueezeBars, 20)
	assert.Less(t, float64(r.WidthRatio), 1.0)

	// Then a breakout: closes jump; BB widens past KC -> FIRING for 1-3 bars.
	brk := append(append([]float64(nil), quiet...), 110, 120)
	r, err = result(AnalyzeTrendStructure(context.Background(), closesBars(brk, 0.01)))
	require.NoError(t, err)
	assert.Equal(t, SqueezeFiring, r.Squeeze)
	assert.GreaterOrEqual(t, r.SqueezeBars, TrendMinSqueeze)

	// Big close-to-close swings with narrow bars: BB far outside KC -> NONE.
	swing := make([]float64, 60)
	for i := range swing {
		swing[i] = 100 + 5*math.Sin(float64(i)/3)
	}
	r, err = result(AnalyzeTrendStructure(context.Background(), closesBars(swing, 0.001)))
	require.NoError(t, err)
	assert.Equal(t, SqueezeNone, r.Squeeze)
}

func TestTrendPhase(t *testing.T) {
	// Oscillation whose amplitude grows: bandwidth rising at its highs.
	grow := make([]float64, 120)
	shrink := make([]float64, 120)
	for i := range grow {
		grow[i] = 100 + (0.1+0.05*float64(i))*math.Sin(float64(i)*1.3)
		shrink[i] = 100 + (0.1+0.05*float64(119-i))*math.Sin(float64(i)*1.3)
	}
	r, err := result(AnalyzeTrendStructure(context.Background(), closesBars(grow, 0.002)))
	require.NoError(t, err)
	assert.Equal(t, PhaseExpansion, r.Phase)
	assert.Greater(t, float64(r.BandwidthSlope), 0.0)
	r, err = result(AnalyzeTrendStructure(context.Background(), closesBars(shrink, 0.002)))
	require.NoError(t, err)
	assert.Equal(t, PhaseCompression, r.Phase)
	assert.Less(t, float64(r.BandwidthSlope), 0.0)
}

func TestTrendMomentum(t *testing.T) {
	n := 40
	lin, acc, dec := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range lin {
		x := float64(i)
		lin[i] = 100 + 0.5*x             // constant momentum
		acc[i] = 100 + 0.02*x*x*x/10     // convex: momentum growing
		dec[i] = 100 + 20*math.Sqrt(x+1) // concave: momentum fading
	}
	cases := map[string][]float64{MomentumSteady: lin, MomentumAccelerating: acc, MomentumDecelerating: dec}
	for want, closes := range cases {
		r, err := result(AnalyzeTrendStructure(context.Background(), closesBars(closes, 0.002)))
		require.NoError(t, err)
		assert.Equal(t, want, r.Momentum, want)
		assert.Equal(t, "UP", r.Direction)
	}

	short, err := AnalyzeTrendStructure(context.Background(), closesBars(lin[:20], 0.002))
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "too few bars is an answer, not an error")
	assert.Equal(t, 21, short.Insufficient.BarsRequired)
	_, err = result(AnalyzeTrendStructure(context.Background(), closesBars(lin[:21], 0.002)))
	require.NoError(t, err)
}
