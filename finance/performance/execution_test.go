package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExecutionQualityClosedForms(t *testing.T) {
	r := []float64{1.5, -1.0, 2.3, 0, -1.2}
	mae := []float64{-0.2, 1.0, 0.4, 0.3, 1.3}
	mfe := []float64{2.0, 0.3, 2.5, 0.5, 0}
	hold := []float64{4, 1, 10, 2, 3}
	res, err := AnalyzeExecutionQuality(ExecutionInput{RMultiples: r, MAE: mae, MFE: mfe, HoldTimesHours: hold})
	require.NoError(t, err)
	meanMAE := (0.2 + 1.0 + 0.4 + 0.3 + 1.3) / 5
	meanMFE := (2.0 + 0.3 + 2.5 + 0.5 + 0) / 5
	assertRel(t, meanMFE/meanMAE, float64(*res.EdgeRatio), 1e-12)
	assertRel(t, (1.5-1+2.3+0-1.2)/(2.0+0.3+2.5+0.5+0), float64(*res.CaptureEfficiency), 1e-12)
	assertRel(t, (1.5+2.3)/(2.0+2.5), float64(*res.WinnerCaptureEfficiency), 1e-12)
	assertRel(t, (1.5/2.0+(-1.0/0.3)+2.3/2.5+0/0.5)/4, float64(*res.AverageExitEfficiency), 1e-12)
	assertRel(t, ((2.0-1.5)+(2.5-2.3))/2, float64(*res.AverageGiveBackR), 1e-12)
	assertRel(t, 1.0/5, float64(*res.StopBreachShare), 1e-15) // only 1.3 > 1
	assertRel(t, 1.0/5, float64(res.LossBeyondOneRShare), 1e-15)
	assertRel(t, meanMAE, float64(res.MAE.Mean), 1e-12)
	assert.Equal(t, toolkit.Float(0.4), res.MAE.Median)
	assertRel(t, type7Quantile([]float64{0.2, 1.0, 0.4, 0.3, 1.3}, 0.9), float64(res.MAE.P90), 1e-12)
	assert.Equal(t, toolkit.Float(1.3), res.MAE.Max)
	assertRel(t, (0.2+0.4)/2, float64(*res.MAE.WinnersMean), 1e-12)
	assertRel(t, (1.0+1.3)/2, float64(*res.MAE.LosersMean), 1e-12)
	assertRel(t, 4, float64(res.HoldTimeHours.Mean), 1e-12)
	assert.Equal(t, toolkit.Float(3), res.HoldTimeHours.Median)
	assert.Empty(t, res.Warnings)
}

func TestSelectQuantileMatchesSort(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 101, 1000} {
		x := normalR(uint64(n), n, 0, 1)
		for i := 0; i < n; i += 3 {
			x[i] = math.Round(x[i]) // ties
		}
		for _, p := range []float64{0, 0.1, 0.5, 0.9, 1} {
			buf := append([]float64(nil), x...)
			assert.Equal(t, quantileSorted(sortedCopy(x), p), selectQuantile(buf, p), "n=%d p=%v", n, p)
		}
	}
}

func TestExecutionQualityWithoutExcursions(t *testing.T) {
	res, err := AnalyzeExecutionQuality(ExecutionInput{RMultiples: []float64{1, -2, 0.5}})
	require.NoError(t, err)
	assert.Nil(t, res.EdgeRatio)
	assert.Nil(t, res.CaptureEfficiency)
	assert.Nil(t, res.MAE)
	assert.Nil(t, res.HoldTimeHours)
	assertRel(t, 1.0/3, float64(res.LossBeyondOneRShare), 1e-15)
	assert.NotEmpty(t, res.Warnings)
}

func TestExecutionQualityBadInput(t *testing.T) {
	r := []float64{1, -1, 2}
	for _, c := range []struct {
		in  ExecutionInput
		msg string
	}{
		{ExecutionInput{RMultiples: []float64{1}}, "r_multiples: needs at least 2"},
		{ExecutionInput{RMultiples: r, MAE: []float64{1, 2}}, "mae_values: must have the same length as r_multiples (3), got 2"},
		{ExecutionInput{RMultiples: r, MFE: []float64{1, 2, 3, 4}}, "mfe_values: must have the same length"},
		{ExecutionInput{RMultiples: r, HoldTimesHours: []float64{}}, "hold_times_hours: must have the same length"},
		{ExecutionInput{RMultiples: r, MFE: []float64{1, math.NaN(), 3}}, "mfe_values: item 1 must be a finite"},
		{ExecutionInput{RMultiples: r, HoldTimesHours: []float64{1, -2, 3}}, "hold_times_hours: item 1 must not be negative"},
	} {
		_, err := AnalyzeExecutionQuality(c.in)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
