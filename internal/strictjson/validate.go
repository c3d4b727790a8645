package strictjson

import (
	"slices"
	"strconv"
	"sync"

	"github.com/agentfinance/toolkit"
)

// Delegate decodes and validates the value of a delegated top-level
// property: b starts at the value (white space skipped) and runs to the end
// of the document; it returns the length of the value. Its errors are
// returned as they are (a *toolkit.Error naming the field is expected).
type Delegate func(name string, b []byte) (int, error)

// Member receives each non-delegated top-level property of a valid
// document with its raw value.
type Member func(name string, value []byte) error

// Validate checks doc against the schema in one pass. delegate (needed when
// the schema was compiled with delegated properties) decodes those; member,
// when not nil, is called with every other top-level property after the
// whole document is valid. Errors are *toolkit.Error values: TooLarge for
// the limits and maxItems, Invalid for everything else, each naming the
// path of the offending value ("bars[3].close") and the rule. The error
// of an invalid document lists every violation found in its Fields (at
// most toolkit.MaxFieldErrors); its Kind and Msg are the first one's.
func (v *Validator) Validate(doc []byte, delegate Delegate, member Member) error {
	bufs := scratchPool.Get().(*scratch)
	defer bufs.release()
	s := scanner{b: doc, v: v, delegate: delegate, path: bufs.path[:0], members: bufs.members[:0], record: member != nil}
	defer bufs.keep(&s)
	if err := s.document(); err != nil {
		return err
	}
	for _, m := range s.members {
		if err := member(m.name, doc[m.start:m.end]); err != nil {
			return err
		}
	}
	return nil
}

// document scans the whole document and returns every violation found.
func (s *scanner) document() error {
	s.skipSpace()
	if s.i >= len(s.b) {
		return fieldError(toolkit.Invalid, "", ruleSyntax, s.v.document+" is empty: expected a JSON value")
	}
	err := s.value(s.v.root, 0)
	if err == nil {
		s.skipSpace()
		if s.i != len(s.b) {
			err = s.syntax("unexpected data after the JSON value")
		}
	}
	return s.result(err)
}

// scratch holds the growing buffers of a scan, reused across scans so a
// small document is validated without allocating them.
type scratch struct {
	path    path
	members []span
}

var scratchPool = sync.Pool{New: func() any { return &scratch{path: make(path, 0, 8), members: make([]span, 0, 16)} }}

// keep takes back the buffers of a finished scan (grown, perhaps), unless
// a huge document made them too large to keep around.
func (b *scratch) keep(s *scanner) {
	if cap(s.path) <= 64 {
		b.path = s.path[:0]
	}
	if cap(s.members) <= 256 {
		b.members = s.members[:0]
	}
}

// release clears the references the buffers hold and returns them to the
// pool.
func (b *scratch) release() {
	clear(b.path[:cap(b.path)])
	clear(b.members[:cap(b.members)])
	scratchPool.Put(b)
}

// span is a top-level member's value.
type span struct {
	name       string
	start, end int
}

// scanner walks one document.
type scanner struct {
	b        []byte
	i        int
	v        *Validator
	values   int
	path     path
	delegate Delegate
	members  []span // the root's members, when record is set
	record   bool
	noCount  bool                 // re-validating a value against a subschema
	lenient  bool                 // in a member of Options.PermissiveMembers
	errs     []toolkit.FieldError // the violations found so far
	first    *toolkit.Error       // the first of them
}

// permissive reports whether the value at hand is scanned under the
// rules of Options.Permissive.
func (s *scanner) permissive() bool { return s.v.permissive || s.lenient }

func (s *scanner) skipSpace() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value validates the value at s.i against n and advances past it.
func (s *scanner) value(n *node, depth int) error {
	if !s.noCount {
		s.values++
		if s.values > s.v.limits.MaxValues {
			return s.limit(ruleLimit, "the document holds more than "+strconv.Itoa(s.v.limits.MaxValues)+" values")
		}
	}
	start := s.i
	if s.i >= len(s.b) {
		return s.syntax("unexpected end of input")
	}
	var err error
	switch c := s.b[s.i]; {
	case c == '{':
		err = s.object(n, depth+1)
	case c == '[':
		err = s.array(n, depth+1)
	case c == '"':
		err = s.stringValue(n)
	case c == '-' || c >= '0' && c <= '9':
		err = s.number(n)
	case c == 't' || c == 'f':
		err = s.literal(n, tBoolean)
	case c == 'n':
		err = s.literal(n, tNull)
	default:
		err = s.syntax("unexpected character " + strconv.QuoteRune(rune(c)))
	}
	if err != nil {
		return err
	}
	if n.never {
		return s.flag(s.fail("not", "is not allowed"))
	}
	return s.combinators(n, start, depth)
}

