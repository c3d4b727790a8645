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
		return strings.Clone(key) // a key may alias the document (see key)
	}
	return p.String() + "." + key
}

// errMissing marks the errors of absent required members.
var errMissing = errors.New("missing required member")

// errText is a plain message turned into a field error by fail.
type errText string

func (e errText) Error() string { return string(e) }

// The rules a violation can break, besides the JSON Schema keywords
// (required, minimum, maxItems, pattern, enum, ...) named as they are.
const (
	ruleType      = "type"      // the value is not of an accepted JSON type
	ruleUnknown   = "unknown"   // a key the schema does not list, where it forbids others
	ruleDuplicate = "duplicate" // a key that appears twice in one object
	ruleSyntax    = "syntax"    // the text is not JSON
	ruleLimit     = "limit"     // a document limit: depth, values, keys, string bytes
	ruleText      = "text"      // invalid UTF-8, a control character, a lone surrogate
	ruleRange     = "range"     // a number outside the toolkit's input range
	ruleInvalid   = "invalid"   // a field's own decoder refused its value
)

// fieldError is an error of the given kind at field, breaking rule.
func fieldError(kind toolkit.Kind, field, rule, msg string) *toolkit.Error {
	return &toolkit.Error{Kind: kind, Msg: msg, Fields: []toolkit.FieldError{{Field: field, Rule: rule, Message: msg}}}
}

// prefix is "<path>: " or "" at the root.
func (s *scanner) prefix() string {
	if len(s.path) == 0 {
		return ""
	}
	return s.path.String() + ": "
}

// fail is an Invalid error naming the current path and the rule.
func (s *scanner) fail(rule, msg string) error {
	return fieldError(toolkit.Invalid, s.path.String(), rule, s.prefix()+msg)
}

// failAt is fail for a member key of the current value.
func (s *scanner) failAt(key, rule, msg string) error {
	field := s.path.with(key)
	return fieldError(toolkit.Invalid, field, rule, field+": "+msg)
}

// limit is the TooLarge error of a document limit or a maxItems.
func (s *scanner) limit(rule, msg string) error {
	return fieldError(toolkit.TooLarge, s.path.String(), rule, s.prefix()+msg)
}

// syntax is the error for text that is not JSON.
func (s *scanner) syntax(what string) error {
	return fieldError(toolkit.Invalid, s.path.String(), ruleSyntax, "invalid JSON at byte "+strconv.Itoa(s.i)+": "+what)
}

func (s *scanner) tooManyItems(n *node) error {
	return s.limit("maxItems", "at most "+strconv.Itoa(n.maxItems)+" items are accepted")
}

// typeError names the expected types and what was found.
func (s *scanner) typeError(n *node, got string) error {
	if n.decimal {
		return s.fail(ruleType, `expected a number (a decimal string like "1.5" or a JSON number), got `+got)
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
	return s.fail(ruleType, "expected "+strings.Join(want, " or ")+", got "+got)
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
		return s.fail("enum", "must be "+allowed[0]+", got "+text)
	}
	return s.fail("enum", "must be one of "+strings.Join(allowed, ", ")+" (got "+text+")")
}

// alternatives explains why no alternative of anyOf or oneOf (rule)
// matched. When each alternative only lacks required members, the message
// lists what would satisfy any of them; otherwise it is the first
// alternative's error.
func (s *scanner) alternatives(rule string, errs []*toolkit.Error) error {
	var wants []string
	for _, te := range errs {
		names := make([]string, 0, len(te.Fields))
		for _, f := range te.Fields {
			if f.Rule != "required" {
				return errs[0]
			}
			names = append(names, f.Field)
		}
		wants = append(wants, strings.Join(names, ", "))
	}
	e := fieldError(toolkit.Invalid, s.path.String(), rule, "Missing required "+s.v.noun+": send "+strings.Join(wants, ", or "))
	e.Err = errMissing
	return e
}
