package performance

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
)

// Test names, as reported.
const (
	testMannWhitney = "Mann-Whitney U, one-sided, normal approximation with tie and continuity corrections"
	testSpearman    = "Spearman rank correlation, one-sided (rho < 0), t approximation with n - 2 degrees of freedom"
	testSign        = "exact sign test, one-sided (median below 0.5)"
	testStudentT    = "one-sample Student t, one-sided (mean above 0), n - 1 degrees of freedom"
)

// Thresholds of the statistics (see the package comment of biases.go).
const (
	dispositionRatio = 1.25 // hold_time_ratio at or above
	sizeRatio        = 1.2  // size ratios at or above
	overtradingRho   = -0.3 // spearman_rho at or below
	captureMax       = 0.5  // median_mfe_capture below
	gapRatioMax      = 0.5  // gap_ratio at or below
)

// insufficient marks c as lacking data.
func insufficient(c BiasCheck, format string, args ...any) BiasCheck {
	c.Status = CheckNoData
	c.Reason = fmt.Sprintf(format, args...)
	c.Evidence = "Not enough data to test this bias."
	return c
}

// dispositionCheck compares the holding times of losers and winners.
func dispositionCheck(trades []BiasTrade) BiasCheck {
	c := BiasCheck{BiasType: BiasDisposition}
	var wins, losses []float64
	for _, t := range trades {
		h, ok := t.holdHours()
		switch {
		case !ok:
		case t.RMultiple > 0:
			wins = append(wins, h)
		case t.RMultiple < 0:
			losses = append(losses, h)
		}
	}
	if len(wins) < MinBiasGroup || len(losses) < MinBiasGroup {
		return insufficient(c, "needs hold_time_hours (or entry_time and exit_time) on at least %d winners and %d losers; has %d and %d",
			MinBiasGroup, MinBiasGroup, len(wins), len(losses))
	}
	mw, ml := median(wins), median(losses)
	if mw <= 0 {
		return insufficient(c, "the winners' median holding time is 0, so the ratio is undefined")
	}
	ratio := ml / mw
	_, p := mannWhitneyGreater(losses, wins)
	t := BiasTest{Statistic: "hold_time_ratio", Value: toolkit.Float(ratio), Test: testMannWhitney, PValue: toolkit.Float(p),
		Threshold: fmt.Sprintf("hold_time_ratio >= %g and p < %g", dispositionRatio, BiasAlpha),
		Met:       ratio >= dispositionRatio && p < BiasAlpha, SampleSizes: map[string]int{"winners": len(wins), "losers": len(losses)},
		severity: bandAbove(ratio, 1.5, 2)}
	c.Tests = []BiasTest{t}
	c.Evidence = fmt.Sprintf("Losers were held a median %s h against %s h for winners (ratio %s, p = %s).", stats(ml, mw, ratio, p)...)
	return c
}

// sizeChanges returns ln(size[i+1]/size[i]) for consecutive trades with
// sizes, split by the outcome of trade i.
func sizeChanges(trades []BiasTrade) (afterWin, afterLoss []float64) {
	for i := 0; i+1 < len(trades); i++ {
		a, b := trades[i], trades[i+1]
		if a.Size == nil || b.Size == nil {
			continue
		}
		d := math.Log(*b.Size / *a.Size)
		switch {
		case a.RMultiple > 0:
			afterWin = append(afterWin, d)
		case a.RMultiple < 0:
			afterLoss = append(afterLoss, d)
		}
	}
	return afterWin, afterLoss
}

// recencyCheck compares size changes after wins with those after losses.
func recencyCheck(trades []BiasTrade) BiasCheck {
	c := BiasCheck{BiasType: BiasRecency}
	afterWin, afterLoss := sizeChanges(trades)
	if len(afterWin) < MinBiasGroup || len(afterLoss) < MinBiasGroup {
		return insufficient(c, "needs size on consecutive trades: at least %d trades following a win and %d following a loss; has %d and %d",
			MinBiasGroup, MinBiasGroup, len(afterWin), len(afterLoss))
	}
	ratio := math.Exp(Mean(afterWin) - Mean(afterLoss))
	_, p := mannWhitneyGreater(afterWin, afterLoss)
	c.Tests = []BiasTest{{Statistic: "size_ratio_after_wins_vs_losses", Value: toolkit.Float(ratio), Test: testMannWhitney,
		PValue: toolkit.Float(p), Threshold: fmt.Sprintf("size_ratio_after_wins_vs_losses >= %g and p < %g", sizeRatio, BiasAlpha),
		Met:         ratio >= sizeRatio && p < BiasAlpha,
		SampleSizes: map[string]int{"after_wins": len(afterWin), "after_losses": len(afterLoss)}, severity: bandAbove(ratio, 1.5, 2)}}
	c.Evidence = fmt.Sprintf("Size changed by a factor of %s after wins and %s after losses (ratio %s, p = %s).",
		stats(math.Exp(Mean(afterWin)), math.Exp(Mean(afterLoss)), ratio, p)...)
	return c
}

