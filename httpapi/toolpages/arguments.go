package toolpages

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// argument is one row of a page's arguments table: a member of the input
// schema, nested members named by their path (bars[].close).
type argument struct {
	path, kind, notes string
	required          bool
}

// arguments lists the members of a tool's input schema, depth first in the
// schema's property order.
func arguments(input *jsonschema.Schema) []argument {
	if input == nil {
		return nil
	}
	var out []argument
	var walk func(prefix string, s *jsonschema.Schema)
	walk = func(prefix string, s *jsonschema.Schema) {
		for _, name := range propertyNames(s) {
			p := s.Properties[name]
			shape := resolve(input, p)
			out = append(out, argument{path: prefix + name, kind: kindOf(input, p), notes: argumentNotes(input, p, shape),
				required: slices.Contains(s.Required, name)})
			switch {
			case len(shape.Properties) > 0:
				walk(prefix+name+".", shape)
			case shape.Items != nil && len(resolve(input, shape.Items).Properties) > 0:
				walk(prefix+name+"[].", resolve(input, shape.Items))
			}
		}
	}
	walk("", input)
	return out
}

// propertyNames are the members of s in its property order, then the
// others alphabetically.
func propertyNames(s *jsonschema.Schema) []string {
	names := slices.Clone(s.PropertyOrder)
	var rest []string
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	names = slices.DeleteFunc(append(names, rest...), func(n string) bool { _, ok := s.Properties[n]; return !ok })
	return names
}

// resolve follows a local $ref ("#/$defs/name") of s within root.
func resolve(root, s *jsonschema.Schema) *jsonschema.Schema {
	if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		if def, ok := root.Defs[name]; ok {
			return def
		}
	}
	return s
}

// kindOf names the JSON type of s as a page shows it: decimal, integer,
// string (date), array of decimal, object, ...
func kindOf(root, s *jsonschema.Schema) string {
	shape := resolve(root, s)
	switch {
	case shape.Type == "string" && shape.Pattern == toolkit.DecimalPattern:
		return "decimal"
	case shape.Type == "array" && shape.Items != nil:
		return "array of " + kindOf(root, shape.Items)
	case shape.Format != "":
		return shape.Type + " (" + shape.Format + ")"
	case shape.Type != "":
		return shape.Type
	case len(shape.Types) > 0:
		return strings.Join(shape.Types, " or ")
	}
	return "any"
}

// argumentNotes is the description of a member followed by its rules:
// allowed values, range, sizes (those of each item of an array of
// numbers or strings too) and default.
func argumentNotes(root, p, shape *jsonschema.Schema) string {
	notes := []string{}
	if p.Description != "" {
		notes = append(notes, p.Description)
	}
	if len(p.Enum) > 0 {
		notes = append(notes, "one of "+valueList(p.Enum))
	}
	if r := rangeOf(shape); r != "" {
		notes = append(notes, r)
	}
	if n := countOf(shape); n != "" {
		notes = append(notes, n)
	}
	if shape.Items != nil {
		if item := resolve(root, shape.Items); len(item.Properties) == 0 {
			if each := strings.Join(slices.DeleteFunc([]string{rangeOf(item), countOf(item)}, func(s string) bool { return s == "" }), "; "); each != "" {
				notes = append(notes, "each "+each)
			}
		}
	}
	if p.Default != nil {
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			notes = append(notes, "default "+valueList([]any{v}))
		}
	}
	if p.Deprecated {
		notes = append(notes, "deprecated")
	}
	return strings.Join(notes, "; ")
}

// rangeOf states the numeric bounds of s ("> 0 and ≤ 1"), empty without.
func rangeOf(s *jsonschema.Schema) string {
	var parts []string
	for _, b := range []struct {
		op    string
		bound *float64
	}{{"≥", s.Minimum}, {">", s.ExclusiveMinimum}, {"≤", s.Maximum}, {"<", s.ExclusiveMaximum}} {
		if b.bound != nil {
			parts = append(parts, b.op+" "+number(*b.bound))
		}
	}
	return strings.Join(parts, " and ")
}

// countOf states the item, member or length bounds of s.
func countOf(s *jsonschema.Schema) string {
	var parts []string
	for _, b := range []struct {
		what     string
		min, max *int
	}{{"items", s.MinItems, s.MaxItems}, {"members", s.MinProperties, s.MaxProperties}} {
		if r := between(b.min, b.max); r != "" {
			parts = append(parts, r+" "+b.what)
		}
	}
	if s.Type == "string" && s.Pattern != toolkit.DecimalPattern {
		if r := between(s.MinLength, s.MaxLength); r != "" {
			parts = append(parts, r+" characters")
		}
	}
	return strings.Join(parts, "; ")
}

// between is "2 to 10", "at least 2", "at most 10" or "".
func between(lo, hi *int) string {
	switch {
	case lo != nil && *lo > 0 && hi != nil:
		return fmt.Sprintf("%s to %s", count(*lo), count(*hi))
	case lo != nil && *lo > 0:
		return "at least " + count(*lo)
	case hi != nil:
		return "at most " + count(*hi)
	}
	return ""
}

// count writes n with thousands separators (100,000).
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// number writes a bound in plain notation (9007199254740991, 0.001).
func number(f float64) string {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return count(int(f))
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// valueList lists enum values as code: `long`, `short`.
func valueList(values []any) string {
	out := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		out[i] = code(strings.Trim(string(b), `"`))
	}
	return strings.Join(out, ", ")
}

// code is s as inline code.
func code(s string) string { return "`" + s + "`" }
