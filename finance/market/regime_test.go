package market

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDetectRegimePlanted plants each regime and requires at least 90 %
// correct labels at bars well inside the planted segment (20 seeds × 5
// evaluation points each).
func TestDetectRegimePlanted(t *testing.T) {
	calm := segment{n: 250, vol: 0.01, meanRevert: 0.1}
	cases := []struct {
		want     string
		segs     []segment
		from, to int // evaluation bars (exclusive end indexes)
	}{
		{RegimeTrendingUp, []segment{{n: 300, drift: 0.005, vol: 0.01}}, 250, 300},
		{RegimeTrendingDown, []segment{{n: 300, drift: -0.005, vol: 0.01}}, 250, 300},
		{RegimeRanging, []segment{{n: 300, vol: 0.01, meanRevert: 0.15}}, 250, 300},
		{RegimeLowVol, []segment{calm, {n: 60, vol: 0.003, meanRevert: 0.1}}, 270, 290},
		{RegimeVolatile, []segment{calm, {n: 60, vol: 0.03, meanRevert: 0.1}}, 270, 290},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			right, total := 0, 0
			for seed := uint64(1); seed <= 20; seed++ {
				bars := plantedBars(seed, 100, tc.segs...)
				for end := tc.from; end <= tc.to; end += (tc.to - tc.from) / 4 {
					r, err := result(DetectRegime(context.Background(), bars[:end]))
					require.NoError(t, err)
					total++
					if r.Regime == tc.want {
						right++
					}
					assert.GreaterOrEqual(t, float64(r.Confidence), 0.0)
					assert.LessOrEqual(t, float64(r.Confidence), 1.0)
				}
			}
			assert.GreaterOrEqual(t, float64(right)/float64(total), 0.90, "%d of %d labelled %s", right, total, tc.want)
		})
	}
}

func TestDetectRegimeEvidenceAndEdges(t *testing.T) {
	bars := plantedBars(3, 100, segment{n: 300, drift: 0.005, vol: 0.01})
	r, err := result(DetectRegime(context.Background(), bars))
	require.NoError(t, err)
	assert.Equal(t, RegimeTrendingUp, r.Regime)
	assert.Equal(t, 200, r.Evidence.SMAPeriod)
	assert.Equal(t, 200, r.Evidence.ATRPercentileWindow)
	assert.Greater(t, float64(r.Evidence.ADX), RegimeADXTrend)
	assert.Greater(t, float64(r.Evidence.SMASlope), RegimeSlopeMin)
	assert.Greater(t, float64(r.Evidence.PlusDI), float64(r.Evidence.MinusDI))
	assert.NotEmpty(t, r.Reasons)

	// Exactly 200 bars: the long SMA shrinks to 180 so its 20-bar slope exists.
	r, err = result(DetectRegime(context.Background(), bars[:200]))
	require.NoError(t, err)
	assert.Equal(t, 180, r.Evidence.SMAPeriod)

	// A flat series has no range at all.
	flat := make([]Bar, 200)
	for i := range flat {
		flat[i] = Bar{Open: 10, High: 10, Low: 10, Close: 10, Volume: 1}
	}
	r, err = result(DetectRegime(context.Background(), flat))
	require.NoError(t, err)
	assert.Equal(t, RegimeLowVol, r.Regime)
	assert.Equal(t, toolkit.Float(1), r.Confidence)

	// The regime does not depend on the price scale (ADX has no absolute epsilon).
	micro := make([]Bar, len(bars))
	for i, b := range bars {
		micro[i] = Bar{Open: b.Open * 1e-9, High: b.High * 1e-9, Low: b.Low * 1e-9, Close: b.Close * 1e-9, Volume: b.Volume}
	}
	rm, err := result(DetectRegime(context.Background(), micro))
	require.NoError(t, err)
	r, _ = result(DetectRegime(context.Background(), bars))
	assert.Equal(t, r.Regime, rm.Regime)
	assert.InDelta(t, float64(r.Evidence.ADX), float64(rm.Evidence.ADX), 1e-9)

	short, err := DetectRegime(context.Background(), bars[:199])
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "too few bars is an answer, not an error")
	assert.Equal(t, 200, short.Insufficient.BarsRequired)
}

// TestRegimeDirectionAgreesWithTheDIs: a trend needs ADX >= 25, the SMA
// direction and the directional indicators to agree; when the DIs point
// the other way the answer is RANGING and the reason says why.
func TestRegimeDirectionAgreesWithTheDIs(t *testing.T) {
	down := regimeInputs{adx: 32, atr: 1, pct: 50, ratio: 1, slope: -0.1, close: 95, sma: 100}
	cases := []struct {
		name             string
		plusDI, minusDI  float64
		slope, close     float64
		want, wantReason string
	}{
		{"down, -DI leads", 15, 30, -0.1, 95, RegimeTrendingDown, "-DI leads"},
		{"down by the SMA, +DI leads", 30, 15, -0.1, 95, RegimeRanging, "directional indicators"},
		{"up, +DI leads", 30, 15, 0.1, 105, RegimeTrendingUp, "+DI leads"},
		{"up by the SMA, -DI leads", 15, 30, 0.1, 105, RegimeRanging, "directional indicators"},
		{"DIs equal", 20, 20, 0.1, 105, RegimeRanging, "directional indicators"},
		{"SMA and close disagree", 30, 15, 0.1, 95, RegimeRanging, "do not agree"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := down
			in.plusDI, in.minusDI, in.slope, in.close = c.plusDI, c.minusDI, c.slope, c.close
			regime, _, reasons := classifyRegime(in)
			assert.Equal(t, c.want, regime)
			assert.Contains(t, strings.Join(reasons, "; "), c.wantReason)
		})
	}
	// on random walks a reported trend always has its DI leading
	for seed := uint64(1); seed <= 40; seed++ {
		bars := randomBars(seed, 400, 0.015)
		for end := 200; end <= 400; end += 25 {
			r, err := result(DetectRegime(context.Background(), bars[:end]))
			require.NoError(t, err)
			switch r.Regime {
			case RegimeTrendingUp:
				assert.Greater(t, r.Evidence.PlusDI, r.Evidence.MinusDI)
			case RegimeTrendingDown:
				assert.Greater(t, r.Evidence.MinusDI, r.Evidence.PlusDI)
			}
		}
	}
}
