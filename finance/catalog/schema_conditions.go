package catalog

// Conditional requirements ("give equity_values or r_multiples", the
// members each mode needs) are stated in words, never as anyOf, oneOf,
// allOf, not or if in the published schema: the Anthropic Messages API
// refuses a whole tool list when one input schema has a combinator at its
// root, OpenAI strict function calling accepts none of allOf, not and if,
// and Gemini's schema subset has no oneOf. The tools enforce these
// requirements themselves, with messages that name the alternatives
// ("entry_premium is required in mode premium", "Missing required
// argument: equity_values (or r_multiples)").
//
// The sentences have one fixed form each, written only by the helpers
// below, so that a client reading nothing but the schema (and the tests
// that play one) can act on them:
//
//	Needs one of: win_rate, avg_win, avg_loss | r_multiples (not both).
//	Needs by mode: equity_risk, premium: entry_premium; spread: spread_width and one of credit_received | entry_premium (not both).

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// NeedsOneOf states in the description of the object schema s that s
// needs all the members of at least one of the alternatives; exclusive
// says the tool refuses more than one. An alternative may also be a
// phrase for what stands in for members ("a journal of at least 2
// trades").
func NeedsOneOf(s *jsonschema.Schema, exclusive bool, alternatives ...[]string) {
	s.Description = sentences(s.Description, "Needs one of: "+oneOf(exclusive, alternatives)+".")
}

// oneOf spells alternatives as "a, b | c", with "(not both)" when they
// exclude each other.
func oneOf(exclusive bool, alternatives [][]string) string {
	parts := make([]string, len(alternatives))
	for i, a := range alternatives {
		parts[i] = strings.Join(a, ", ")
	}
	text := strings.Join(parts, " | ")
	switch {
	case exclusive && len(alternatives) == 2:
		text += " (not both)"
	case exclusive:
		text += " (exactly one)"
	}
	return text
}

// sentences appends sentence to text, ending text with a period first.
func sentences(text, sentence string) string {
	text, sentence = strings.TrimSpace(text), strings.TrimSpace(sentence)
	switch {
	case text == "":
		return sentence
	case sentence == "":
		return text
	}
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	return text + " " + sentence
}

// modeRule is what some values of a mode property require: the members
// listed, and one alternative of each choice.
type modeRule struct {
	modes    []string
	required []string
	choices  []choice
}

// choice is a set of alternative member sets, one of which is needed.
type choice struct {
	alternatives [][]string
	exclusive    bool
}

// needsByMode states in the description of the enum property mode of s
// the members each mode needs (list the rules in the enum's order).
func needsByMode(s *jsonschema.Schema, mode string, rules ...modeRule) {
	clauses := make([]string, len(rules))
	for i, r := range rules {
		clause := strings.Join(r.modes, ", ") + ": " + strings.Join(r.required, ", ")
		for _, c := range r.choices {
			clause += " and one of " + oneOf(c.exclusive, c.alternatives)
		}
		clauses[i] = clause
	}
	p := prop(s, mode)
	p.Description = sentences(p.Description, "Needs by mode: "+strings.Join(clauses, "; ")+".")
}
