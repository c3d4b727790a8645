package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryBuiltInToolHasATitle checks Register gives every built-in tool
// its human title, distinct from the others. (The workspace tools' titles
// are checked with the full catalog over MCP, in httpapi.)
func TestEveryBuiltInToolHasATitle(t *testing.T) {
	seen := map[string]string{}
	for _, tool := range Default().Tools() {
		assert.NotEmpty(t, tool.Title, "%s has no title: add it to the title table", tool.Name)
		if other, dup := seen[tool.Title]; dup {
			t.Errorf("%s and %s share the title %q", other, tool.Name, tool.Title)
		}
		seen[tool.Title] = tool.Name
	}
}

// TestRegisterKeepsAnExplicitTitle checks the table only fills a missing
// title.
func TestRegisterKeepsAnExplicitTitle(t *testing.T) {
	tool, ok := Default().Lookup("calculate_kelly")
	assert.True(t, ok)
	tool.Title = "Kelly"
	c, err := New(tool)
	assert.NoError(t, err)
	got, _ := c.Lookup("calculate_kelly")
	assert.Equal(t, "Kelly", got.Title)
}

// TestBilledOperations lists one operation for a tool with one price and
// one per tier for evaluate_performance.
func TestBilledOperations(t *testing.T) {
	c := Default()
	sizing, _ := c.Lookup("calculate_position_size")
	assert.Equal(t, []OperationChoice{{Operation: OpPositionSizing}}, sizing.BilledOperations())
	eval, _ := c.Lookup(evaluationToolName)
	assert.Equal(t, []OperationChoice{
		{Argument: "tier", Value: "basic", Operation: OpBasicEval},
		{Argument: "tier", Value: "full", Operation: OpFullEval},
		{Argument: "tier", Value: "comprehensive", Operation: OpComprehensiveEval},
	}, eval.BilledOperations())
}
