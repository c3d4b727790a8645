package catalog

// Conditional requirements stated in the published schema, so a client
// that sends what the schema requires is never refused for a member the
// tool needed but the schema did not name.
//
// The tools enforce these requirements themselves, with messages that name
// the mode or the alternative ("entry_premium is required in mode
// premium"). WithRequirements adds them to a tool's schema after its
// argument decoder is compiled, so the decoder does not check them a second
// time: an anyOf makes strictjson re-scan the value once per alternative
// (BenchmarkConditionalArguments: validating 100 margin positions took 2.2
// times the allocations when the decoder checked the anyOf).

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// WithRequirements returns t with the conditional requirements that state
// writes into its published input schema (see above); t itself must refuse
// every call they exclude.
func WithRequirements(t Tool, state func(s *jsonschema.Schema)) Tool {
	state(t.InputSchema)
	return t
}

// requireAnyOf states that s needs at least one of the member sets.
func requireAnyOf(s *jsonschema.Schema, sets ...[]string) {
	s.AnyOf = append(s.AnyOf, memberSets(sets)...)
}

// memberSets returns one schema requiring each member set.
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
// clients building arguments take the first).
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
