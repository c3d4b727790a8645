package catalog

import (
	"regexp"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ArgumentGaps lists the arguments of the input schema s (nested ones
// included, as "positions[].price") that a model reading only the schema
// could not use: no description of its own, a description that only names
// the JSON type or restates the argument's name, a number whose
// description states neither its unit nor its range, or no example (its
// own examples or default, its enum, or the example of the array holding
// it). Every tool's schema must have none; the tests of each tool family
// check it.
func ArgumentGaps(s *jsonschema.Schema) []string {
	return argumentGaps("", s, false, nil)
}

func argumentGaps(prefix string, s *jsonschema.Schema, exampled bool, out []string) []string {
	if s == nil {
		return out
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.Properties[n]
		if gap := vague(n, p); gap != "" {
			out = append(out, prefix+n+": "+gap)
		}
		covered := exampled || len(p.Examples) > 0 || p.Default != nil
		leaf := len(p.Properties) == 0 && p.Items == nil
		if leaf && !covered && len(p.Enum) == 0 && p.Type != "boolean" {
			out = append(out, prefix+n+": no example")
		}
		out = argumentGaps(prefix+n+".", p, covered, out)
		if it := p.Items; it != nil {
			if it.Properties == nil && !covered && len(it.Examples) == 0 && it.Default == nil && len(it.Enum) == 0 {
				out = append(out, prefix+n+"[]: no example")
			}
			out = argumentGaps(prefix+n+"[].", it, covered, out)
		}
	}
	return out
}

// unitOrRange matches the words of a description that give a number its
// unit or its range.
var unitOrRange = regexp.MustCompile(`(?i)(currency|usd|\bnumber of\b|\bunits?\b|\bin r\b|\br\b|percent|%|fraction|ratio|multiple|factor|\bbars?\b|trades?\b|contracts?\b|\bdays?\b|hours|years?|points?|shares|[<>]|\bfrom\b|\bto\b|at (most|least)|\d|integer|probability|level|index|count|seed|lags?\b|buckets?|resamples|paths|windows?\b)`)

// vague reports what keeps the description of argument name (schema p)
// from being specific, or "".
func vague(name string, p *jsonschema.Schema) string {
	d := strings.ToLower(strings.TrimSpace(p.Description))
	bare := strings.Trim(strings.TrimPrefix(strings.TrimPrefix(d, "optional"), " "), " ,;:.")
	bare = strings.TrimPrefix(bare, "the ")
	switch {
	case d == "":
		return "no description"
	case strings.HasPrefix(d, "decimal number") || strings.HasPrefix(d, "decimal string"):
		return "the description only names the type"
	case bare == strings.ReplaceAll(name, "_", " ") || len(strings.Fields(bare)) < 3:
		return "the description only restates the name"
	case numeric(p) && !unitOrRange.MatchString(d):
		return "the description states no unit or range"
	}
	return ""
}

// numeric reports whether p is a number: an integer or number schema, or
// a decimal input (inline or a shared decimal definition).
func numeric(p *jsonschema.Schema) bool {
	return p.Type == "integer" || p.Type == "number" || isDecimal(p) || strings.HasPrefix(p.Ref, "#/$defs/")
}
