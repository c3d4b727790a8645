package toolpages

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listPrices prices operations as a price table would: the catalog's
// prices, every other operation free.
func listPrices(c *catalog.Catalog) func(string) toolkit.Amount {
	table := c.Prices()
	return func(op string) toolkit.Amount {
		if p, ok := table[op]; ok {
			return p
		}
		return toolkit.MustParseAmount("0.00")
	}
}

func render(t *testing.T, src Source) *Pages {
	t.Helper()
	p, err := Render(src)
	require.NoError(t, err)
	return p
}

// TestPagesSayWhatTheCatalogSays checks a page's facts come from the
// tool: title, aliases, category, each tier's price and billing class,
// every shortcut, the working call and the reference text.
func TestPagesSayWhatTheCatalogSays(t *testing.T) {
	c := catalog.Default()
	p := render(t, Source{Catalog: c, Price: listPrices(c)})
	eval, ok := p.Page("evaluate_performance")
	require.True(t, ok)
	page := string(eval)
	for _, want := range []string{
		"# Performance Evaluation (G-Metric)\n",
		"- **Category:** [Core](README.md#core) (see its [conventions](README.md#core-conventions))",
		"0.10 USDC when `tier` is `basic` (operation `basic_eval`)", "1.00 USDC when `tier` is `comprehensive`",
		"- **Billing class:** `metered`",
		"- **REST shortcut:** `POST /v1/eval/full` (tier `full`)",
		"| `tier` | string | no | evaluation depth, priced per tier; one of `basic`, `full`, `comprehensive`; default `basic` |",
		"| `r_multiples` | array of decimal | yes | R-multiples, oldest first; 2 to 100,000 items |",
		"\"tool_name\": \"evaluate_performance\"",
		"## Reference\n\n" + strings.TrimSpace(mustTool(t, c, "evaluate_performance").Docs),
	} {
		assert.Contains(t, page, want)
	}
	kelly, _ := p.Page("calculate_kelly")
	assert.Contains(t, string(kelly), "- **Price:** free\n- **Billing class:** `free_public_tool`")
	assert.NotContains(t, string(kelly), "REST shortcut")
	score, _ := p.Page("calculate_system_score")
	assert.Contains(t, string(score), "- **Also called:** `calculate_system_r_score`")

	_, ok = p.Page("no_such_tool")
	assert.False(t, ok)
	_, ok = p.Page("README")
	assert.False(t, ok, "the index is not a tool page")
	assert.Len(t, p.Files(), len(c.Tools())+1)
}

// TestPricesFollowThePriceTable checks the pages take prices from the
// table they are given, not from the Specs: a changed table changes them.
func TestPricesFollowThePriceTable(t *testing.T) {
	c := catalog.Default()
	p := render(t, Source{Catalog: c, Price: func(op string) toolkit.Amount {
		if op == "calculate_kelly" {
			return toolkit.MustParseAmount("0.05")
		}
		return listPrices(c)(op)
	}})
	kelly, _ := p.Page("calculate_kelly")
	assert.Contains(t, string(kelly), "- **Price:** 0.05 USDC per call (operation `calculate_kelly`)")
	assert.Contains(t, string(p.Index()), "| [`calculate_kelly`](calculate_kelly.md) | Kelly Fraction and Risk of Ruin | 0.05 |")
	assert.Contains(t, string(p.Index()), "| basic 0.10, full 0.50, comprehensive 1.00 |")
}

// TestIndexListsEveryToolByCategory checks the index: the conventions of
// every tool, a table per category in catalog order linking each tool's
// page, then each category's conventions.
func TestIndexListsEveryToolByCategory(t *testing.T) {
	c := catalog.Default()
	index := string(render(t, Source{Catalog: c, Price: listPrices(c)}).Index())
	assert.Contains(t, index, strings.TrimSpace(catalog.Conventions()))
	last := 0
	for _, cat := range c.Categories() {
		at := strings.Index(index, "\n### "+cat.Title+"\n")
		require.Positive(t, at, cat.Title)
		assert.Greater(t, at, last, "%s in catalog order", cat.Title)
		last = at
		assert.Contains(t, index, "### "+cat.Title+" conventions\n\n"+strings.TrimSpace(cat.Docs))
	}
	for _, tool := range c.Tools() {
		assert.Contains(t, index, "| [`"+tool.Name+"`]("+tool.Name+".md) | "+tool.Title+" |")
	}
}

