package performance

import (
	"math"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var biasStart = time.Date(2026, 3, 2, 14, 0, 0, 0, time.UTC)

// outcomes is a fixed, irregular sequence of wins (+) and losses (-).
const outcomes = "+-+--++-+-+--+-++--+-+-++-"

// journal builds one trade per outcome, a day apart, each with the
// fields set by fill (which receives the index and whether it won).
func journal(fill func(i int, win bool, t *BiasTrade)) []BiasTrade {
	trades := make([]BiasTrade, len(outcomes))
	for i, c := range outcomes {
		win := c == '+'
		t := BiasTrade{RMultiple: -1}
		if win {
			t.RMultiple = 1.5
		}
		fill(i, win, &t)
		trades[i] = t
	}
	return trades
}

// at returns a time h hours after day i of the journal.
func at(i int, h float64) *time.Time {
	return ref(biasStart.AddDate(0, 0, i).Add(time.Duration(h * float64(time.Hour))))
}

func check(t *testing.T, rep *BiasReport, bias string) BiasCheck {
	t.Helper()
	for _, c := range rep.Checks {
		if c.BiasType == bias {
			return c
		}
	}
	t.Fatalf("no check %s", bias)
	return BiasCheck{}
}

func detected(rep *BiasReport) []string {
	out := []string{}
	for _, b := range rep.Biases {
		out = append(out, b.BiasType)
	}
	return out
}

func TestBiasesEachPresentAlone(t *testing.T) {
	cases := []struct {
		name     string
		trades   []BiasTrade
		bias     string
		severity string
		also     []string // biases the construction implies as well
	}{
		{"disposition: losers held four times longer", journal(func(i int, win bool, t *BiasTrade) {
			h := 2 + float64(i%3)*0.5
			if !win {
				h *= 4
			}
			t.HoldTimeHours = &h
		}), BiasDisposition, SeverityHigh, nil},
		{"recency: size x1.3 after a win, /1.3 after a loss (ratio 1.69)", journal(func(i int, win bool, t *BiasTrade) {}), BiasRecency, SeverityMedium, nil},
		{"overtrading: the busier the day, the worse", overtradingJournal(true), BiasOvertrading, SeverityHigh, nil},
		{"loss aversion: winners keep a sixth of their excursion", journal(func(i int, win bool, t *BiasTrade) {
			t.MFER = ref(t.RMultiple * (6 + float64(i%3)*0.5))
			if !win {
				t.MFER = ref(0.2)
			}
		}), BiasLossAverse, SeverityHigh, nil},
		{"revenge: next trade within minutes of a loss", journal(func(i int, win bool, t *BiasTrade) {}), BiasRevenge, SeverityHigh,
			[]string{BiasOvertrading}}, // quick re-entries after losses crowd the losing days
		{"revenge: size x1.6 after a loss, back to normal after a win", journal(func(i int, win bool, t *BiasTrade) {}), BiasRevenge, SeverityMedium, nil},
	}
	// Sizes for recency: each trade's size follows the previous outcome.
	size := 100.0
	for i := range cases[1].trades {
		cases[1].trades[i].Size = ref(size)
		if cases[1].trades[i].RMultiple > 0 {
			size *= 1.3
		} else {
			size /= 1.3
		}
	}
	// Times for revenge: a trade after a loss starts 6 minutes after it;
	// after a win, 20 hours (with some spread).
	entry := biasStart
	for i := range cases[4].trades {
		tr := &cases[4].trades[i]
		exit := entry.Add(time.Hour)
		tr.EntryTime, tr.ExitTime = ref(entry), ref(exit)
		gap := 20*time.Hour + time.Duration(i%4)*time.Hour
		if tr.RMultiple < 0 {
			gap = 6*time.Minute + time.Duration(i%3)*time.Minute
		}
		entry = exit.Add(gap)
	}
	// Sizes for size revenge: 1.6 times the previous size after a loss,
	// 100 after a win.
	size = 100.0
	for i := range cases[5].trades {
		cases[5].trades[i].Size = ref(size)
		if cases[5].trades[i].RMultiple < 0 {
			size *= 1.6
		} else {
			size = 100
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := AnalyzeBiases(tc.trades)
			require.NoError(t, err)
			c := check(t, rep, tc.bias)
			require.Equal(t, CheckAnalyzed, c.Status, c.Reason)
			assert.True(t, c.Detected, "%+v", c)
			require.NotNil(t, c.Severity)
			assert.Equal(t, tc.severity, *c.Severity, "%+v", c.Tests)
			assert.ElementsMatch(t, append([]string{tc.bias}, tc.also...), detected(rep), "only the planted bias is reported")
			assert.Less(t, float64(rep.Biases[0].PValue), BiasAlpha)
			assert.NotEmpty(t, rep.Biases[0].Recommendation)
		})
	}
}

