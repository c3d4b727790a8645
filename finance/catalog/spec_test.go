package catalog

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryBuiltInToolIsDescribed checks each built-in tool's Spec gives
// it a human title distinct from the others', a description and its
// reference text.
func TestEveryBuiltInToolIsDescribed(t *testing.T) {
	seen := map[string]string{}
	for _, tool := range Default().Tools() {
		assert.NotEmpty(t, tool.Title, "%s has no title", tool.Name)
		assert.NotEqual(t, tool.Name, tool.Title)
		if other, dup := seen[tool.Title]; dup {
			t.Errorf("%s and %s share the title %q", other, tool.Name, tool.Title)
		}
		seen[tool.Title] = tool.Name
		assert.NotEmpty(t, tool.Description, tool.Name)
		assert.NotEmpty(t, strings.TrimSpace(tool.Docs), "%s has no reference text", tool.Name)
		assert.NotContains(t, tool.Docs, "docs/tools-", "%s: the family reference files are gone", tool.Name)
	}
}

// TestEveryReferenceTextBelongs checks each embedded text is the Docs of a
// built-in tool or of a category, so none is left behind by a rename.
func TestEveryReferenceTextBelongs(t *testing.T) {
	c := Default()
	categories := map[string]bool{}
	for _, cat := range c.Categories() {
		categories[cat.Name] = true
		assert.NotEmpty(t, cat.Docs, "category %s has no reference text", cat.Name)
	}
	files := 0
	require.NoError(t, fs.WalkDir(referenceTexts, "docs", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "docs/conventions.md" {
			return err
		}
		files++
		name := strings.TrimSuffix(path.Base(p), ".md")
		switch path.Dir(p) {
		case "docs/tools":
			_, ok := c.Lookup(name)
			assert.True(t, ok, "%s is the text of no built-in tool", p)
		case "docs/categories":
			assert.True(t, categories[name], "%s is the text of no category", p)
		default:
			t.Errorf("%s: texts live in docs/tools and docs/categories", p)
		}
		return nil
	}))
	assert.Equal(t, len(c.Tools())+len(categories), files)
	assert.NotEmpty(t, Conventions())
}

// TestCategoriesFollowTheTools lists the built-in categories in the order
// of their first tools, each with its title; a category never described
// takes its name as its title.
func TestCategoriesFollowTheTools(t *testing.T) {
	var names, titles []string
	for _, cat := range Default().Categories() {
		names, titles = append(names, cat.Name), append(titles, cat.Title)
	}
	assert.Equal(t, []string{"core", "compound", "performance", "market", "derivatives", "compliance"}, names)
	assert.Equal(t, []string{"Core", "Compound", "Performance", "Market", "Derivatives", "Compliance"}, titles)

	c, err := New(testTool(t, Spec{Name: "a", Category: "misc"}))
	require.NoError(t, err)
	assert.Equal(t, []Category{{Name: "misc", Title: "misc"}}, c.Categories())
	require.NoError(t, c.DescribeCategory(Category{Name: "misc", Title: "Miscellany", Docs: "x"}))
	assert.Equal(t, []Category{{Name: "misc", Title: "Miscellany", Docs: "x"}}, c.Categories())
	assert.Error(t, c.DescribeCategory(Category{Name: "misc", Title: "Again"}), "described once")
	assert.Error(t, c.DescribeCategory(Category{Name: "other"}), "a title is needed")
}

// TestAliasesResolve checks every built-in alias resolves to its tool and
// a tool name resolves to itself.
func TestAliasesResolve(t *testing.T) {
	c := Default()
	aliases := 0
	for _, tool := range c.Tools() {
		for _, a := range tool.Aliases {
			aliases++
			got, ok := c.Resolve(a)
			require.True(t, ok, a)
			assert.Equal(t, tool.Name, got.Name, a)
			_, isTool := c.Lookup(a)
			assert.False(t, isTool, "alias %s is a tool name", a)
		}
		got, ok := c.Resolve(tool.Name)
		assert.True(t, ok)
		assert.Equal(t, tool.Name, got.Name)
	}
	assert.Equal(t, 7, aliases, "the published aliases of the built-in tools (record_trade_outcome is the workspace's)")
	_, ok := c.Resolve("no_such_tool")
	assert.False(t, ok)
}

