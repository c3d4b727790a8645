package catalog

import (
	"sort"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
)

// undescribed appends the paths of the properties under s that carry no
// description of their own (the generic text of numberSchema does not
// count: it states no unit).
func undescribed(prefix string, s *jsonschema.Schema, out []string) []string {
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
		if p.Description == "" || p.Description == numberSchema().Description {
			out = append(out, prefix+n)
		}
		out = undescribed(prefix+n+".", p, out)
		out = undescribed(prefix+n+"[].", p.Items, out)
	}
	return out
}

// TestEveryArgumentIsDescribed: every argument of every tool, nested ones
// included, has its own description (DESIGN.md: every schema description
// states the unit).
func TestEveryArgumentIsDescribed(t *testing.T) {
	for _, tool := range Default().Tools() {
		assert.Empty(t, undescribed("", tool.InputSchema, nil), tool.Name)
	}
}
