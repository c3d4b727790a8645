package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryArgumentIsDescribed: every argument of every tool, nested ones
// included, has its own description (DESIGN.md: every schema description
// states the unit) and an example.
func TestEveryArgumentIsDescribed(t *testing.T) {
	for _, tool := range Default().Tools() {
		assert.Empty(t, ArgumentGaps(tool.InputSchema), tool.Name)
	}
}
