package performance

// Calendar helpers of AnalyzeConsistency: a fast strict parser for
// "YYYY-MM-DD" and RFC 3339 timestamps, and proleptic-Gregorian day
// arithmetic (H. Hinnant's days_from_civil) for months and ISO weeks.

// pbDate is a calendar date.
type pbDate struct{ year, month, day int }

// pbParseDate parses s as "YYYY-MM-DD" or an RFC 3339 date-time
// "YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)" ('T'/'t', 'Z'/'z') and returns
// the calendar date as written, in the timestamp's own offset. ok is false
// for anything else, including impossible dates and times.
func pbParseDate(s string) (d pbDate, ok bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return d, false
	}
	y, ok1 := pbDigits(s[0:4])
	m, ok2 := pbDigits(s[5:7])
	day, ok3 := pbDigits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || day < 1 || day > pbDaysInMonth(y, m) {
		return d, false
	}
	d = pbDate{y, m, day}
	if len(s) == 10 {
		return d, true
	}
	rest := s[10:]
	if rest[0] != 'T' && rest[0] != 't' {
		return d, false
	}
	rest = rest[1:]
	if len(rest) < 9 || rest[2] != ':' || rest[5] != ':' {
		return d, false
	}
	hh, okh := pbDigits(rest[0:2])
	mm, okm := pbDigits(rest[3:5])
	ss, oks := pbDigits(rest[6:8])
	if !okh || !okm || !oks || hh > 23 || mm > 59 || ss > 59 {
		return d, false
	}
	rest = rest[8:]
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return d, false
		}
		rest = rest[i:]
	}
	switch {
	case rest == "Z" || rest == "z":
		return d, true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := pbDigits(rest[1:3])
		om, ok2 := pbDigits(rest[4:6])
		return d, ok1 && ok2 && oh <= 23 && om <= 59
	}
	return d, false
}

// pbDigits parses a string of ASCII digits.
func pbDigits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// pbLeap reports whether y is a Gregorian leap year.
func pbLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// pbDaysInMonth returns the number of days of month m of year y.
func pbDaysInMonth(y, m int) int {
	switch m {
	case 2:
		if pbLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// pbDaysFromCivil returns the days since 1970-01-01 of y-m-d.
func pbDaysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// pbISOWeek returns the ISO 8601 week-numbering year and week of d.
func pbISOWeek(d pbDate) (year, week int) {
	days := pbDaysFromCivil(d.year, d.month, d.day)
	wd := ((days%7)+7+3)%7 + 1 // 1 = Monday .. 7 = Sunday; day 0 was a Thursday
	thursday := days - wd + 4
	year = d.year
	jan1 := pbDaysFromCivil(year, 1, 1)
	switch {
	case thursday < jan1:
		year--
		jan1 = pbDaysFromCivil(year, 1, 1)
	case thursday >= jan1+pbYearDays(year):
		jan1 += pbYearDays(year)
		year++
	}
	return year, (thursday-jan1)/7 + 1
}

// pbYearDays returns the number of days of year y.
func pbYearDays(y int) int {
	if pbLeap(y) {
		return 366
	}
	return 365
}

// pbPeriodName formats a month key as "YYYY-MM" or a week key as
// "YYYY-Www" without fmt.
func pbPeriodName(year, sub int, weekly bool) string {
	b := make([]byte, 0, 8)
	b = append(b, byte('0'+year/1000%10), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-')
	if weekly {
		b = append(b, 'W')
	}
	b = append(b, byte('0'+sub/10%10), byte('0'+sub%10))
	return string(b)
}
