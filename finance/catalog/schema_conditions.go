package catalog

// Conditional requirements stated in the schema itself, so a client that
// sends what the schema requires is never refused for a member the tool
// needed but the schema did not name. The validator (strictjson) enforces
// them; the tools keep their own checks and messages for Go callers.

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// requireOneOf states that s needs exactly one of the member sets (the
// tool refuses both).
func requireOneOf(s *jsonschema.Schema, sets ...[]string) {
	s.OneOf = append(s.OneOf, memberSets(sets)...)
}

// requireAnyOf states that s needs at least one of the member sets.
func requireAnyOf(s *jsonschema.Schema, sets ...[]string) {
	s.AnyOf = append(s.AnyOf, memberSets(sets)...)
}

func memberSets(sets [][]string) []*jsonschema.Schema {
	out := make([]*jsonschema.Schema, len(sets))
	for i, set := range sets {
		out[i] = &jsonschema.Schema{Required: set}
	}
	return out
}

// modeRule is what some values of a mode property require: the members
// listed, and one member set of each choice.
type modeRule struct {
	modes    []any
	required []string
	choices  [][][]string
}

// requireByMode states, as a oneOf keyed by the value of the enum property
// mode, the members each mode needs (list the rules in the enum's order:
// clients building arguments take the first). Each branch checks its
// members before the mode, so a call that names a mode but lacks a member
// is told which members are missing.
func requireByMode(s *jsonschema.Schema, mode string, rules ...modeRule) {
	for _, r := range rules {
		branch := &jsonschema.Schema{Required: r.required, AllOf: []*jsonschema.Schema{{
			Properties: map[string]*jsonschema.Schema{mode: {Enum: r.modes}},
		}}}
		for _, choice := range r.choices {
			branch.AllOf = append(branch.AllOf, &jsonschema.Schema{AnyOf: memberSets(choice)})
		}
		s.OneOf = append(s.OneOf, branch)
	}
}
