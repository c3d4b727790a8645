package performance

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// Window bounds and verdicts of AnalyzeConsistency.
const (
	DefaultConsistencyWindow = 10
	MaxConsistencyWindow     = 1000
	ConsistencyConsistent    = "CONSISTENT"
	ConsistencyMixed         = "MIXED"
	ConsistencyInconsistent  = "INCONSISTENT"
)

// ConsistencyOptions configures AnalyzeConsistency.
type ConsistencyOptions struct {
	// WindowSize is the rolling window in trades, 2..min(n, 1000); nil
	// means min(10, n).
	WindowSize *int
	// Dates are optional trade dates parallel to the R values
	// ("YYYY-MM-DD" or RFC 3339); nil when absent.
	Dates []string
}

// RollingSummary summarises a statistic over the rolling windows.
type RollingSummary struct {
	Mean toolkit.Float `json:"mean"`
	// StdDev is across windows, ddof 1 (0 with one window).
	StdDev toolkit.Float `json:"stdev"`
	Min    toolkit.Float `json:"min"`
	Max    toolkit.Float `json:"max"`
	// PositiveShare is the share of windows where the statistic is > 0.
	PositiveShare toolkit.Float `json:"positive_share"`
}

// PeriodBucket holds the trades of one calendar month or ISO week.
type PeriodBucket struct {
	// Period is "YYYY-MM" or the ISO week "YYYY-Www".
	Period     string        `json:"period"`
	Count      int           `json:"count"`
	WinRate    toolkit.Float `json:"win_rate"`
	Expectancy toolkit.Float `json:"expectancy"`
	G          toolkit.Float `json:"g"`
	TotalR     toolkit.Float `json:"total_r"`
}

// CalendarSummary lists the periods that hold trades, oldest first.
type CalendarSummary struct {
	Periods []PeriodBucket `json:"periods"`
	// ProfitableShare is the share of periods with total R > 0.
	ProfitableShare toolkit.Float `json:"profitable_share"`
	// BestPeriod and WorstPeriod have the highest and lowest total R
	// (ties: the earlier period).
	BestPeriod  string `json:"best_period"`
	WorstPeriod string `json:"worst_period"`
}

// ConsistencyResult is the answer of AnalyzeConsistency.
type ConsistencyResult struct {
	TradeCount  int `json:"trade_count"`
	WindowSize  int `json:"window_size"`
	WindowCount int `json:"window_count"`
	// RollingExpectancy and RollingG summarise mean(R) and G over every
	// window of WindowSize consecutive trades (step 1).
	RollingExpectancy RollingSummary `json:"rolling_expectancy"`
	RollingG          RollingSummary `json:"rolling_g"`
	// ExpectancyCV = stdev/|mean| of the rolling expectancy (null when the
	// mean is 0).
	ExpectancyCV *toolkit.Float `json:"expectancy_cv"`
	// BlockCount is the number of non-overlapping blocks of WindowSize
	// trades (a trailing partial block is left out).
	BlockCount int `json:"block_count"`
	// ProfitableBlockShare is the share of blocks with total R > 0.
	ProfitableBlockShare toolkit.Float `json:"profitable_block_share"`
	// EquityCurveR2 is the R² of a least-squares line through the
	// cumulative R curve (null when the curve is flat).
	EquityCurveR2 *toolkit.Float `json:"equity_curve_r2"`
	// LongestLosingStreak is the longest run of consecutive losses (R < 0;
	// a win or a breakeven ends it: StreakRule, as in analyze_win_loss).
	LongestLosingStreak int `json:"longest_losing_streak"`
	// ExpectedLongestLosingStreak = max(0, ln(n(1-q))/ln(1/q)), q = the
	// share of losses (Schilling); null when q is 0 or 1.
	ExpectedLongestLosingStreak *toolkit.Float `json:"expected_longest_losing_streak"`
	// Verdict is CONSISTENT, MIXED or INCONSISTENT.
	Verdict     string           `json:"verdict"`
	Monthly     *CalendarSummary `json:"monthly"`
	Weekly      *CalendarSummary `json:"weekly"`
	Warnings    []string         `json:"warnings"`
	Conventions []string         `json:"conventions"`
}

