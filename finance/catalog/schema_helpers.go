package catalog

// Schema-tightening helpers shared by every tool family: the functions
// passed to NewTool use them to add descriptions, bounds, minItems,
// minLength and defaults to the schema generated from an input struct.

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// prop returns the named property of s, panicking on a typo (a
// programming error caught by every test that builds the catalog).
func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic(fmt.Sprintf("catalog: no property %q", name))
	}
	return p
}

// f64 returns a pointer to v (for schema bounds).
func f64(v float64) *float64 { return &v }

// intp returns a pointer to v (for minItems and minLength).
func intp(v int) *int { return &v }

// describe sets the description of property name.
func describe(s *jsonschema.Schema, name, text string) {
	prop(s, name).Description = text
}

// describeAll sets the descriptions of several properties.
func describeAll(s *jsonschema.Schema, texts map[string]string) {
	for name, text := range texts {
		describe(s, name, text)
	}
}

// setDefault records the default value of property p, JSON-encoded from v
// (a string v is a JSON string, as decimal defaults are published).
func setDefault(p *jsonschema.Schema, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	p.Default = b
}

// bound sets minimum/maximum (inclusive) or exclusive bounds on numeric
// properties; nil leaves a bound unset. Decimal strings are checked by the
// tool itself with the same rules.
func bound(p *jsonschema.Schema, min, exclusiveMin, max *float64) {
	p.Minimum, p.ExclusiveMinimum, p.Maximum = min, exclusiveMin, max
}

// minItems sets minItems on the array property name.
func minItems(s *jsonschema.Schema, name string, n int) {
	prop(s, name).MinItems = intp(n)
}

// intRange sets the inclusive bounds lo..hi of the integer property name
// and returns the property.
func intRange(s *jsonschema.Schema, name string, lo, hi int) *jsonschema.Schema {
	p := prop(s, name)
	p.Minimum, p.Maximum = f64(float64(lo)), f64(float64(hi))
	return p
}

// intAtLeast sets the inclusive minimum lo of the integer property name
// (no maximum) and returns the property.
func intAtLeast(s *jsonschema.Schema, name string, lo int) *jsonschema.Schema {
	p := prop(s, name)
	p.Minimum = f64(float64(lo))
	return p
}

// positives marks numeric properties as > 0.
func positives(s *jsonschema.Schema, names ...string) {
	for _, n := range names {
		bound(prop(s, n), nil, f64(0), nil)
	}
}

// fractions marks numeric properties as fractions in (0, 1].
func fractions(s *jsonschema.Schema, names ...string) {
	for _, n := range names {
		bound(prop(s, n), nil, f64(0), f64(1))
	}
}

// positiveDecimal marks the decimal property name as > 0 and describes it
// as text (the bound is the schema's, not repeated in text).
func positiveDecimal(s *jsonschema.Schema, name, text string) {
	positives(s, name)
	describe(s, name, text)
}

// nonNegativeDecimal marks the decimal property name as >= 0 and describes
// it as text.
func nonNegativeDecimal(s *jsonschema.Schema, name, text string) {
	prop(s, name).Minimum = f64(0)
	describe(s, name, text)
}

// example records v as the example of property p (what a client that
// knows nothing else sends; together the examples of a tool's required
// members make a valid call).
func example(p *jsonschema.Schema, v any) {
	p.Examples = []any{v}
}

// examples records the examples of several properties of s.
func examples(s *jsonschema.Schema, values map[string]any) {
	for name, v := range values {
		example(prop(s, name), v)
	}
}

// itemExample records v as the example of each item of the array
// property name.
func itemExample(s *jsonschema.Schema, name string, v any) {
	example(prop(s, name).Items, v)
}

// sampleR are the R-multiples of the r_multiples examples: wins and
// losses, so every statistic of them is defined.
var sampleR = []string{"1.5", "-1", "2.3", "-0.5", "1.8", "-1", "3.2", "0.8", "-0.7", "1.1", "-1", "0.6"}

// sampleRValues returns n (at least len(sampleR)) R-multiples repeating
// sampleR.
func sampleRValues(n int) []any {
	out := make([]any, max(n, len(sampleR)))
	for i := range out {
		out[i] = sampleR[i%len(sampleR)]
	}
	return out
}

// nonEmpty sets minLength 1 on each of the string properties names.
func nonEmpty(s *jsonschema.Schema, names ...string) {
	for _, n := range names {
		prop(s, n).MinLength = intp(1)
	}
}

// nonEmptyItems sets minLength 1 on the items of the string-array
// property name.
func nonEmptyItems(s *jsonschema.Schema, name string) {
	prop(s, name).Items.MinLength = intp(1)
}