// overtradingJournal builds 10 days; day k holds k+1 trades whose R falls
// with the day's count (worse) or does not depend on it.
func overtradingJournal(worse bool) []BiasTrade {
	var trades []BiasTrade
	for day := range 10 {
		n := day + 1
		for j := range n {
			r := 1.0 - 0.25*float64(day)
			if !worse {
				r = []float64{0.8, -0.4, 1.1, -0.2, 0.5, 0.9, -0.6, 0.3, 1.2, -0.1}[(day*7+3)%10]
			}
			if j%2 == 1 {
				r += 0.1 // spread within the day, same mean order
			}
			trades = append(trades, BiasTrade{RMultiple: r, EntryTime: at(day, float64(j))})
		}
	}
	return trades
}

func TestBiasesAbsent(t *testing.T) {
	steady := journal(func(i int, win bool, t *BiasTrade) {
		h := 3 + float64(i%4)
		t.HoldTimeHours = &h
		t.Size = ref(100 + float64(i%3))
		t.MFER = ref(math.Abs(t.RMultiple) * 1.1)
		t.EntryTime = at(i, 0)
		t.ExitTime = at(i, h)
	})
	rep, err := AnalyzeBiases(steady)
	require.NoError(t, err)
	assert.Empty(t, rep.Biases)
	for _, c := range rep.Checks {
		assert.Equal(t, CheckAnalyzed, c.Status, "%s: %s", c.BiasType, c.Reason)
		assert.False(t, c.Detected, c.BiasType)
		assert.Nil(t, c.Severity)
		assert.NotEmpty(t, c.Tests)
	}
	rep, err = AnalyzeBiases(overtradingJournal(false))
	require.NoError(t, err)
	assert.False(t, check(t, rep, BiasOvertrading).Detected)
	assert.Equal(t, CheckAnalyzed, check(t, rep, BiasOvertrading).Status)
}

func TestBiasesNeedTheirData(t *testing.T) {
	rep, err := AnalyzeBiases(journal(func(int, bool, *BiasTrade) {}))
	require.NoError(t, err)
	assert.Empty(t, rep.Biases)
	require.Len(t, rep.Checks, 5)
	for _, c := range rep.Checks {
		assert.Equal(t, CheckNoData, c.Status, c.BiasType)
		assert.NotEmpty(t, c.Reason)
		assert.Empty(t, c.Tests)
	}
	assert.Contains(t, check(t, rep, BiasDisposition).Reason, "hold_time_hours")
	assert.Contains(t, check(t, rep, BiasLossAverse).Reason, "mfe_r")
}

func TestBiasesEffectWithoutSignificanceIsNotReported(t *testing.T) {
	// Losers held 3x longer, but only 5 of each with overlapping spreads:
	// the ratio passes its threshold while the test does not.
	holds := []float64{1, 9, 2, 8, 3, 7, 30, 1, 40, 2}
	trades := make([]BiasTrade, len(holds))
	for i, h := range holds {
		trades[i] = BiasTrade{RMultiple: 1, HoldTimeHours: ref(h)}
		if i%2 == 1 {
			trades[i].RMultiple = -1
		}
	}
	rep, err := AnalyzeBiases(trades)
	require.NoError(t, err)
	c := check(t, rep, BiasDisposition)
	require.Len(t, c.Tests, 1)
	assert.GreaterOrEqual(t, float64(c.Tests[0].Value), 1.25)
	assert.GreaterOrEqual(t, float64(c.Tests[0].PValue), BiasAlpha)
	assert.False(t, c.Detected)
}

