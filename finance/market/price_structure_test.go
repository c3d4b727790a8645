package market

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func labelsOf(sw []SwingPoint) []string {
	out := make([]string, len(sw))
	for i, s := range sw {
		out[i] = s.Label
	}
	return out
}

func indexesOf(sw []SwingPoint) []int {
	out := make([]int, len(sw))
	for i, s := range sw {
		out[i] = s.Index
	}
	return out
}

// TestPriceStructureTextbook: staircase up (higher highs and higher lows),
// staircase down, and a flat channel.
func TestPriceStructureTextbook(t *testing.T) {
	up := linePath([2]float64{0, 100}, [2]float64{6, 106}, [2]float64{10, 103}, [2]float64{16, 109},
		[2]float64{20, 106}, [2]float64{26, 112}, [2]float64{30, 109}, [2]float64{36, 115}, [2]float64{40, 112})
	r, err := result(AnalyzePriceStructure(context.Background(), pathBars(up, 0.2), PriceStructureOptions{}))
	require.NoError(t, err)
	assert.Equal(t, []int{6, 16, 26, 36}, indexesOf(r.SwingHighs))
	assert.Equal(t, []int{10, 20, 30}, indexesOf(r.SwingLows))
	assert.Equal(t, []string{"", "HH", "HH", "HH"}, labelsOf(r.SwingHighs))
	assert.Equal(t, []string{"", "HL", "HL"}, labelsOf(r.SwingLows))
	assert.Equal(t, []string{"HH", "HL", "HH", "HL", "HH"}, r.Sequence)
	assert.Equal(t, StructureUptrend, r.Structure)
	assert.Equal(t, 38, r.LastSwingHigh.ConfirmedAt)
	assert.InDelta(t, 115.2, float64(r.LastSwingHigh.Price), 1e-9)
	assert.Equal(t, "none", r.BreakOfStructure)

	down := make([]float64, len(up))
	for i, v := range up {
		down[i] = 220 - v
	}
	r, err = result(AnalyzePriceStructure(context.Background(), pathBars(down, 0.2), PriceStructureOptions{}))
	require.NoError(t, err)
	assert.Equal(t, []string{"", "LH", "LH"}, labelsOf(r.SwingHighs))
	assert.Equal(t, []string{"", "LL", "LL", "LL"}, labelsOf(r.SwingLows))
	assert.Equal(t, StructureDowntrend, r.Structure)

	// a channel between 100 and 106: equal highs and lows, range, with a
	// resistance and a support level touched three times each
	channel := linePath([2]float64{0, 103}, [2]float64{3, 106}, [2]float64{9, 100}, [2]float64{15, 106},
		[2]float64{21, 100}, [2]float64{27, 106}, [2]float64{33, 100}, [2]float64{36, 103})
	r, err = result(AnalyzePriceStructure(context.Background(), pathBars(channel, 0.2), PriceStructureOptions{}))
	require.NoError(t, err)
	assert.Equal(t, []string{"", "EH", "EH"}, labelsOf(r.SwingHighs))
	assert.Equal(t, []string{"", "EL", "EL"}, labelsOf(r.SwingLows))
	assert.Equal(t, StructureRange, r.Structure)
	require.Len(t, r.Resistance, 1)
	require.Len(t, r.Support, 1)
	assert.Equal(t, 3, r.Resistance[0].Touches)
	assert.InDelta(t, 106.2, float64(r.Resistance[0].Price), 1e-9)
	assert.Equal(t, 3, r.Support[0].Touches)
	assert.InDelta(t, 99.8, float64(r.Support[0].Price), 1e-9)
	assert.Equal(t, 9, r.Support[0].FirstIndex)
	assert.Equal(t, 33, r.Support[0].LastIndex)
	assert.InDelta(t, (106.2-103)/103*100, float64(r.Resistance[0].DistancePct), 1e-9)

	// a close above the last swing high breaks the structure upward
	broken := append(append([]float64(nil), channel...), 105, 107.5)
	r, err = result(AnalyzePriceStructure(context.Background(), pathBars(broken, 0.2), PriceStructureOptions{}))
	require.NoError(t, err)
	assert.Equal(t, "bullish", r.BreakOfStructure)
}

