package performance

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

func TestISOWeekMatchesTimePackage(t *testing.T) {
	start := time.Date(1999, 12, 1, 0, 0, 0, 0, time.UTC)
	for d := 0; d < 366*30; d++ {
		tm := start.AddDate(0, 0, d)
		wy, ww := tm.ISOWeek()
		gy, gw := pbISOWeek(pbDate{tm.Year(), int(tm.Month()), tm.Day()})
		require.Equal(t, [2]int{wy, ww}, [2]int{gy, gw}, tm.Format(time.DateOnly))
		require.Equal(t, int(tm.Unix()/86400), pbDaysFromCivil(tm.Year(), int(tm.Month()), tm.Day()))
	}
}

func TestParseDateAgreesWithTimeParse(t *testing.T) {
	cases := []string{
		"2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-1-01", "20240101",
		"2024-03-10T14:30:00Z", "2024-03-10t14:30:00z", "2024-03-10T14:30:00.123456+05:30",
		"2024-03-10T23:59:59-08:00", "2024-03-10T24:00:00Z", "2024-03-10T12:60:00Z", "2024-03-10T12:00:00",
		"2024-03-10T12:00:00+5:30", "2024-03-10T12:00:00.Z", "2024-03-10 12:00:00Z", "", "abcd-ef-gh",
		"2024-03-10T12:00:00+24:00", "2024-03-10Z",
	}
	for _, s := range cases {
		d, ok := pbParseDate(s)
		layout := time.RFC3339Nano
		if len(s) == 10 {
			layout = time.DateOnly
		}
		tm, err := time.Parse(layout, s)
		switch s {
		case "2024-03-10t14:30:00z": // RFC 3339 allows lower case; Go's layout does not
			require.True(t, ok, s)
			continue
		case "2024-03-10T12:00:00+24:00": // RFC 3339 offsets stop at 23; Go accepts 24
			require.False(t, ok, s)
			continue
		}
		require.Equal(t, err == nil, ok, s)
		if ok {
			assert.Equal(t, pbDate{tm.Year(), int(tm.Month()), tm.Day()}, d, s)
		}
	}
}

func TestConsistencyClosedForms(t *testing.T) {
	r := normalR(71, 103, 0.1, 1)
	res, err := AnalyzeConsistency(r, ConsistencyOptions{WindowSize: 20})
	require.NoError(t, err)
	require.Equal(t, 84, res.WindowCount)
	var means, gs []float64
	for i := 0; i+20 <= len(r); i++ {
		w := r[i : i+20]
		means = append(means, stat.Mean(w, nil))
		gs = append(gs, G(w))
	}
	assertRel(t, stat.Mean(means, nil), float64(res.RollingExpectancy.Mean), 1e-12)
	assertRel(t, stat.StdDev(means, nil), float64(res.RollingExpectancy.StdDev), 1e-12)
	assertRel(t, slices.Min(gs), float64(res.RollingG.Min), 1e-12)
	assertRel(t, slices.Max(gs), float64(res.RollingG.Max), 1e-12)
	pos := 0
	for _, m := range means {
		if m > 0 {
			pos++
		}
	}
	assertRel(t, float64(pos)/84, float64(res.RollingExpectancy.PositiveShare), 1e-15)
	assert.Equal(t, 5, res.BlockCount)
	// R² of the cumulative curve: squared correlation with the trade number.
	cum, idx := make([]float64, len(r)), make([]float64, len(r))
	c := 0.0
	for i, x := range r {
		c += x
		cum[i], idx[i] = c, float64(i+1)
	}
	rho := stat.Correlation(idx, cum, nil)
	assertRel(t, rho*rho, float64(*res.EquityCurveR2), 1e-12)
}