func TestBiasesBadInput(t *testing.T) {
	cases := []struct {
		trades []BiasTrade
		msg    string
		kind   toolkit.Kind
	}{
		{[]BiasTrade{{RMultiple: 1}}, "trades: needs at least 2 trades", toolkit.Invalid},
		{[]BiasTrade{{RMultiple: 1}, {RMultiple: math.NaN()}}, "item 1: r_multiple", toolkit.Invalid},
		{[]BiasTrade{{RMultiple: 1, Size: ref(0.0)}, {RMultiple: 1}}, "item 0: size must be > 0", toolkit.Invalid},
		{[]BiasTrade{{RMultiple: 1, HoldTimeHours: ref(-1.0)}, {RMultiple: 1}}, "hold_time_hours", toolkit.Invalid},
		{[]BiasTrade{{RMultiple: 1, EntryTime: at(1, 0), ExitTime: at(0, 0)}, {RMultiple: 1}}, "exit_time must not be before", toolkit.Invalid},
		{make([]BiasTrade, MaxBiasTrades+1), "at most 100000 trades", toolkit.TooLarge},
	}
	for _, tc := range cases {
		_, err := AnalyzeBiases(tc.trades)
		require.Error(t, err)
		assert.True(t, toolkit.IsKind(err, tc.kind), "%v", err)
		assert.Contains(t, err.Error(), tc.msg)
	}
}

func TestHypothesisTestsReferenceValues(t *testing.T) {
	// Mann–Whitney, fully separated 3 vs 3: U = 9, z = 4/sqrt(5.25).
	u, p := mannWhitneyGreater([]float64{4, 5, 6}, []float64{1, 2, 3})
	assert.Equal(t, 9.0, u)
	assert.InDelta(t, 0.040428, p, 1e-5)
	_, p = mannWhitneyGreater([]float64{1, 2, 3}, []float64{4, 5, 6})
	assert.Greater(t, p, 0.95)
	_, p = mannWhitneyGreater([]float64{2, 2}, []float64{2, 2})
	assert.Equal(t, 1.0, p, "all tied: no evidence")

	// One-sample t on 1..5 against 0: t = 4.2426, df 4, p = 0.0066178
	// (numerical integration of the t density).
	tt, p := tTestGreater([]float64{1, 2, 3, 4, 5}, 0)
	assert.InDelta(t, 4.242641, tt, 1e-6)
	assert.InDelta(t, 0.0066178, p, 1e-6)

	// Spearman: a perfect decreasing relation, and ties.
	rho, p := spearmanLess([]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1})
	assert.Equal(t, -1.0, rho)
	assert.Equal(t, 0.0, p)
	rho, _ = spearmanLess([]float64{1, 1, 2, 3}, []float64{1, 2, 3, 4})
	assert.InDelta(t, 0.948683, rho, 1e-6)

	// Sign test: 5 of 5 below is 1/32; 4 of 5 is 6/32; ties are dropped.
	assert.InDelta(t, 1.0/32, signTestBelow([]float64{0.1, 0.2, 0.3, 0.1, 0.2}, 0.5), 1e-12)
	assert.InDelta(t, 6.0/32, signTestBelow([]float64{0.1, 0.2, 0.3, 0.1, 0.9, 0.5}, 0.5), 1e-12)

	ranks, ties := averageRanks([]float64{3, 1, 3, 2})
	assert.Equal(t, []float64{3.5, 1, 3.5, 2}, ranks)
	assert.Equal(t, 6.0, ties)
}
