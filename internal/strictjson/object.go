package strictjson

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agentfinance/toolkit"
)

// object scans an object: exact keys, no duplicates, at most
// Limits.MaxKeys members, required members, and delegation or recording of
// the root's members. A key the schema does not list, where it forbids
// others, stops the scan.
func (s *scanner) object(n *node, depth int) error {
	if depth > s.v.limits.MaxDepth {
		return s.limit(ruleLimit, "the document is nested deeper than "+strconv.Itoa(s.v.limits.MaxDepth)+" levels")
	}
	if n.types&tObject == 0 {
		if err := s.flag(s.typeError(n, "an object")); err != nil {
			return err
		}
		n = anyNode // its content is still scanned, within the limits
	}
	root := n == s.v.root && len(s.path) == 0 && !s.noCount
	s.i++
	var keys keySet
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return s.flag(s.finishObject(n, &keys))
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.syntax("expected a string key in an object")
		}
		key, err := s.key(n)
		if err != nil {
			return err
		}
		if err := s.countKey(n, &keys, key); err != nil {
			return err
		}
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.syntax("expected ':' after an object key")
		}
		s.i++
		s.skipSpace()
		prop, known := n.props[key]
		if !known {
			if n.closed {
				return s.unknown(n, key)
			}
			prop = orAny(n.additional)
		}
		if s.absentNull(n, key, prop, known) {
			s.i += len("null")
		} else if err := s.member(n, key, prop, root, depth); err != nil {
			return err
		}
		s.skipSpace()
		if s.i >= len(s.b) {
			return s.syntax("unexpected end of input in an object")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.skipSpace()
			continue
		case '}':
			s.i++
			return s.flag(s.finishObject(n, &keys))
		}
		return s.syntax("expected ',' or '}' in an object")
	}
}

// countKey adds key to the keys of the object: a duplicate is a
// violation (except below the root while scanning permissively), and past
// Limits.MaxKeys (TooLarge) or the schema's maxProperties (Invalid) the
// scan stops.
func (s *scanner) countKey(n *node, keys *keySet, key string) error {
	if !keys.add(key) && (!s.permissive() || len(s.path) == 0) {
		if err := s.flag(s.failAt(key, ruleDuplicate, "appears twice (each key may appear once)")); err != nil {
			return err
		}
	}
	switch count := keys.members; {
	case count > s.v.limits.MaxKeys:
		return s.limit(ruleLimit, "an object holds more than "+strconv.Itoa(s.v.limits.MaxKeys)+" members")
	case n.maxProps >= 0 && count > n.maxProps:
		return s.fail("maxProperties", "at most "+strconv.Itoa(n.maxProps)+" members are accepted")
	}
	return nil
}

// absentNull reports whether the value at s.i is a null that stands for
// the absent optional member key of n (Options.NullIsAbsent): a known
// property that is not required and does not admit null itself.
func (s *scanner) absentNull(n *node, key string, prop *node, known bool) bool {
	return s.v.nullIsAbsent && known && prop.types&tNull == 0 && bytes.HasPrefix(s.b[s.i:], []byte("null")) &&
		!slices.Contains(n.required, key)
}

// member scans the value of the member key of n, handing a delegated root
// member to its decoder and recording the root's other members.
func (s *scanner) member(n *node, key string, prop *node, root bool, depth int) error {
	s.path = append(s.path, pathElem{key: key, isKey: true})
	start := s.i
	var err error
	if root && n.delegatedRoot[key] {
		err = s.delegated(key)
	} else {
		lenient := root && n.permissiveRoot[key]
		s.lenient = s.lenient || lenient
		err = s.value(prop, depth)
		s.lenient = s.lenient && !lenient
		if err == nil && root && s.record {
			if _, own := n.names[key]; !own {
				key = strings.Clone(key) // it outlives the scan
			}
			s.members = append(s.members, span{name: key, start: start, end: s.i})
		}
	}
	if err != nil {
		return err
	}
	s.path = s.path[:len(s.path)-1]
	return nil
}

// unknown is the error of a key an object that forbids others does not
// list: it names the accepted keys, closest first, and stops the scan.
func (s *scanner) unknown(n *node, key string) error {
	field := s.path.with(key)
	msg := "Unknown " + s.v.noun + ": " + field
	if names := closestFirst(key, n.props); len(names) > 0 {
		what := s.v.noun + "s"
		if len(s.path) > 0 {
			what = s.v.noun + "s of " + s.path.String()
		}
		msg += " (accepted " + what + ", closest first: " + strings.Join(names, ", ") + ")"
	}
	return fieldError(toolkit.Invalid, field, ruleUnknown, msg)
}

// key scans an object key. Keys that are properties of n come back as the
// schema's own string; any other key aliases the document's bytes (or the
// decoded copy of a key with escapes), so a free-form object's keys cost
// no allocation. Such a key lives only as long as the scan: whatever
// outlives it (a recorded root member, an error's field) is a copy.
func (s *scanner) key(n *node) (string, error) {
	text, _, err := s.str()
	if err != nil {
		return "", err
	}
	if name, ok := n.names[string(text)]; ok {
		return name, nil
	}
	return unsafe.String(unsafe.SliceData(text), len(text)), nil
}

// delegated hands a root member to the caller's decoder.
func (s *scanner) delegated(key string) error {
	if s.delegate == nil {
		return toolkit.Errorf(toolkit.Internal, "strictjson: no decoder for delegated property %s", key)
	}
	n, err := s.delegate(key, s.b[s.i:])
	if err != nil {
		return err
	}
	if n <= 0 || s.i+n > len(s.b) {
		return toolkit.Errorf(toolkit.Internal, "strictjson: decoder of %s consumed %d bytes", key, n)
	}
	s.i += n
	return nil
}

// finishObject checks required and dependent members and minProperties.
func (s *scanner) finishObject(n *node, keys *keySet) error {
	var missing []string
	for _, r := range n.required {
		if !keys.has(r) {
			missing = append(missing, r)
		}
	}
	for trigger, needs := range n.dependent {
		if !keys.has(trigger) {
			continue
		}
		for _, r := range needs {
			if !keys.has(r) && !contains(missing, r) {
				missing = append(missing, r)
			}
		}
	}
	if len(missing) > 0 {
		return s.missing(missing)
	}
	if keys.members < n.minProps {
		return s.fail("minProperties", "at least "+strconv.Itoa(n.minProps)+" members are required")
	}
	return nil
}

// missing is the error for absent required members: one field error per
// member, and one message naming them all. Its cause marks it, so
// alternatives can combine the members each alternative lacks.
func (s *scanner) missing(names []string) error {
	full := make([]string, len(names))
	fields := make([]toolkit.FieldError, len(names))
	for i, name := range names {
		full[i] = s.path.with(name)
		fields[i] = toolkit.FieldError{Field: full[i], Rule: "required", Message: "Missing required " + s.v.noun + ": " + full[i]}
	}
	return &toolkit.Error{Kind: toolkit.Invalid, Err: errMissing, Fields: fields,
		Msg: "Missing required " + s.v.noun + ": " + strings.Join(full, ", ")}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
