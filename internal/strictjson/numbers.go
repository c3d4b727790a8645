package strictjson

import (
	"math"
	"strconv"

	"github.com/agentfinance/toolkit"
)

// number scans a JSON number and checks it against n.
func (s *scanner) number(n *node) error {
	start := s.i
	end, integer, ok := scanNumber(s.b, s.i)
	if !ok {
		return s.syntax("invalid number")
	}
	s.i = end
	return s.flag(s.checkNumber(n, s.b[start:end], integer))
}

// checkNumber checks a number, sent as text, against n.
func (s *scanner) checkNumber(n *node, text []byte, integer bool) error {
	switch {
	case n.types&tNumber != 0, n.types&tInteger != 0 && integer:
	case n.types&tInteger != 0:
		return s.fail(ruleType, "must be a whole number, got "+string(text))
	default:
		return s.typeError(n, string(text))
	}
	if !n.bounded() && len(n.enum) == 0 && (s.permissive() || inRangeUnparsed(text)) {
		return nil
	}
	x, err := inputNumber(text)
	if err != nil {
		return s.fail(ruleRange, err.Error())
	}
	if err := s.checkBounds(n, x, text, false); err != nil {
		return err
	}
	if len(n.enum) > 0 && !n.listsNumber(x) {
		return s.enumError(n, string(text))
	}
	return nil
}

// bounded reports whether n states a minimum or a maximum.
func (n *node) bounded() bool {
	return n.minimum != nil || n.maximum != nil || n.exclusiveMin != nil || n.exclusiveMax != nil
}

// inRangeUnparsed reports, without parsing, that a number already in
// JSON's grammar is within inputNumber's range: written in at most 17
// characters without an exponent, its magnitude is below 1e17 (no float64
// rounding reaches 1e18). Longer numbers are parsed.
func inRangeUnparsed(text []byte) bool {
	if len(text) > 17 {
		return false
	}
	for _, c := range text {
		if c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// scanNumber returns the end of the JSON number starting at b[i], whether
// it is written as an integer (no fraction, no exponent), and whether the
// grammar holds.
func scanNumber(b []byte, i int) (end int, integer, ok bool) {
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	integer = true
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		return i, false, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if !digits() {
			return i, false, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return i, false, false
		}
	}
	return i, integer, true
}

// inputNumber parses text (already in JSON's grammar) within the
// toolkit's input range: at most toolkit.MaxNumberLen characters and a
// magnitude below 1e18.
func inputNumber(text []byte) (float64, error) {
	if len(text) > toolkit.MaxNumberLen {
		return 0, errText("a number is longer than " + strconv.Itoa(toolkit.MaxNumberLen) + " characters")
	}
	x, err := strconv.ParseFloat(string(text), 64)
	if err != nil || math.Abs(x) >= 1e18 {
		return 0, errText(string(text) + " is out of range: the magnitude must be below 1e18")
	}
	return x, nil
}

// checkBounds applies minimum, maximum and their exclusive forms to x,
// sent as text (a JSON string's content when quoted).
func (s *scanner) checkBounds(n *node, x float64, text []byte, quoted bool) error {
	switch {
	case n.minimum != nil && x < *n.minimum:
		return s.fail("minimum", "must be at least "+num(*n.minimum)+", got "+sent(text, quoted))
	case n.exclusiveMin != nil && x <= *n.exclusiveMin:
		return s.fail("exclusiveMinimum", "must be greater than "+num(*n.exclusiveMin)+", got "+sent(text, quoted))
	case n.maximum != nil && x > *n.maximum:
		return s.fail("maximum", "must be at most "+num(*n.maximum)+", got "+sent(text, quoted))
	case n.exclusiveMax != nil && x >= *n.exclusiveMax:
		return s.fail("exclusiveMaximum", "must be less than "+num(*n.exclusiveMax)+", got "+sent(text, quoted))
	}
	return nil
}

// sent shows a value in a message as it was sent: quoted when it was a
// JSON string.
func sent(text []byte, quoted bool) string {
	if quoted {
		return strconv.Quote(string(text))
	}
	return string(text)
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