// TestSwingPointsMatchBruteForce compares the fractal detector with a
// direct reading of its definition, for several windows.
func TestSwingPointsMatchBruteForce(t *testing.T) {
	k := Columns(randomBars(9, 600, 0.01))
	for w := 1; w <= 5; w++ {
		for _, high := range []bool{true, false} {
			x := k.Low
			if high {
				x = k.High
			}
			var want []int
			for t := w; t+w < len(x); t++ {
				ok := true
				for j := t - w; j <= t+w; j++ {
					switch {
					case j == t:
					case high && j < t:
						ok = ok && x[t] > x[j]
					case high:
						ok = ok && x[t] >= x[j]
					case j < t:
						ok = ok && x[t] < x[j]
					default:
						ok = ok && x[t] <= x[j]
					}
				}
				if ok {
					want = append(want, t)
				}
			}
			highs, lows := swingPoints(new(scratch), x, x, w)
			got := lows
			if high {
				got = highs
			}
			assert.Equal(t, want, got, "w=%d high=%v", w, high)
		}
	}
}

// TestConsolidationZone: a tight 15-bar pause inside a trend is one zone.
func TestConsolidationZone(t *testing.T) {
	closes := linePath([2]float64{0, 100}, [2]float64{30, 130})
	for i := 0; i < 15; i++ {
		closes = append(closes, 130+0.2*float64(i%2))
	}
	closes = append(closes, linePath([2]float64{0, 131}, [2]float64{20, 151})...)
	r, err := result(AnalyzePriceStructure(context.Background(), pathBars(closes, 0.3), PriceStructureOptions{}))
	require.NoError(t, err)
	require.Len(t, r.ConsolidationZones, 1)
	z := r.ConsolidationZones[0]
	assert.LessOrEqual(t, z.StartIndex, 31)
	assert.GreaterOrEqual(t, z.EndIndex, 44)
	assert.Equal(t, z.EndIndex-z.StartIndex+1, z.Bars)
	assert.False(t, z.Active)
	k := Columns(pathBars(closes, 0.3))
	hi, lo := k.High[z.StartIndex], k.Low[z.StartIndex]
	for i := z.StartIndex; i <= z.EndIndex; i++ {
		hi, lo = max(hi, k.High[i]), min(lo, k.Low[i])
	}
	assert.Equal(t, hi, float64(z.High))
	assert.Equal(t, lo, float64(z.Low))
	// its first window is tight against the ATR before it
	w := r.ConsolidationWindow
	hi, lo = k.High[z.StartIndex], k.Low[z.StartIndex]
	for i := z.StartIndex; i < z.StartIndex+w; i++ {
		hi, lo = max(hi, k.High[i]), min(lo, k.Low[i])
	}
	assert.LessOrEqual(t, hi-lo, consolidationRangeATR*rangeScale(new(scratch), k)[z.StartIndex-1])

	// ending in the pause makes the zone active
	r, err = result(AnalyzePriceStructure(context.Background(), pathBars(closes[:45], 0.3), PriceStructureOptions{ConsolidationWindow: ref(8)}))
	require.NoError(t, err)
	require.NotEmpty(t, r.ConsolidationZones)
	assert.True(t, r.ConsolidationZones[len(r.ConsolidationZones)-1].Active)
	assert.Equal(t, 8, r.ConsolidationWindow)
}

// TestPriceStructureProperties on random walks.
func TestPriceStructureProperties(t *testing.T) {
	for _, seed := range []uint64{4, 5, 6} {
		bars := randomBars(seed, 2000, 0.01)
		r, err := result(AnalyzePriceStructure(context.Background(), bars, PriceStructureOptions{}))
		require.NoError(t, err)
		n := len(bars)
		last := float64(bars[n-1].Close)
		for _, sw := range [][]SwingPoint{r.SwingHighs, r.SwingLows} {
			for j, s := range sw {
				assert.Equal(t, s.Index+r.SwingWindow, s.ConfirmedAt)
				assert.Less(t, s.ConfirmedAt, n)
				if j > 0 {
					assert.Greater(t, s.Index, sw[j-1].Index)
					assert.NotEmpty(t, s.Label)
				}
			}
		}
		assert.LessOrEqual(t, len(r.Support), maxLevelsPerSide)
		assert.LessOrEqual(t, len(r.Resistance), maxLevelsPerSide)
		for j, l := range r.Support {
			assert.LessOrEqual(t, float64(l.Price), last)
			assert.LessOrEqual(t, l.FirstIndex, l.LastIndex)
			assert.Positive(t, l.Touches)
			if j > 0 {
				assert.Less(t, float64(l.Price), float64(r.Support[j-1].Price), "nearest support first")
			}
		}
		for j, l := range r.Resistance {
			assert.Greater(t, float64(l.Price), last)
			if j > 0 {
				assert.Greater(t, float64(l.Price), float64(r.Resistance[j-1].Price), "nearest resistance first")
			}
		}
		for j, z := range r.ConsolidationZones {
			assert.GreaterOrEqual(t, z.Bars, r.ConsolidationWindow)
			assert.GreaterOrEqual(t, float64(z.High), float64(z.Low))
			if j > 0 {
				assert.Greater(t, z.StartIndex, r.ConsolidationZones[j-1].EndIndex+1, "zones are merged when they touch")
			}
		}
		assert.Contains(t, []string{StructureUptrend, StructureDowntrend, StructureRange}, r.Structure)
		assert.LessOrEqual(t, len(r.Sequence), sequenceLength)
		h, l := float64(bars[n-1].High), float64(bars[n-1].Low)
		p := (h + l + last) / 3
		assert.InDelta(t, p, float64(r.Pivots.Pivot), 1e-12)
		assert.InDelta(t, 2*p-l, float64(r.Pivots.R1), 1e-12)
		assert.InDelta(t, p-(h-l), float64(r.Pivots.S2), 1e-12)
	}
}

