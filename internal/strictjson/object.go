package strictjson

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// object scans an object: exact keys, no duplicates, required members,
// and delegation or recording of the root's members.
func (s *scanner) object(n *node, depth int) error {
	if depth > s.v.limits.MaxDepth {
		return toolkit.Errorf(toolkit.TooLarge, "the document is nested deeper than %d levels", s.v.limits.MaxDepth)
	}
	if n.types&tObject == 0 {
		return s.typeError(n, "an object")
	}
	root := n == s.v.root && len(s.path) == 0 && !s.noCount
	s.i++
	var buf [16]string // keys seen so far; small objects need no allocation
	seen := buf[:0]
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return s.finishObject(n, seen)
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.syntax("expected a string key in an object")
		}
		key, err := s.key(n)
		if err != nil {
			return err
		}
		if slices.Contains(seen, key) {
			return s.failAt(key, "appears twice (each key may appear once)")
		}
		seen = append(seen, key)
		if n.maxProps >= 0 && len(seen) > n.maxProps {
			return s.fail("at most " + strconv.Itoa(n.maxProps) + " members are accepted")
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
				return toolkit.Errorf(toolkit.Invalid, "Unknown %s: %s", s.v.noun, s.path.with(key))
			}
			prop = orAny(n.additional)
		}
		if s.absentNull(n, key, prop, known) {
			s.i += len("null")
		} else {
			s.path = append(s.path, pathElem{key: key, isKey: true})
			start := s.i
			if root && n.delegatedRoot[key] {
				err = s.delegated(key)
			} else {
				err = s.value(prop, depth)
				if err == nil && root && s.record {
					s.members = append(s.members, span{name: key, start: start, end: s.i})
				}
			}
			if err != nil {
				return err
			}
			s.path = s.path[:len(s.path)-1]
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
			return s.finishObject(n, seen)
		}
		return s.syntax("expected ',' or '}' in an object")
	}
}

// absentNull reports whether the value at s.i is a null that stands for
// the absent optional member key of n (Options.NullIsAbsent): a known
// property that is not required and does not admit null itself.
func (s *scanner) absentNull(n *node, key string, prop *node, known bool) bool {
	return s.v.nullIsAbsent && known && prop.types&tNull == 0 && bytes.HasPrefix(s.b[s.i:], []byte("null")) &&
		!slices.Contains(n.required, key)
}

// key scans an object key. Keys that are properties of n come back as the
// schema's own string, so matching them allocates nothing.
func (s *scanner) key(n *node) (string, error) {
	text, _, err := s.str()
	if err != nil {
		return "", err
	}
	if name, ok := n.names[string(text)]; ok {
		return name, nil
	}
	return string(text), nil
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
func (s *scanner) finishObject(n *node, seen []string) error {
	var missing []string
	for _, r := range n.required {
		if !slices.Contains(seen, r) {
			missing = append(missing, r)
		}
	}
	for trigger, needs := range n.dependent {
		if !slices.Contains(seen, trigger) {
			continue
		}
		for _, r := range needs {
			if !slices.Contains(seen, r) && !slices.Contains(missing, r) {
				missing = append(missing, r)
			}
		}
	}
	if len(missing) > 0 {
		return s.missing(missing)
	}
	if len(seen) < n.minProps {
		return s.fail("at least " + strconv.Itoa(n.minProps) + " members are required")
	}
	return nil
}

// missing is the error for absent required members. Its cause marks it,
// so alternatives can combine the members each alternative lacks.
func (s *scanner) missing(names []string) error {
	full := make([]string, len(names))
	for i, name := range names {
		full[i] = s.path.with(name)
	}
	return &toolkit.Error{Kind: toolkit.Invalid, Err: errMissing,
		Msg: "Missing required " + s.v.noun + ": " + strings.Join(full, ", ")}
}