// TestRegisterRefuses lists what Register keeps out of a catalog: each
// case registers a first tool, then the second, which must fail naming
// the rule.
func TestRegisterRefuses(t *testing.T) {
	price := func(op, usd string) map[string]toolkit.Amount {
		return map[string]toolkit.Amount{op: toolkit.MustParseAmount(usd)}
	}
	first := Spec{Name: "first", Operation: "first", Aliases: []string{"premier"}, Prices: price("first", "0.01"),
		Shortcuts: []Shortcut{{Path: "/v1/first", OperationID: "first", Summary: "First"}}}
	cases := []struct {
		name   string
		second Spec
		want   string
	}{
		{"a name twice", Spec{Name: "first"}, "registered twice"},
		{"a name that is an alias", Spec{Name: "premier"}, `already an alias of "first"`},
		{"an alias that is a name", Spec{Name: "second", Aliases: []string{"first"}}, `alias "first" is the name of a tool`},
		{"an alias twice", Spec{Name: "second", Aliases: []string{"premier"}}, `already an alias of "first"`},
		{"an alias of itself", Spec{Name: "second", Aliases: []string{"second"}}, "must be a new name"},
		{"an alias listed twice", Spec{Name: "second", Aliases: []string{"deux", "deux"}}, "must be a new name"},
		{"a price of another operation", Spec{Name: "second", Operation: "second", Prices: price("other", "0.01")},
			`prices "other" but is billed as second`},
		{"one operation at two prices", Spec{Name: "second", Operation: "first", Prices: price("first", "0.02")},
			`prices first at 0.02, "first" at 0.01`},
		{"a shortcut path twice", Spec{Name: "second", Shortcuts: []Shortcut{{Path: "/v1/first", OperationID: "second", Summary: "S"}}},
			`/v1/first is already "first"'s`},
		{"a shortcut outside /v1", Spec{Name: "second", Shortcuts: []Shortcut{{Path: "/second", OperationID: "second", Summary: "S"}}},
			"needs a /v1/ path"},
		{"a tier of another tool", Spec{Name: "second", Shortcuts: []Shortcut{{Path: "/v1/second", OperationID: "second", Summary: "S", Tier: "full"}}},
			"only evaluate_performance"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(testTool(t, first))
			require.NoError(t, err)
			err = c.Register(testTool(t, tc.second))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Len(t, c.Tools(), 1, "nothing registered")
		})
	}
}

// TestSharedOperationsShareAPrice checks two tools may price one
// operation alike, and the table holds it once.
func TestSharedOperationsShareAPrice(t *testing.T) {
	price := map[string]toolkit.Amount{"shared": toolkit.MustParseAmount("0.005")}
	c, err := New(testTool(t, Spec{Name: "a", Operation: "shared", Prices: price}),
		testTool(t, Spec{Name: "b", Operation: "shared", Prices: price}), testTool(t, Spec{Name: "free", Operation: "free"}))
	require.NoError(t, err)
	assert.Equal(t, price, c.Prices())
}

// TestPricesOfTheBuiltInTools checks the catalog's table is the union of
// the tools' prices: one per tier for evaluate_performance, one for each
// other priced tool, none for the free ones.
func TestPricesOfTheBuiltInTools(t *testing.T) {
	c := Default()
	want := map[string]toolkit.Amount{}
	for _, tool := range c.Tools() {
		for op, p := range tool.Prices {
			want[op] = p
		}
	}
	assert.Equal(t, want, c.Prices())
	eval, _ := c.Lookup(evaluationToolName)
	assert.Len(t, eval.Prices, 3, "a price per tier")
	for _, choice := range eval.BilledOperations() {
		assert.Contains(t, eval.Prices, choice.Operation)
	}
	kelly, _ := c.Lookup("calculate_kelly")
	assert.Empty(t, kelly.Prices, "an analysis tool is free")
	prices := c.Prices()
	prices["calculate_kelly"] = toolkit.MustParseAmount("1")
	assert.NotContains(t, c.Prices(), "calculate_kelly", "Prices returns a copy")
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

// testTool is a tool of spec that echoes nothing.
func testTool(t *testing.T, spec Spec) Tool {
	t.Helper()
	return NewTool(spec, func(context.Context, Call, struct{}) (struct{}, error) { return struct{}{}, nil },
		func(*jsonschema.Schema) {})
}