// tradeDay is the UTC day of a trade (entry, else exit), if known.
func tradeDay(t BiasTrade) (time.Time, bool) {
	at := t.EntryTime
	if at == nil {
		at = t.ExitTime
	}
	if at == nil {
		return time.Time{}, false
	}
	y, m, d := at.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), true
}

// overtradingCheck correlates trades per day with that day's mean R.
func overtradingCheck(trades []BiasTrade) BiasCheck {
	c := BiasCheck{BiasType: BiasOvertrading}
	type day struct {
		count int
		sumR  float64
	}
	days := map[time.Time]*day{}
	for _, t := range trades {
		d, ok := tradeDay(t)
		if !ok {
			continue
		}
		if days[d] == nil {
			days[d] = &day{}
		}
		days[d].count++
		days[d].sumR += t.RMultiple
	}
	if len(days) < MinBiasDays {
		return insufficient(c, "needs entry_time or exit_time on trades of at least %d distinct days; has %d", MinBiasDays, len(days))
	}
	keys := make([]time.Time, 0, len(days))
	for d := range days {
		keys = append(keys, d)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Before(keys[j]) })
	counts, means := make([]float64, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		counts[i], means[i] = float64(days[k].count), days[k].sumR/float64(days[k].count)
	}
	rho, p := spearmanLess(counts, means)
	c.Tests = []BiasTest{{Statistic: "spearman_rho", Value: toolkit.Float(rho), Test: testSpearman, PValue: toolkit.Float(p),
		Threshold: fmt.Sprintf("spearman_rho <= %g and p < %g", overtradingRho, BiasAlpha),
		Met:       rho <= overtradingRho && p < BiasAlpha, SampleSizes: map[string]int{"days": len(keys)},
		severity: bandBelow(rho, -0.5, -0.7)}}
	busy := median(counts)
	var busyR, calmR []float64
	for i := range counts {
		if counts[i] > busy {
			busyR = append(busyR, means[i])
		} else {
			calmR = append(calmR, means[i])
		}
	}
	c.Evidence = fmt.Sprintf("Over %d days (%s trades a day on average) the correlation of trades per day with mean R was %s (p = %s); "+
		"days above %s trades averaged %sR against %sR on the others.",
		append([]any{len(keys)}, stats(Mean(counts), rho, p, busy, Mean(busyR), Mean(calmR))...)...)
	return c
}

// lossAversionCheck measures how much of their favourable excursion
// winners kept.
func lossAversionCheck(trades []BiasTrade) BiasCheck {
	c := BiasCheck{BiasType: BiasLossAverse}
	var capture []float64
	for _, t := range trades {
		if t.RMultiple > 0 && t.MFER != nil && *t.MFER > 0 {
			capture = append(capture, math.Min(t.RMultiple / *t.MFER, 1))
		}
	}
	if len(capture) < MinBiasGroup {
		return insufficient(c, "needs mfe_r > 0 on at least %d winners; has %d", MinBiasGroup, len(capture))
	}
	m := median(capture)
	p := signTestBelow(capture, captureMax)
	c.Tests = []BiasTest{{Statistic: "median_mfe_capture", Value: toolkit.Float(m), Test: testSign, PValue: toolkit.Float(p),
		Threshold: fmt.Sprintf("median_mfe_capture < %g and p < %g", captureMax, BiasAlpha),
		Met:       m < captureMax && p < BiasAlpha, SampleSizes: map[string]int{"winners": len(capture)},
		severity: bandBelow(m, 0.35, 0.2)}}
	c.Evidence = fmt.Sprintf("Winners closed with a median %s of their maximum favourable excursion (p = %s).", stats(m, p)...)
	return c
}

