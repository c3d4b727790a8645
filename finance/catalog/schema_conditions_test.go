package catalog_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConditionsAreEnforced: every condition a built-in tool states
// ("Needs one of: a | b", "Needs by mode: ...") is enforced by the tool.
// A call with the required arguments alone (from their examples) and, for
// a mode, that mode, is refused as invalid with a message naming what is
// missing: an alternative of the unmet "Needs one of", or a member the
// mode needs.
func TestConditionsAreEnforced(t *testing.T) {
	conditions := 0
	for _, tool := range catalog.Default().Tools() {
		s := tool.InputSchema
		for _, c := range conditionsOf(s) {
			conditions++
			args := required(s, s)
			if c.mode != "" {
				args[c.property] = c.mode
			}
			raw, err := json.Marshal(args)
			require.NoError(t, err)
			_, err = tool.Run(context.Background(), catalog.Call{Arguments: raw})
			require.Error(t, err, "%s %s", tool.Name, raw)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%s: %v", tool.Name, err)
			assert.True(t, mentionsAny(toolkit.MessageOf(err), c.members), "%s %s: %q names none of %v", tool.Name, raw, toolkit.MessageOf(err), c.members)
		}
	}
	assert.Equal(t, 11, conditions, "the sentences were found: drawdown, expected value, compliance, margin positions, 4 option and 3 futures modes")
}

// condition is one stated requirement: the members one of which the
// refusal must name, and for a mode rule the property and its value.
type condition struct {
	property, mode string
	members        []string
}

// conditionsOf reads the conditions of the root of s, of the items of its
// arrays (calculate_margin's positions) and of its properties' mode rules.
func conditionsOf(s *jsonschema.Schema) []condition {
	var out []condition
	if alts := after(s.Description, "Needs one of: "); alts != "" {
		out = append(out, condition{members: firstMembers(alts)})
	}
	for name, p := range s.Properties {
		if p.Items != nil && slices.Contains(s.Required, name) {
			if alts := after(p.Items.Description, "Needs one of: "); alts != "" {
				out = append(out, condition{members: firstMembers(alts)})
			}
		}
		for _, clause := range strings.Split(after(p.Description, "Needs by mode: "), "; ") {
			modes, members, ok := strings.Cut(clause, ": ")
			if !ok {
				continue
			}
			needed := strings.Split(strings.Split(members, " and one of ")[0], ", ")
			for _, m := range strings.Split(modes, ", ") {
				out = append(out, condition{property: name, mode: m, members: needed})
			}
		}
	}
	return out
}

// after returns the sentence that follows marker, or "".
func after(text, marker string) string {
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

// firstMembers is the first member of each alternative of "a, b | c".
func firstMembers(alternatives string) []string {
	var out []string
	for _, alt := range strings.Split(alternatives, " | ") {
		first, _, _ := strings.Cut(alt, ", ")
		first, _, _ = strings.Cut(first, " (")
		out = append(out, first)
	}
	return out
}

// required builds the required members of the object schema s from
// their examples (root holds the $defs).
func required(root, s *jsonschema.Schema) map[string]any {
	out := map[string]any{}
	for _, name := range s.Required {
		out[name] = exampleOf(root, s.Properties[name])
	}
	return out
}

// exampleOf is a value of s from its example, its enum or its members.
func exampleOf(root, s *jsonschema.Schema) any {
	switch {
	case len(s.Examples) > 0:
		return s.Examples[0]
	case s.Ref != "":
		return exampleOf(root, root.Defs[strings.TrimPrefix(s.Ref, "#/$defs/")])
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type == "array":
		return []any{exampleOf(root, s.Items)}
	case s.Type == "object":
		return required(root, s)
	}
	return "1"
}

func mentionsAny(message string, members []string) bool {
	for _, m := range members {
		if strings.Contains(message, m) {
			return true
		}
	}
	return false
}