// AnalyzeConsistency measures how stable an R series' edge is over time:
// rolling-window expectancy and G (their spread and the share of positive
// windows), non-overlapping blocks, the straightness of the cumulative R
// curve, the longest losing streak against its expectation, and — when
// dates are given — monthly and ISO-week buckets (by the calendar date as
// written, in the timestamp's own offset; dates need not be sorted).
//
// Verdict: CONSISTENT when at least 70 % of rolling windows have a
// positive expectancy and mean R > 0; INCONSISTENT below 40 %; MIXED
// otherwise. It needs at least 2 values. The rolling windows (n·window
// steps) check ctx about every 65,536 steps and return ctx.Err() once ctx
// is done.
func AnalyzeConsistency(ctx context.Context, r []float64, opt ConsistencyOptions) (*ConsistencyResult, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return nil, err
	}
	n := len(r)
	w := orDefault(opt.WindowSize, min(DefaultConsistencyWindow, n))
	if w < 2 || w > n || w > MaxConsistencyWindow {
		return nil, invalid("window_size", "must be between 2 and min(number of r_multiples, %d) = %d, got %d",
			MaxConsistencyWindow, min(n, MaxConsistencyWindow), w)
	}
	var dates []time.Time
	if opt.Dates != nil {
		if err := validateParallel("dates", len(opt.Dates), n); err != nil {
			return nil, err
		}
		dates = make([]time.Time, n)
		for i, s := range opt.Dates {
			d, ok := parseTradeDate(s)
			if !ok {
				return nil, invalid("dates", "item %d (%q) must be YYYY-MM-DD or an RFC 3339 date-time", i, s)
			}
			dates[i] = d
		}
	}
	res := &ConsistencyResult{TradeCount: n, WindowSize: w, WindowCount: n - w + 1, Warnings: []string{}}
	means := make([]float64, res.WindowCount)
	gs := make([]float64, res.WindowCount)
	every := limits.CheckEvery(w)
	for i := range means {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		means[i], gs[i] = meanG(r[i : i+w])
	}
	res.RollingExpectancy = rollingSummary(means)
	res.RollingG = rollingSummary(gs)
	res.ExpectancyCV = ratioOrNil(float64(res.RollingExpectancy.StdDev), math.Abs(float64(res.RollingExpectancy.Mean)))
	res.BlockCount = n / w
	profitable := 0
	for b := 0; b < res.BlockCount; b++ {
		var s float64
		for _, x := range r[b*w : (b+1)*w] {
			s += x
		}
		if s > 0 {
			profitable++
		}
	}
	res.ProfitableBlockShare = toolkit.Float(float64(profitable) / float64(res.BlockCount))
	res.EquityCurveR2 = curveR2(r)
	res.LongestLosingStreak, res.ExpectedLongestLosingStreak = losingStreak(r)
	mean := Mean(r)
	switch share := float64(res.RollingExpectancy.PositiveShare); {
	case share >= 0.7 && mean > 0:
		res.Verdict = ConsistencyConsistent
	case share < 0.4:
		res.Verdict = ConsistencyInconsistent
	default:
		res.Verdict = ConsistencyMixed
	}
	if dates != nil {
		res.Monthly = calendarSummary(r, dates, false)
		res.Weekly = calendarSummary(r, dates, true)
	}
	if n < 2*w {
		res.Warnings = append(res.Warnings, "fewer than two windows' worth of trades: the rolling figures overlap heavily")
	}
	res.Conventions = []string{
		"rolling windows: window_size consecutive trades, step 1; default window_size = min(10, n)",
		"g = mean(R) - popvar(R)/2 per window; stdev across windows uses ddof 1",
		"blocks: non-overlapping runs of window_size trades from the first trade; a trailing partial block is left out",
		"equity_curve_r2: R² of the least-squares line of cumulative R against trade number",
		StreakRule + "; expected longest losing streak = max(0, ln(n(1-q))/ln(1/q)), q = share of R < 0 (Schilling)",
		"verdict: CONSISTENT if >= 70 % of windows have positive expectancy and mean R > 0; INCONSISTENT if < 40 %; else MIXED",
		"dates: YYYY-MM-DD or RFC 3339; bucketed by the date as written (own offset, no UTC conversion); weeks are ISO 8601 (Monday first)",
	}
	return res, nil
}