func TestPriceStructureValidation(t *testing.T) {
	bars := randomBars(8, 30, 0.01)
	short, err := AnalyzePriceStructure(context.Background(), bars[:20], PriceStructureOptions{})
	require.NoError(t, err)
	require.NotNil(t, short.Insufficient, "too few bars is an answer, not an error")
	assert.Equal(t, 21, short.Insufficient.BarsRequired)
	for _, o := range []PriceStructureOptions{{SwingWindow: ref(11)}, {SwingWindow: ref(-1)}, {ConsolidationWindow: ref(4)}, {ConsolidationWindow: ref(51)}} {
		_, err = result(AnalyzePriceStructure(context.Background(), bars, o))
		require.Error(t, err, "%+v", o)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	}
	// 21 flat bars: no swings, no levels, a single active consolidation
	flat := make([]Bar, 21)
	for i := range flat {
		flat[i] = Bar{Open: 10, High: 10, Low: 10, Close: 10, Volume: 0}
	}
	r, err := result(AnalyzePriceStructure(context.Background(), flat, PriceStructureOptions{}))
	require.NoError(t, err)
	assert.Empty(t, r.SwingHighs)
	assert.Nil(t, r.LastSwingHigh)
	assert.Equal(t, StructureRange, r.Structure)
	assert.Empty(t, r.Support)
	require.Len(t, r.ConsolidationZones, 1)
	assert.True(t, r.ConsolidationZones[0].Active)
}

func TestPriceStructureGolden(t *testing.T) {
	r, err := result(AnalyzePriceStructure(context.Background(), randomBars(43, 300, 0.015), PriceStructureOptions{}))
	require.NoError(t, err)
	golden.Check(t, "testdata/price_structure.json", r)
}

func TestStructuralBreakGolden(t *testing.T) {
	bars := randomBars(44, 260, 0.01)
	for i := 150; i < len(bars); i++ { // a planted drift after bar 150
		f := toolkit.Float(1 + 0.008*float64(i-149))
		bars[i].Open, bars[i].High, bars[i].Low, bars[i].Close = bars[i].Open*f, bars[i].High*f, bars[i].Low*f, bars[i].Close*f
	}
	r, err := result(DetectStructuralBreak(context.Background(), bars, BreakOptions{}))
	require.NoError(t, err)
	golden.Check(t, "testdata/structural_break.json", r)
}

// TestWindowExtremesMatchBruteForce checks the window maxima and minima
// (direct for short windows, van Herk/Gil-Werman blocks beyond) against a
// direct scan, on window lengths that do and do not divide the series.
func TestWindowExtremesMatchBruteForce(t *testing.T) {
	k := Columns(randomBars(12, 300, 0.01))
	for _, w := range []int{1, 2, directExtremes, directExtremes + 1, 7, 20, 300} {
		mx, mn := windowExtremes(new(scratch), k.High, k.Low, w)
		for i := w - 1; i < len(k.High); i++ {
			hi, lo := k.High[i], k.Low[i]
			for j := i - w + 1; j <= i; j++ {
				hi, lo = max(hi, k.High[j]), min(lo, k.Low[j])
			}
			require.Equal(t, hi, mx[i], "w=%d i=%d", w, i)
			require.Equal(t, lo, mn[i], "w=%d i=%d", w, i)
		}
	}
}
