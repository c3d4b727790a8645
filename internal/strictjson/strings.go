package strictjson

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
)

// stringValue scans a string and checks it against n.
func (s *scanner) stringValue(n *node) error {
	text, runes, err := s.str()
	if err != nil {
		return err
	}
	return s.flag(s.checkString(n, text, runes))
}

// checkString checks a string's content against n: type, length in
// characters, pattern (or the decimal grammar and bounds) and enum.
func (s *scanner) checkString(n *node, text []byte, runes int) error {
	if n.types&tString == 0 {
		return s.typeError(n, "a string")
	}
	if runes < n.minLength {
		if n.minLength == 1 {
			return s.fail("minLength", "must not be empty")
		}
		return s.fail("minLength", "must be at least "+strconv.Itoa(n.minLength)+" characters long, got "+strconv.Itoa(runes))
	}
	if n.maxLength >= 0 && runes > n.maxLength {
		return s.fail("maxLength", "must be at most "+strconv.Itoa(n.maxLength)+" characters long, got "+strconv.Itoa(runes))
	}
	if n.decimal {
		if !toolkit.ValidNumber(text) {
			return s.fail("pattern", strconv.Quote(string(text))+` is not a number like "1.5" or "1.5e-05"`)
		}
		if n.bounded() || !inRangeUnparsed(text) {
			x, err := inputNumber(text)
			if err != nil {
				return s.fail(ruleRange, err.Error())
			}
			if err := s.checkBounds(n, x, text, true); err != nil {
				return err
			}
		}
	} else if n.pattern != nil && !n.pattern.Match(text) {
		return s.fail("pattern", strconv.Quote(string(text))+" does not match the pattern "+n.patternText)
	}
	if len(n.enum) > 0 && !n.listsString(text) {
		return s.enumError(n, strconv.Quote(string(text)))
	}
	return nil
}

// str scans the string at s.i and returns its content (the raw bytes when
// it has no escapes, else a decoded copy) and its length in characters.
// Invalid UTF-8, lone surrogates and control characters other than tab,
// line feed and carriage return are refused (unless Options.Permissive),
// as are strings over Limits.MaxStringBytes.
func (s *scanner) str() ([]byte, int, error) {
	s.i++ // opening quote
	start := s.i
	runes := 0
	var out []byte // nil until the first escape
	for {
		if out == nil { // a run of plain ASCII, the common case, in a tight loop
			j, limit := s.i, min(len(s.b), start+s.v.limits.MaxStringBytes+1)
			for j < limit && plainASCII[s.b[j]] {
				j++
			}
			runes += j - s.i
			s.i = j
		}
		if s.i-start > s.v.limits.MaxStringBytes {
			return nil, 0, s.tooLong()
		}
		if s.i >= len(s.b) {
			return nil, 0, s.syntax("unterminated string")
		}
		c := s.b[s.i]
		switch {
		case c == '"':
			text := s.b[start:s.i]
			if out != nil {
				text = out
			}
			s.i++
			return text, runes, nil
		case c == '\\':
			if out == nil {
				out = append(make([]byte, 0, s.i-start+16), s.b[start:s.i]...)
			}
			r, err := s.escape()
			if err != nil {
				return nil, 0, err
			}
			out = utf8.AppendRune(out, r)
			runes++
		case c < 0x20:
			return nil, 0, s.syntax("control character in a string (escape it)")
		case c < utf8.RuneSelf:
			if c == 0x7f && !s.permissive() {
				return nil, 0, s.control(rune(c))
			}
			if out != nil {
				out = append(out, c)
			}
			s.i++
			runes++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size <= 1 && !s.permissive() {
				return nil, 0, s.fail(ruleText, "is not valid UTF-8 text")
			}
			if r >= 0x80 && r <= 0x9f && !s.permissive() {
				return nil, 0, s.control(r)
			}
			if out != nil {
				out = append(out, s.b[s.i:s.i+size]...)
			}
			s.i += size
			runes++
		}
	}
}

// plainASCII lists the bytes a string holds as they are and that count as
// one character each: printable ASCII but for '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escape decodes the escape sequence at s.i (a backslash) and advances
// past it.
func (s *scanner) escape() (rune, error) {
	if s.i+1 >= len(s.b) {
		return 0, s.syntax("unterminated escape")
	}
	c := s.b[s.i+1]
	s.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'b', 'f':
		r := map[byte]rune{'b': '\b', 'f': '\f'}[c]
		if !s.permissive() {
			return 0, s.control(r)
		}
		return r, nil
	case 'u':
		return s.unicodeEscape()
	}
	return 0, s.syntax("invalid escape \\" + string(rune(c)))
}

// unicodeEscape decodes the hex digits of a \u escape at s.i, and of the
// low half that must follow a high surrogate.
func (s *scanner) unicodeEscape() (rune, error) {
	r, err := s.hex4()
	if err != nil {
		return 0, err
	}
	if utf16.IsSurrogate(r) {
		r2 := rune(utf8.RuneError)
		if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
			s.i += 2
			if r2, err = s.hex4(); err != nil {
				return 0, err
			}
		}
		if r = utf16.DecodeRune(r, r2); r == utf8.RuneError && !s.permissive() {
			return 0, s.fail(ruleText, "holds an unpaired surrogate (\\u escape)")
		}
	}
	if (r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r >= 0x80 && r <= 0x9f) && !s.permissive() {
		return 0, s.control(r)
	}
	return r, nil
}

func (s *scanner) hex4() (rune, error) {
	if s.i+4 > len(s.b) {
		return 0, s.syntax("short \\u escape")
	}
	v, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 16)
	if err != nil {
		return 0, s.syntax("invalid \\u escape")
	}
	s.i += 4
	return rune(v), nil
}

func (s *scanner) control(r rune) error {
	return s.fail(ruleText, "contains the control character "+strconv.QuoteRune(r)+
		" (only tab, line feed and carriage return are allowed)")
}

func (s *scanner) tooLong() error {
	return s.limit(ruleLimit, "a string is longer than "+strconv.Itoa(s.v.limits.MaxStringBytes)+" bytes")
}
