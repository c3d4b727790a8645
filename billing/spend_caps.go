package billing

import "time"

// The spend-cap rule, in one place: the windows (UTC day and month), the
// running totals a store keeps per agent and how a charge moves them, and
// the comparison with the caps. Meter applies it before a call runs and
// every store again inside the debit, where no concurrent charge can move
// the totals in between; memstore runs these functions, bunstore runs
// their SQL form (its spend_totals upsert and charge-check query) and the
// conformance suite holds both to them.

// SpendWindows returns the starts of the UTC day and month containing t:
// the windows of the daily and monthly caps.
func SpendWindows(t time.Time) (day, month time.Time) {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC),
		time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// SpendTotals is an agent's running consumption, in micro-USD, in the UTC
// day and month of its latest charge: what the caps are checked against,
// in O(1), never by summing the ledger. The zero value is an agent that
// never paid.
type SpendTotals struct {
	DayStart, MonthStart   time.Time
	DayMicros, MonthMicros int64
}

// Add returns the totals after a charge of micros in the windows starting
// at dayStart and monthStart. A later window starts its total over; an
// earlier one (a charge dated by a clock behind the others) counts in the
// stored window, so the caps never undercount.
func (t SpendTotals) Add(dayStart, monthStart time.Time, micros int64) SpendTotals {
	if day := dayStart.UTC(); t.DayStart.Before(day) {
		t.DayStart, t.DayMicros = day, 0
	}
	if month := monthStart.UTC(); t.MonthStart.Before(month) {
		t.MonthStart, t.MonthMicros = month, 0
	}
	t.DayMicros += micros
	t.MonthMicros += micros
	return t
}

// Spent returns what the totals count as spent in the windows starting at
// dayStart and monthStart (ChargeCheck's SpentDay and SpentMonth): a
// stored window at or after the one asked for counts in full, an earlier
// one counts nothing.
func (t SpendTotals) Spent(dayStart, monthStart time.Time) (day, month int64) {
	if !t.DayStart.Before(dayStart) {
		day = t.DayMicros
	}
	if !t.MonthStart.Before(monthStart) {
		month = t.MonthMicros
	}
	return day, month
}

// CheckSpendCaps compares a charge of priceMicros, after spentDay and
// spentMonth in its day and month, with the caps of limits: a cap holds
// while what was spent plus the price is at most the cap (a nil cap always
// holds). The error is CapExceeded naming the first cap passed, daily
// before monthly.
func CheckSpendCaps(limits SpendLimits, spentDay, spentMonth, priceMicros int64) error {
	if c := limits.DailyMicros; c != nil && spentDay+priceMicros > *c {
		return CapExceeded("daily", *c, spentDay, priceMicros)
	}
	if c := limits.MonthlyMicros; c != nil && spentMonth+priceMicros > *c {
		return CapExceeded("monthly", *c, spentMonth, priceMicros)
	}
	return nil
}