// combinators re-validates the value b[start:s.i] against allOf, anyOf
// and oneOf.
func (s *scanner) combinators(n *node, start, depth int) error {
	if len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0 {
		return nil
	}
	end := s.i
	for _, sub := range n.allOf {
		if err := s.againstSub(sub, start, end, depth); err != nil {
			return s.flag(err)
		}
	}
	for _, group := range []struct {
		subs []*node
		rule string
	}{{n.anyOf, "anyOf"}, {n.oneOf, "oneOf"}} {
		if len(group.subs) == 0 {
			continue
		}
		var errs []*toolkit.Error
		for _, sub := range group.subs {
			if err := s.againstSub(sub, start, end, depth); err != nil {
				errs = append(errs, err)
			}
		}
		switch matched := len(group.subs) - len(errs); {
		case matched == 0:
			return s.flag(s.alternatives(group.rule, errs))
		case group.rule == "oneOf" && matched > 1:
			return s.flag(s.fail("oneOf", "matches more than one of the accepted forms (send exactly one of them)"))
		}
	}
	return nil
}

// againstSub validates the already scanned value b[start:end] against a
// subschema: nil, or the error listing its violations.
func (s *scanner) againstSub(sub *node, start, end, depth int) *toolkit.Error {
	sc := scanner{b: s.b[:end], i: start, v: s.v, path: s.path, noCount: true}
	err := sc.result(sc.value(sub, depth))
	if err == nil {
		return nil
	}
	if te, ok := err.(*toolkit.Error); ok {
		return te
	}
	return fieldError(toolkit.Internal, s.path.String(), ruleInvalid, err.Error())
}

func (s *scanner) literal(n *node, t typeSet) error {
	var word string
	switch s.b[s.i] {
	case 't':
		word = "true"
	case 'f':
		word = "false"
	default:
		word = "null"
	}
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.syntax("invalid literal")
	}
	s.i += len(word)
	if n.types&t == 0 {
		return s.flag(s.typeError(n, word))
	}
	var v any
	if t == tBoolean {
		v = word == "true"
	}
	if len(n.enum) > 0 && !slices.Contains(n.enum, v) {
		return s.flag(s.enumError(n, word))
	}
	return nil
}

// array scans an array, checking item count bounds as items arrive.
func (s *scanner) array(n *node, depth int) error {
	if depth > s.v.limits.MaxDepth {
		return s.limit(ruleLimit, "the document is nested deeper than "+strconv.Itoa(s.v.limits.MaxDepth)+" levels")
	}
	if n.types&tArray == 0 {
		if err := s.flag(s.typeError(n, "an array")); err != nil {
			return err
		}
		n = anyNode // its content is still scanned, within the limits
	}
	s.i++
	count := 0
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return s.flag(s.checkItemCount(n, 0))
	}
	for {
		if n.maxItems >= 0 && count == n.maxItems {
			return s.tooManyItems(n)
		}
		s.path = append(s.path, pathElem{index: count})
		s.skipSpace()
		if err := s.value(orAny(n.items), depth); err != nil {
			return err
		}
		s.path = s.path[:len(s.path)-1]
		count++
		s.skipSpace()
		if s.i >= len(s.b) {
			return s.syntax("unexpected end of input in an array")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.skipSpace()
			continue
		case ']':
			s.i++
			return s.flag(s.checkItemCount(n, count))
		}
		return s.syntax("expected ',' or ']' in an array")
	}
}

func (s *scanner) checkItemCount(n *node, count int) error {
	if count < n.minItems {
		return s.fail("minItems", "at least "+strconv.Itoa(n.minItems)+" items are required, got "+strconv.Itoa(count))
	}
	return nil
}

var anyNode = &node{types: tAny, maxProps: -1, maxItems: -1, maxLength: -1}

func orAny(n *node) *node {
	if n == nil {
		return anyNode
	}
	return n
}