func TestConsistencyStreakAndVerdict(t *testing.T) {
	// 100 trades, 55 % non-wins in a fixed pattern; Schilling example
	// n = 100, q = 0.55 gives ln 45 / ln(1/0.55) ≈ 6.37.
	r := make([]float64, 100)
	for i := range r {
		r[i] = 1
		if i%20 < 11 {
			r[i] = -1
		}
	}
	res, err := AnalyzeConsistency(r, ConsistencyOptions{})
	require.NoError(t, err)
	assert.Equal(t, 11, res.LongestLosingStreak)
	assertRel(t, math.Log(45)/math.Log(1/0.55), float64(*res.ExpectedLongestLosingStreak), 1e-12)
	assert.Equal(t, 10, res.WindowSize)

	steady := make([]float64, 50)
	for i := range steady {
		steady[i] = []float64{1, -0.5}[i%2]
	}
	res, err = AnalyzeConsistency(steady, ConsistencyOptions{WindowSize: 4})
	require.NoError(t, err)
	assert.Equal(t, ConsistencyConsistent, res.Verdict)
	assert.Equal(t, toolkit.Float(1), res.ProfitableBlockShare)

	losing := make([]float64, 30)
	for i := range losing {
		losing[i] = -1 + float64(i%3)*0.4
	}
	res, err = AnalyzeConsistency(losing, ConsistencyOptions{})
	require.NoError(t, err)
	assert.Equal(t, ConsistencyInconsistent, res.Verdict)
}

func TestConsistencyCalendarBuckets(t *testing.T) {
	r := []float64{1, -1, 2, 0.5, -0.5, 3}
	dates := []string{"2024-02-01", "2024-01-31T23:30:00-05:00", "2024-01-02", "2024-12-30", "2025-01-03T09:00:00Z", "2024-02-15"}
	res, err := AnalyzeConsistency(r, ConsistencyOptions{Dates: dates, WindowSize: 2})
	require.NoError(t, err)
	require.NotNil(t, res.Monthly)
	var months []string
	for _, p := range res.Monthly.Periods {
		months = append(months, p.Period)
	}
	assert.Equal(t, []string{"2024-01", "2024-02", "2024-12", "2025-01"}, months)
	jan := res.Monthly.Periods[0]
	assert.Equal(t, 2, jan.Count)                                   // the -05:00 timestamp stays in January
	assertRel(t, 1, float64(jan.TotalR), 1e-15)                     // -1 + 2
	assertRel(t, 0.5, float64(jan.WinRate), 1e-15)                  // one win of two
	assertRel(t, G([]float64{-1, 2}), float64(jan.G), 1e-12)        // G of the bucket
	assertRel(t, 0.75, float64(res.Monthly.ProfitableShare), 1e-15) // 2025-01 lost
	assert.Equal(t, "2024-02", res.Monthly.BestPeriod)
	assert.Equal(t, "2025-01", res.Monthly.WorstPeriod)
	var weeks []string
	for _, p := range res.Weekly.Periods {
		weeks = append(weeks, p.Period)
	}
	// 2024-12-30 and 2025-01-03 are both in ISO week 2025-W01.
	assert.Equal(t, []string{"2024-W01", "2024-W05", "2024-W07", "2025-W01"}, weeks)
	assert.Equal(t, 2, res.Weekly.Periods[1].Count)
}

func TestConsistencyBadInput(t *testing.T) {
	r := []float64{1, -1, 2}
	for _, c := range []struct {
		r    []float64
		opt  ConsistencyOptions
		kind toolkit.Kind
		msg  string
	}{
		{[]float64{1}, ConsistencyOptions{}, toolkit.Invalid, "r_multiples: needs at least 2"},
		{r, ConsistencyOptions{WindowSize: 4}, toolkit.Invalid, "window_size: must be between 2 and min(number of r_multiples, 1000) = 3, got 4"},
		{r, ConsistencyOptions{WindowSize: 1}, toolkit.Invalid, "window_size:"},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01"}}, toolkit.Invalid, "dates: must have the same length as r_multiples (3), got 1"},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01", "", "2024-01-03"}}, toolkit.Invalid, `dates: item 1 ("") must be YYYY-MM-DD`},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01", "2024-02-30", "2024-01-03"}}, toolkit.Invalid, "dates: item 1"},
		{r, ConsistencyOptions{Dates: make([]string, toolkit.MaxValues+1)}, toolkit.TooLarge, "dates: at most"},
	} {
		_, err := AnalyzeConsistency(c.r, c.opt)
		require.Error(t, err)
		assert.Equal(t, c.kind, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
