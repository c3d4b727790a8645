package billing

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
)

func TestSpendWindowsAreUTC(t *testing.T) {
	local := time.Date(2026, 12, 1, 2, 0, 0, 0, time.FixedZone("AEDT", 11*3600)) // Nov 30 15:00 UTC
	day, month := SpendWindows(local)
	assert.Equal(t, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), day)
	assert.Equal(t, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), month)
}

// TestSpendTotalsAdd: a charge in the stored windows adds to both totals;
// a later day starts the daily total over and a later month both; a
// charge dated in an earlier window counts in the stored one.
func TestSpendTotalsAdd(t *testing.T) {
	nov29, nov30, dec1 := date(11, 29), date(11, 30), date(12, 1)
	nov := date(11, 1)
	stored := SpendTotals{DayStart: nov29, MonthStart: nov, DayMicros: 100, MonthMicros: 500}
	cases := []struct {
		name                 string
		totals               SpendTotals
		dayStart, monthStart time.Time
		want                 SpendTotals
	}{
		{"never paid", SpendTotals{}, nov30, nov, SpendTotals{DayStart: nov30, MonthStart: nov, DayMicros: 7, MonthMicros: 7}},
		{"same windows", stored, nov29, nov, SpendTotals{DayStart: nov29, MonthStart: nov, DayMicros: 107, MonthMicros: 507}},
		{"next day", stored, nov30, nov, SpendTotals{DayStart: nov30, MonthStart: nov, DayMicros: 7, MonthMicros: 507}},
		{"next month", stored, dec1, dec1, SpendTotals{DayStart: dec1, MonthStart: dec1, DayMicros: 7, MonthMicros: 7}},
		{"a clock behind", stored, date(11, 28), date(10, 1),
			SpendTotals{DayStart: nov29, MonthStart: nov, DayMicros: 107, MonthMicros: 507}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.totals.Add(c.dayStart, c.monthStart, 7), c.name)
	}
}

// TestSpendTotalsSpent: the stored windows count in full when they are
// the ones asked for or later, nothing when they are earlier.
func TestSpendTotalsSpent(t *testing.T) {
	stored := SpendTotals{DayStart: date(11, 29), MonthStart: date(11, 1), DayMicros: 100, MonthMicros: 500}
	cases := []struct {
		name                 string
		dayStart, monthStart time.Time
		wantDay, wantMonth   int64
	}{
		{name: "the stored windows", dayStart: date(11, 29), monthStart: date(11, 1), wantDay: 100, wantMonth: 500},
		{name: "the next day", dayStart: date(11, 30), monthStart: date(11, 1), wantDay: 0, wantMonth: 500},
		{name: "the next month", dayStart: date(12, 1), monthStart: date(12, 1), wantDay: 0, wantMonth: 0},
		{name: "a clock behind", dayStart: date(11, 28), monthStart: date(10, 1), wantDay: 100, wantMonth: 500},
	}
	for _, c := range cases {
		day, month := stored.Spent(c.dayStart, c.monthStart)
		assert.Equal(t, c.wantDay, day, c.name)
		assert.Equal(t, c.wantMonth, month, c.name)
	}
	day, month := SpendTotals{}.Spent(date(11, 29), date(11, 1))
	assert.Zero(t, day+month, "an agent that never paid spent nothing")
}

// TestCheckSpendCaps: a cap holds up to and including spent + price ==
// cap; the daily cap is named before the monthly one.
func TestCheckSpendCaps(t *testing.T) {
	ten, twenty := int64(10), int64(20)
	both := SpendLimits{DailyMicros: &ten, MonthlyMicros: &twenty}
	cases := []struct {
		name              string
		limits            SpendLimits
		day, month, price int64
		wantCap           string
	}{
		{"no caps", SpendLimits{}, 1_000, 1_000, 1_000, ""},
		{"exactly at the daily cap", both, 7, 7, 3, ""},
		{"over the daily cap", both, 8, 8, 3, "Daily spend limit of $0.00001 would be exceeded: spent $0.000008"},
		{"over the monthly cap only", both, 0, 18, 3, "Monthly spend limit of $0.00002 would be exceeded: spent $0.000018"},
		{"over both: daily first", both, 9, 19, 3, "Daily"},
		{"monthly cap alone", SpendLimits{MonthlyMicros: &twenty}, 1_000, 17, 3, ""},
	}
	for _, c := range cases {
		err := CheckSpendCaps(c.limits, c.day, c.month, c.price)
		if c.wantCap == "" {
			assert.NoError(t, err, c.name)
			continue
		}
		assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), c.name)
		assert.Contains(t, toolkit.MessageOf(err), c.wantCap, c.name)
	}
}

// date is midnight UTC of a day of 2026.
func date(month time.Month, day int) time.Time {
	return time.Date(2026, month, day, 0, 0, 0, 0, time.UTC)
}