// gaps returns the hours between the end of trade i and the start of
// trade i+1 (0 when they overlap), split by the outcome of trade i.
func gaps(trades []BiasTrade) (afterWin, afterLoss []float64) {
	for i := 0; i+1 < len(trades); i++ {
		a, b := trades[i], trades[i+1]
		end, start := a.ExitTime, b.EntryTime
		if end == nil {
			end = a.EntryTime
		}
		if start == nil {
			start = b.ExitTime
		}
		if end == nil || start == nil {
			continue
		}
		g := math.Max(start.Sub(*end).Hours(), 0)
		switch {
		case a.RMultiple > 0:
			afterWin = append(afterWin, g)
		case a.RMultiple < 0:
			afterLoss = append(afterLoss, g)
		}
	}
	return afterWin, afterLoss
}

// revengeCheck tests for bigger (size) and faster (gap) trades after
// losses.
func revengeCheck(trades []BiasTrade) BiasCheck {
	c := BiasCheck{BiasType: BiasRevenge}
	var reasons, evidence []string
	_, sizeAfterLoss := sizeChanges(trades)
	if len(sizeAfterLoss) >= MinBiasGroup {
		ratio := math.Exp(Mean(sizeAfterLoss))
		_, p := tTestGreater(sizeAfterLoss, 0)
		c.Tests = append(c.Tests, BiasTest{Statistic: "size_ratio_after_losses", Value: toolkit.Float(ratio), Test: testStudentT,
			PValue: toolkit.Float(p), Threshold: fmt.Sprintf("size_ratio_after_losses >= %g and p < %g", sizeRatio, BiasAlpha),
			Met: ratio >= sizeRatio && p < BiasAlpha, SampleSizes: map[string]int{"after_losses": len(sizeAfterLoss)},
			severity: bandAbove(ratio, 1.5, 2)})
		evidence = append(evidence, fmt.Sprintf("after a loss the next size changed by a factor of %s (p = %s)", stats(ratio, p)...))
	} else {
		reasons = append(reasons, fmt.Sprintf("size on at least %d trades following a loss (has %d)", MinBiasGroup, len(sizeAfterLoss)))
	}
	gapWin, gapLoss := gaps(trades)
	mw := median(gapWin)
	switch {
	case len(gapWin) < MinBiasGroup || len(gapLoss) < MinBiasGroup:
		reasons = append(reasons, fmt.Sprintf("entry and exit times on at least %d trades following a win and %d following a loss (has %d and %d)",
			MinBiasGroup, MinBiasGroup, len(gapWin), len(gapLoss)))
	case mw <= 0:
		reasons = append(reasons, "a positive median gap after wins (it is 0)")
	default:
		ml := median(gapLoss)
		ratio := ml / mw
		_, p := mannWhitneyGreater(gapWin, gapLoss)
		c.Tests = append(c.Tests, BiasTest{Statistic: "gap_ratio", Value: toolkit.Float(ratio), Test: testMannWhitney,
			PValue: toolkit.Float(p), Threshold: fmt.Sprintf("gap_ratio <= %g and p < %g", gapRatioMax, BiasAlpha),
			Met:         ratio <= gapRatioMax && p < BiasAlpha,
			SampleSizes: map[string]int{"after_wins": len(gapWin), "after_losses": len(gapLoss)}, severity: bandBelow(ratio, 0.35, 0.2)})
		evidence = append(evidence, fmt.Sprintf("the next trade came a median %s h after a loss against %s h after a win (ratio %s, p = %s)",
			stats(ml, mw, ratio, p)...))
	}
	if len(c.Tests) == 0 {
		return insufficient(c, "needs %s, or %s", reasons[0], reasons[1])
	}
	c.Evidence = capitalizeFirst(strings.Join(evidence, "; ")) + "."
	if len(reasons) > 0 {
		c.Reason = "not tested: " + reasons[0]
	}
	return c
}

func capitalizeFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// stats returns xs as toolkit.Float values for a sentence: each prints as
// its field does (at most 12 significant digits, never an exponent).
func stats(xs ...float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = toolkit.Float(x)
	}
	return out
}
