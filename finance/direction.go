package finance

import (
	"strings"

	"github.com/agentfinance/toolkit"
)

// Direction is the side of a trade: Long or Short.
type Direction string

// The two trade directions. Parsing is case-insensitive; the canonical
// (output) form is lower case.
const (
	Long  Direction = "long"
	Short Direction = "short"
)

// ParseDirection parses "long" or "short" in any letter case
// (surrounding spaces are ignored). Anything else is toolkit.Invalid naming
// the field "direction".
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "long":
		return Long, nil
	case "short":
		return Short, nil
	}
	return "", invalid("direction", "must be \"long\" or \"short\" (any letter case), got %q", s)
}

// stopOnWrongSide reports whether stop is not strictly on the loss side of
// entry: below entry for a long, above entry for a short.
func (d Direction) stopOnWrongSide(entry, stop toolkit.Amount) bool {
	c := stop.Cmp(entry)
	if d == Long {
		return c >= 0
	}
	return c <= 0
}

// invalid returns a toolkit.Invalid error whose message starts with the
// field name, followed by the rule.
func invalid(field, format string, args ...any) error {
	e := toolkit.Errorf(toolkit.Invalid, format, args...)
	e.Msg = field + ": " + e.Msg
	return e
}

// requirePositive returns an Invalid error naming field unless a > 0.
func requirePositive(field string, a toolkit.Amount) error {
	if a.Sign() <= 0 {
		return invalid(field, "must be greater than 0, got %s", a)
	}
	return nil
}
