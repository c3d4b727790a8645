package strictjson

import (
	"errors"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// pathElem is one step of the path to a value: an object key or an array
// index.
type pathElem struct {
	key   string
	index int
	isKey bool
}

// path locates a value in the document; it renders as "bars[3].close".
type path []pathElem

func (p path) String() string {
	var sb strings.Builder
	for _, e := range p {
		if e.isKey {
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(e.key)
		} else {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(e.index))
			sb.WriteByte(']')
		}
	}
	return sb.String()
}

// with renders the path of a member key of the current value.
func (p path) with(key string) string {
	if len(p) == 0 {
		return key
	}
	return p.String() + "." + key
}

// errMissing marks the errors of absent required members.
var errMissing = errors.New("missing required member")

// errText is a plain message turned into a field error by fail.
type errText string

func (e errText) Error() string { return string(e) }

// prefix is "<path>: " or "" at the root.
func (s *scanner) prefix() string {
	if len(s.path) == 0 {
		return ""
	}
	return s.path.String() + ": "
}

// fail is an Invalid error naming the current path and the rule.
func (s *scanner) fail(rule string) error {
	return &toolkit.Error{Kind: toolkit.Invalid, Msg: s.prefix() + rule}
}

// failAt is fail for a member key of the current value.
func (s *scanner) failAt(key, rule string) error {
	return &toolkit.Error{Kind: toolkit.Invalid, Msg: s.path.with(key) + ": " + rule}
}

// syntax is the error for text that is not JSON.
func (s *scanner) syntax(what string) error {
	return &toolkit.Error{Kind: toolkit.Invalid, Msg: "invalid JSON at byte " + strconv.Itoa(s.i) + ": " + what}
}

func (s *scanner) tooManyItems(n *node) error {
	return &toolkit.Error{Kind: toolkit.TooLarge,
		Msg: s.prefix() + "at most " + strconv.Itoa(n.maxItems) + " items are accepted"}
}

// typeError names the expected types and what was found.
func (s *scanner) typeError(n *node, got string) error {
	if n.decimal {
		return s.fail(`expected a number (a decimal string like "1.5" or a JSON number), got ` + got)
	}
	var want []string
	for _, t := range []struct {
		set  typeSet
		name string
	}{{tObject, "an object"}, {tArray, "an array"}, {tString, "a string"}, {tNumber, "a number"},
		{tInteger, "a whole number"}, {tBoolean, "a boolean"}, {tNull, "null"}} {
		if n.types&t.set != 0 && !(t.set == tInteger && n.types&tNumber != 0) {
			want = append(want, t.name)
		}
	}
	return s.fail("expected " + strings.Join(want, " or ") + ", got " + got)
}

// listsString reports whether n's enum lists the string v.
func (n *node) listsString(v []byte) bool {
	for _, e := range n.enum {
		if es, ok := e.(string); ok && es == string(v) {
			return true
		}
	}
	return false
}

// listsNumber reports whether n's enum lists the number x.
func (n *node) listsNumber(x float64) bool {
	for _, e := range n.enum {
		if ef, ok := e.(float64); ok && ef == x {
			return true
		}
	}
	return false
}

// enumError is the error for a value n's enum does not list; text is the
// value as sent.
func (s *scanner) enumError(n *node, text string) error {
	allowed := make([]string, len(n.enum))
	for i, e := range n.enum {
		switch e := e.(type) {
		case string:
			allowed[i] = strconv.Quote(e)
		case float64:
			allowed[i] = num(e)
		case bool:
			allowed[i] = strconv.FormatBool(e)
		default:
			allowed[i] = "null"
		}
	}
	if len(allowed) == 1 {
		return s.fail("must be " + allowed[0] + ", got " + text)
	}
	return s.fail("must be one of " + strings.Join(allowed, ", ") + " (got " + text + ")")
}

// alternatives explains why no alternative of anyOf or oneOf matched. When
// each alternative only lacks required members, the message lists what
// would satisfy any of them; otherwise it is the first alternative's.
func (s *scanner) alternatives(errs []error) error {
	var wants []string
	for _, err := range errs {
		var te *toolkit.Error
		if !errors.As(err, &te) || !errors.Is(err, errMissing) {
			return errs[0]
		}
		_, names, _ := strings.Cut(te.Msg, ": ")
		wants = append(wants, names)
	}
	return &toolkit.Error{Kind: toolkit.Invalid, Err: errMissing,
		Msg: "Missing required " + s.v.noun + ": send " + strings.Join(wants, ", or ")}
}
