package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// argsFromSchema builds one tool's arguments from nothing but its
// published input schema, as a model reading only the tool list would:
// the required members and those the schema's conditions ask for, each
// from its example, else its enum, else the smallest value its type and
// bounds allow. It knows no tool.
//
// The conditions are the two sentence forms the catalog writes
// (catalog.NeedsOneOf and the mode rules): "Needs one of: a, b | c." in an
// object's description asks for the members of the first alternative, and
// "Needs by mode: m1, m2: a, b; m3: c and one of d | e." in a property's
// description asks, once that property's value is chosen, for the members
// of that value.
type argsFromSchema struct {
	root map[string]any // the tool's input schema (holds any $defs)
	// examplesInText reads examples from the descriptions ("e.g. 185"), as
	// the vendor lists write them, instead of the examples keyword.
	examplesInText bool
	// everyKey sends every member, null where unused (OpenAI strict mode).
	everyKey bool
}

// object builds the members of the object schema s.
func (b argsFromSchema) object(s map[string]any) (map[string]any, error) {
	props, _ := s["properties"].(map[string]any)
	out := map[string]any{}
	var pending []string
	for _, name := range names(s["required"]) {
		if p, _ := props[name].(map[string]any); !admitsNull(p) { // OpenAI strict: an optional member admits null
			pending = append(pending, name)
		}
	}
	pending = append(pending, firstAlternative(sentence(text(s), "Needs one of: "))...)
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		p, ok := props[name].(map[string]any)
		if _, done := out[name]; done || !ok {
			continue // built already, or a phrase of a condition ("2+ trades in the journal")
		}
		v, err := b.value(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = v
		if mode, ok := v.(string); ok {
			pending = append(pending, modeMembers(sentence(text(p), "Needs by mode: "), mode)...)
		}
	}
	if b.everyKey {
		for name := range props {
			if _, done := out[name]; !done {
				out[name] = nil
			}
		}
	}
	return out, nil
}

// value builds one value of the schema s.
func (b argsFromSchema) value(s map[string]any) (any, error) {
	if ex, ok := b.example(s); ok {
		return ex, nil
	}
	if ref, ok := s["$ref"].(string); ok {
		defs, _ := b.root["$defs"].(map[string]any)
		def, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("unresolved $ref %s", ref)
		}
		return b.value(def)
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 && enum[0] != nil {
		return enum[0], nil
	}
	switch schemaType(s) {
	case "object":
		return b.object(s)
	case "array":
		items, _ := s["items"].(map[string]any)
		out := make([]any, max(1, count(s["minItems"])))
		for i := range out {
			v, err := b.value(items)
			if err != nil {
				return nil, fmt.Errorf("items: %w", err)
			}
			out[i] = v
		}
		return out, nil
	case "integer", "number":
		return smallest(s), nil
	case "boolean":
		return false, nil
	case "string":
		return b.text(s)
	}
	return nil, fmt.Errorf("no type, example or enum in %v", s)
}

// example is the schema's first example: its examples keyword, or with
// examplesInText the JSON value after "e.g. " in its description.
func (b argsFromSchema) example(s map[string]any) (any, bool) {
	if !b.examplesInText {
		examples, ok := s["examples"].([]any)
		if !ok || len(examples) == 0 {
			return nil, false
		}
		return examples[0], true
	}
	d := text(s)
	i := strings.Index(d, "e.g. ")
	if i < 0 {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(d[i+len("e.g. "):]))
	dec.UseNumber() // the number exactly as written
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// text builds a string: a date or time for a format, a number in bounds
// for a pattern that accepts one, else minLength letters.
func (b argsFromSchema) text(s map[string]any) (string, error) {
	switch s["format"] {
	case "date":
		return "2026-03-09", nil
	case "date-time":
		return "2026-03-09T14:30:00Z", nil
	}
	pattern, ok := s["pattern"].(string)
	if !ok {
		return strings.Repeat("x", max(1, count(s["minLength"]))), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", err
	}
	for _, candidate := range []string{"1", "0.5", "100", "0", "-1"} {
		x, _ := strconv.ParseFloat(candidate, 64)
		if re.MatchString(candidate) && inBounds(s, x) {
			return candidate, nil
		}
	}
	return "", fmt.Errorf("no candidate matches the pattern %s", pattern)
}

// schemaType is the schema's type in lower case (Gemini writes
// "NUMBER"), the first that is not null when it lists several.
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return strings.ToLower(t)
	case []any:
		for _, x := range t {
			if x != "null" {
				return strings.ToLower(x.(string))
			}
		}
	}
	return ""
}

// sentence returns what follows marker in text, up to the sentence's
// end, or "".
func sentence(text, marker string) string {
	i := strings.Index(text, marker)
	if i < 0 {
		return ""
	}
	rest := text[i+len(marker):]
	if end := strings.Index(rest, "."); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// firstAlternative lists the members of the first alternative of
// "a, b | c (not both)".
func firstAlternative(alternatives string) []string {
	if alternatives == "" {
		return nil
	}
	first, _, _ := strings.Cut(alternatives, " | ")
	first, _, _ = strings.Cut(first, " (")
	return strings.Split(first, ", ")
}

// modeMembers lists the members the clause of mode asks for in
// "m1, m2: a, b; m3: c and one of d | e".
func modeMembers(clauses, mode string) []string {
	for _, clause := range strings.Split(clauses, "; ") {
		modes, members, ok := strings.Cut(clause, ": ")
		if !ok || !slices.Contains(strings.Split(modes, ", "), mode) {
			continue
		}
		parts := strings.Split(members, " and one of ")
		out := strings.Split(parts[0], ", ")
		for _, choice := range parts[1:] {
			out = append(out, firstAlternative(choice)...)
		}
		return out
	}
	return nil
}

// admitsNull reports whether a schema's type list holds null.
func admitsNull(s map[string]any) bool {
	list, _ := s["type"].([]any)
	return slices.Contains(list, any("null"))
}

// text is a schema's description.
func text(s map[string]any) string {
	d, _ := s["description"].(string)
	return d
}

// smallest is the smallest whole number the bounds of s allow (at least 1
// when nothing bounds it below).
func smallest(s map[string]any) float64 {
	switch {
	case s["minimum"] != nil:
		return number(s["minimum"])
	case s["exclusiveMinimum"] != nil:
		return number(s["exclusiveMinimum"]) + 1
	}
	return 1
}

// inBounds reports whether x satisfies the numeric bounds of s.
func inBounds(s map[string]any, x float64) bool {
	bound := func(key string) (float64, bool) {
		if s[key] == nil {
			return 0, false
		}
		return number(s[key]), true
	}
	if v, ok := bound("minimum"); ok && x < v {
		return false
	}
	if v, ok := bound("exclusiveMinimum"); ok && x <= v {
		return false
	}
	if v, ok := bound("maximum"); ok && x > v {
		return false
	}
	if v, ok := bound("exclusiveMaximum"); ok && x >= v {
		return false
	}
	return true
}

func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case json.Number:
		f, _ := x.Float64()
		return f
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return 0
}

func names(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

func count(v any) int {
	return int(number(v))
}

// decodeNumbers decodes JSON keeping numbers as written (json.Number).
func decodeNumbers(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}
