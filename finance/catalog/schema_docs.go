package catalog

import (
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ArgumentGaps lists the arguments of the input schema s (nested ones
// included, as "positions[].price") that a model reading only the schema
// could not use: no description of its own, a description that only names
// the JSON type, or no example (its own examples or default, its enum, or
// the example of the array holding it). Every tool's schema must have
// none; the tests of each tool family check it.
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
		switch d := strings.ToLower(p.Description); {
		case d == "":
			out = append(out, prefix+n+": no description")
		case strings.HasPrefix(d, "decimal number") || strings.HasPrefix(d, "decimal string"):
			out = append(out, prefix+n+": the description only names the type")
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
