package catalog

// Shared definitions: every decimal input of a tool's schema is a $ref to
// one entry of the schema's $defs, named after its bounds
// ("decimal", "positive", "decimal_from_minus_1_to_1"), so the
// decimal grammar and its length limit are written once per tool instead
// of once per property. The property keeps its own annotations
// (description, default, examples). The schema's own description says
// once that a JSON number is accepted wherever a decimal string is.

import (
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// DecimalsNote is the description of every input schema with decimal
// members: the form a client sends and the form it may send instead.
const DecimalsNote = `Decimals: strings like "1.5"; JSON numbers work too.`

// shareDecimals replaces every decimal input under root by a reference to
// its definition in root.Defs.
func shareDecimals(root *jsonschema.Schema) {
	var walk func(s *jsonschema.Schema) *jsonschema.Schema
	walk = func(s *jsonschema.Schema) *jsonschema.Schema {
		if s == nil {
			return nil
		}
		if isDecimal(s) {
			return decimalRef(root, s)
		}
		for name, p := range s.Properties {
			s.Properties[name] = walk(p)
		}
		s.Items = walk(s.Items)
		s.AdditionalProperties = walk(s.AdditionalProperties)
		return s
	}
	walk(root)
	if len(root.Defs) > 0 && !strings.HasPrefix(root.Description, DecimalsNote) {
		root.Description = sentences(DecimalsNote, root.Description)
	}
}

// isDecimal reports whether s is a decimal input (see numberSchema).
func isDecimal(s *jsonschema.Schema) bool {
	return s.Type == "string" && s.Pattern == decimalPattern
}

// decimalRef registers the definition of the decimal input s in root and
// returns the reference that replaces s, carrying s's annotations.
func decimalRef(root *jsonschema.Schema, s *jsonschema.Schema) *jsonschema.Schema {
	name := decimalDefName(s)
	if root.Defs == nil {
		root.Defs = map[string]*jsonschema.Schema{}
	}
	if _, ok := root.Defs[name]; !ok {
		root.Defs[name] = &jsonschema.Schema{
			Type: "string", Pattern: decimalPattern, MaxLength: intp(toolkit.MaxNumberLen),
			Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum, Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum,
		}
	}
	return &jsonschema.Schema{Ref: "#/$defs/" + name, Description: s.Description, Default: s.Default, Examples: s.Examples}
}

// commonDecimals name the usual bounds: > 0, >= 0, and (0, 1].
var commonDecimals = map[string]string{
	"decimal_above_0": "positive", "decimal_from_0": "non_negative", "decimal_above_0_to_1": "fraction",
}

// decimalDefName names the definition of a decimal input after its bounds:
// "decimal", then "_from_<x>" or "_above_<x>" for the lower bound and
// "_to_<x>" or "_below_<x>" for the upper one; the usual bounds have short
// names (commonDecimals).
func decimalDefName(s *jsonschema.Schema) string {
	name := boundsName(s)
	if short, ok := commonDecimals[name]; ok {
		return short
	}
	return name
}

// boundsName spells the bounds of s after "decimal".
func boundsName(s *jsonschema.Schema) string {
	name := "decimal"
	switch {
	case s.Minimum != nil:
		name += "_from_" + boundName(*s.Minimum)
	case s.ExclusiveMinimum != nil:
		name += "_above_" + boundName(*s.ExclusiveMinimum)
	}
	switch {
	case s.Maximum != nil:
		name += "_to_" + boundName(*s.Maximum)
	case s.ExclusiveMaximum != nil:
		name += "_below_" + boundName(*s.ExclusiveMaximum)
	}
	return name
}

// boundName spells a bound for a definition name: "1", "minus_1000",
// "1e12".
func boundName(x float64) string {
	text := strings.ReplaceAll(strconv.FormatFloat(x, 'g', -1, 64), "e+", "e")
	if rest, ok := strings.CutPrefix(text, "-"); ok {
		return "minus_" + rest
	}
	return text
}