// TestArgumentsTable checks nested members get a row each, named by path,
// with their type, whether required, and their rules.
func TestArgumentsTable(t *testing.T) {
	tool := mustTool(t, catalog.Default(), "analyze_correlations")
	rows := map[string]argument{}
	var order []string
	for _, a := range arguments(tool.InputSchema) {
		rows[a.path] = a
		order = append(order, a.path)
	}
	assert.Equal(t, []string{"symbols_data", "symbols_data[].symbol", "symbols_data[].bars", "symbols_data[].bars[].open",
		"symbols_data[].bars[].high", "symbols_data[].bars[].low", "symbols_data[].bars[].close", "symbols_data[].bars[].volume"}, order)
	assert.Equal(t, argument{path: "symbols_data[].bars[].volume", kind: "decimal", notes: "volume, in units; ≥ 0", required: true},
		rows["symbols_data[].bars[].volume"])
	assert.Equal(t, "array of object", rows["symbols_data"].kind)
}

// answer is a result type whose fields the schema lists alphabetically.
type answer struct {
	Zeta  string  `json:"zeta"`
	Alpha *pair   `json:"alpha"`
	Pairs []pair  `json:"pairs,omitempty"`
	Best  *pair   `json:"best"`
	Ratio *string `json:"ratio"`
}

type pair struct {
	B string `json:"b"`
	A int    `json:"a"`
}

// TestResultFields checks the result table: the Go type's field order,
// nullable and optional members said so, decimals named, and a component
// listed once, then referred to.
func TestResultFields(t *testing.T) {
	var root jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","required":["alpha","best","ratio","zeta"],"properties":{
		"alpha":{"anyOf":[{"$ref":"#/$defs/Pair"},{"type":"null"}]},
		"best":{"anyOf":[{"$ref":"#/$defs/Pair"},{"type":"null"}]},
		"pairs":{"type":"array","items":{"$ref":"#/$defs/Pair"}},
		"ratio":{"anyOf":[{"$ref":"#/$defs/Decimal"},{"type":"null"}],"description":"null without losses"},
		"zeta":{"type":"string","enum":["up","down"]}},
		"$defs":{"Decimal":{"type":"string","pattern":"^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$"},
		"Pair":{"type":"object","required":["a","b"],"properties":{"a":{"type":"integer"},"b":{"type":"string"}}}}}`), &root))
	tables := resultTables(&root, []reflect.Type{reflect.TypeFor[answer]()})
	require.Len(t, tables, 1)
	assert.Equal(t, []field{
		{path: "zeta", kind: "string", notes: "one of `up`, `down`"},
		{path: "alpha", kind: "object or null"},
		{path: "alpha.b", kind: "string"},
		{path: "alpha.a", kind: "integer"},
		{path: "pairs", kind: "array of object", notes: "omitted when empty; fields as in `alpha`"},
		{path: "best", kind: "object or null", notes: "fields as in `alpha`"},
		{path: "ratio", kind: "decimal or null", notes: "null without losses"},
	}, tables[0].fields)

	unordered := resultTables(&root, nil)[0].fields
	assert.Equal(t, "alpha", unordered[0].path, "without a Go type, alphabetical")
}

// TestRenderRefusesAnIncompleteSource checks Render needs a catalog and a
// price table.
func TestRenderRefusesAnIncompleteSource(t *testing.T) {
	_, err := Render(Source{Catalog: catalog.Default()})
	assert.Error(t, err)
}

// TestHTML checks a page becomes a standalone document with its tables
// and heading anchors, its title escaped.
func TestHTML(t *testing.T) {
	h, err := HTML("A & B", []byte("# A & B\n\n## Core conventions\n\n| x | y |\n|---|---|\n| 1 | 2 |\n"))
	require.NoError(t, err)
	page := string(h)
	assert.Contains(t, page, "<title>A &amp; B · Agent Finance Toolkit</title>")
	assert.Contains(t, page, `<h2 id="core-conventions">Core conventions</h2>`)
	assert.Contains(t, page, "<td>1</td>")
	assert.Equal(t, "core-conventions", anchor("Core conventions"), "the links the pages write match")
}

func mustTool(t *testing.T, c *catalog.Catalog, name string) catalog.Tool {
	t.Helper()
	tool, ok := c.Lookup(name)
	require.True(t, ok, name)
	return tool
}