// rollingSummary summarises per-window values.
func rollingSummary(xs []float64) RollingSummary {
	mean, sd := meanStd(xs)
	pos := winCount(xs)
	return RollingSummary{
		Mean: toolkit.Float(mean), StdDev: toolkit.Float(sd),
		Min: toolkit.Float(slices.Min(xs)), Max: toolkit.Float(slices.Max(xs)),
		PositiveShare: toolkit.Float(float64(pos) / float64(len(xs))),
	}
}

// curveR2 returns the R² of the OLS line through (i, cumsum(r)_i), i =
// 1..n, or nil when the curve or n is degenerate.
func curveR2(r []float64) *toolkit.Float {
	n := len(r)
	cum := make([]float64, n)
	var c, sy float64
	for i, x := range r {
		c += x
		cum[i] = c
		sy += c
	}
	my := sy / float64(n)
	mx := float64(n+1) / 2
	var sxx, syy, sxy float64
	for i, y := range cum {
		dx, dy := float64(i+1)-mx, y-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	if syy == 0 || sxx == 0 {
		return nil
	}
	return finiteOrNil(sxy * sxy / (sxx * syy))
}

// losingStreak returns the longest losing streak (StreakRule) and its
// Schilling expectation.
func losingStreak(r []float64) (int, *toolkit.Float) {
	_, longest, _ := streaks(r)
	losses := 0
	for _, x := range r {
		if x < 0 {
			losses++
		}
	}
	q := float64(losses) / float64(len(r))
	if q == 0 || q == 1 {
		return longest, nil
	}
	return longest, finiteOrNil(math.Max(0, math.Log(float64(len(r))*(1-q))/math.Log(1/q)))
}

// calendarSummary buckets r by month or ISO week of dates.
func calendarSummary(r []float64, dates []time.Time, weekly bool) *CalendarSummary {
	n := len(r)
	keys := make([]int, n)
	for i, d := range dates {
		keys[i] = periodKey(d, weekly)
	}
	vals := r
	if !slices.IsSorted(keys) {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return keys[a] - keys[b] })
		sortedKeys := make([]int, n)
		vals = make([]float64, n)
		for j, i := range idx {
			sortedKeys[j], vals[j] = keys[i], r[i]
		}
		keys = sortedKeys
	}
	groups := 1
	for i := 1; i < n; i++ {
		if keys[i] != keys[i-1] {
			groups++
		}
	}
	cs := &CalendarSummary{Periods: make([]PeriodBucket, 0, groups)}
	profitable, best, worst := 0, 0, 0
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && keys[hi] == keys[lo] {
			hi++
		}
		seg := vals[lo:hi]
		mean, g := meanG(seg)
		var total float64
		wins := 0
		for _, x := range seg {
			total += x
			if x > 0 {
				wins++
			}
		}
		period := periodName(keys[lo], weekly)
		cs.Periods = append(cs.Periods, PeriodBucket{
			Period: period, Count: len(seg), WinRate: toolkit.Float(float64(wins) / float64(len(seg))),
			Expectancy: toolkit.Float(mean), G: toolkit.Float(g), TotalR: toolkit.Float(total),
		})
		if total > 0 {
			profitable++
		}
		last := len(cs.Periods) - 1
		if total > float64(cs.Periods[best].TotalR) {
			best = last
		}
		if total < float64(cs.Periods[worst].TotalR) {
			worst = last
		}
		lo = hi
	}
	cs.ProfitableShare = toolkit.Float(float64(profitable) / float64(len(cs.Periods)))
	cs.BestPeriod, cs.WorstPeriod = cs.Periods[best].Period, cs.Periods[worst].Period
	return cs
}
