package performance

import (
	"strings"
	"time"
)

// Trade dates of AnalyzeConsistency, parsed with package time.

// parseTradeDate parses s as "YYYY-MM-DD" or as an RFC 3339 date-time
// ("YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)"). Beyond time.RFC3339Nano it
// accepts the lower-case 't' and 'z' that RFC 3339 allows, and it refuses
// what RFC 3339 does not: a comma before the fractional seconds and an
// offset of 24 hours or more. The time keeps the timestamp's own offset, so
// its Date is the calendar date as written.
func parseTradeDate(s string) (time.Time, bool) {
	if len(s) == len(time.DateOnly) {
		t, err := time.Parse(time.DateOnly, s)
		return t, err == nil
	}
	if strings.ContainsRune(s, ',') {
		return time.Time{}, false
	}
	if lower := len(s) > len(time.DateOnly) && s[len(time.DateOnly)] == 't'; lower || strings.HasSuffix(s, "z") {
		b := []byte(s)
		if lower {
			b[len(time.DateOnly)] = 'T'
		}
		if n := len(b); b[n-1] == 'z' {
			b[n-1] = 'Z'
		}
		s = string(b)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	if _, offset := t.Zone(); offset <= -24*60*60 || offset >= 24*60*60 {
		return time.Time{}, false
	}
	return t, true
}

// periodKey returns the calendar month (year·100 + month) or the ISO 8601
// week (ISO year·100 + week) of t as a sortable integer.
func periodKey(t time.Time, weekly bool) int {
	if weekly {
		y, w := t.ISOWeek()
		return y*100 + w
	}
	return t.Year()*100 + int(t.Month())
}

// periodName formats a key of periodKey as "YYYY-MM" or "YYYY-Www".
func periodName(key int, weekly bool) string {
	b := make([]byte, 0, 8)
	year, sub := key/100, key%100
	b = append(b, byte('0'+year/1000%10), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-')
	if weekly {
		b = append(b, 'W')
	}
	return string(append(b, byte('0'+sub/10%10), byte('0'+sub%10)))
}
