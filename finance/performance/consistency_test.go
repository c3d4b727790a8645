package performance

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

// TestPeriodKeysAtYearEdges: months and ISO weeks (Monday first, week 1
// holds the first Thursday) around year ends, by the date as written.
func TestPeriodKeysAtYearEdges(t *testing.T) {
	cases := []struct{ date, month, week string }{
		{"2020-12-31", "2020-12", "2020-W53"},
		{"2021-01-03", "2021-01", "2020-W53"},
		{"2021-01-04", "2021-01", "2021-W01"},
		{"2024-12-30", "2024-12", "2025-W01"},
		{"2025-01-03T23:30:00-05:00", "2025-01", "2025-W01"},
		{"2019-12-29", "2019-12", "2019-W52"},
	}
	for _, c := range cases {
		d, ok := parseTradeDate(c.date)
		require.True(t, ok, c.date)
		assert.Equal(t, c.month, periodName(periodKey(d, false), false), c.date)
		assert.Equal(t, c.week, periodName(periodKey(d, true), true), c.date)
	}
}

func TestParseTradeDate(t *testing.T) {
	cases := []struct {
		in      string
		ok      bool
		y, m, d int
	}{
		{"2024-02-29", true, 2024, 2, 29},
		{"2023-02-29", false, 0, 0, 0},
		{"2024-13-01", false, 0, 0, 0},
		{"2024-00-10", false, 0, 0, 0},
		{"2024-04-31", false, 0, 0, 0},
		{"2024-1-01", false, 0, 0, 0},
		{"20240101", false, 0, 0, 0},
		{"2024-03-10T14:30:00Z", true, 2024, 3, 10},
		{"2024-03-10t14:30:00z", true, 2024, 3, 10}, // RFC 3339 allows lower case; Go's layout does not
		{"2024-03-10T14:30:00.123456+05:30", true, 2024, 3, 10},
		{"2024-03-10T23:59:59-08:00", true, 2024, 3, 10}, // the date as written, not in UTC
		{"2024-03-10T24:00:00Z", false, 0, 0, 0},
		{"2024-03-10T12:60:00Z", false, 0, 0, 0},
		{"2024-03-10T12:00:00", false, 0, 0, 0},
		{"2024-03-10T12:00:00+5:30", false, 0, 0, 0},
		{"2024-03-10T12:00:00.Z", false, 0, 0, 0},
		{"2024-03-10T12:00:00,5Z", false, 0, 0, 0}, // RFC 3339 has no decimal comma; Go accepts one
		{"2024-03-10 12:00:00Z", false, 0, 0, 0},
		{"", false, 0, 0, 0},
		{"abcd-ef-gh", false, 0, 0, 0},
		{"2024-03-10T12:00:00+24:00", false, 0, 0, 0}, // RFC 3339 offsets stop at 23; Go accepts 24
		{"2024-03-10Z", false, 0, 0, 0},
	}
	for _, c := range cases {
		d, ok := parseTradeDate(c.in)
		require.Equal(t, c.ok, ok, c.in)
		if ok {
			assert.Equal(t, [3]int{c.y, c.m, c.d}, [3]int{d.Year(), int(d.Month()), d.Day()}, c.in)
		}
	}
}

func TestConsistencyClosedForms(t *testing.T) {
	r := normalR(71, 103, 0.1, 1)
	res, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{WindowSize: ref(20)})
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
	res, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{})
	require.NoError(t, err)
	assert.Equal(t, 11, res.LongestLosingStreak)
	assertRel(t, math.Log(45)/math.Log(1/0.55), float64(*res.ExpectedLongestLosingStreak), 1e-12)
	assert.Equal(t, 10, res.WindowSize)

	steady := make([]float64, 50)
	for i := range steady {
		steady[i] = []float64{1, -0.5}[i%2]
	}
	res, err = AnalyzeConsistency(context.Background(), steady, ConsistencyOptions{WindowSize: ref(4)})
	require.NoError(t, err)
	assert.Equal(t, ConsistencyConsistent, res.Verdict)
	assert.Equal(t, toolkit.Float(1), res.ProfitableBlockShare)

	losing := make([]float64, 30)
	for i := range losing {
		losing[i] = -1 + float64(i%3)*0.4
	}
	res, err = AnalyzeConsistency(context.Background(), losing, ConsistencyOptions{})
	require.NoError(t, err)
	assert.Equal(t, ConsistencyInconsistent, res.Verdict)
}

func TestConsistencyCalendarBuckets(t *testing.T) {
	r := []float64{1, -1, 2, 0.5, -0.5, 3}
	dates := []string{"2024-02-01", "2024-01-31T23:30:00-05:00", "2024-01-02", "2024-12-30", "2025-01-03T09:00:00Z", "2024-02-15"}
	res, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{Dates: dates, WindowSize: ref(2)})
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
		{r, ConsistencyOptions{WindowSize: ref(4)}, toolkit.Invalid, "window_size: must be between 2 and min(number of r_multiples, 1000) = 3, got 4"},
		{r, ConsistencyOptions{WindowSize: ref(1)}, toolkit.Invalid, "window_size:"},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01"}}, toolkit.Invalid, "dates: must have the same length as r_multiples (3), got 1"},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01", "", "2024-01-03"}}, toolkit.Invalid, `dates: item 1 ("") must be YYYY-MM-DD`},
		{r, ConsistencyOptions{Dates: []string{"2024-01-01", "2024-02-30", "2024-01-03"}}, toolkit.Invalid, "dates: item 1"},
		{r, ConsistencyOptions{Dates: make([]string, limits.MaxItems+1)}, toolkit.TooLarge, "dates: at most"},
	} {
		_, err := AnalyzeConsistency(context.Background(), c.r, c.opt)
		require.Error(t, err)
		assert.Equal(t, c.kind, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
