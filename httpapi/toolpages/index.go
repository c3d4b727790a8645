package toolpages

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
)

// renderIndex is the index page: how every tool is called and priced,
// one table of tools per category (title, price, one-line description),
// then what the tools of each category share.
func renderIndex(src Source) []byte {
	var b bytes.Buffer
	tools := src.Catalog.Tools()
	categories := src.Catalog.Categories()
	b.WriteString(generatedNote)
	fmt.Fprintf(&b, "# Tool reference\n\n%d tools, one page each: what it computes, its price, its REST shortcut, "+
		"every argument with its unit and range, every field of its answer, a working call and its reference "+
		"(formulas, thresholds, conventions). The server serves these pages under `/docs/tools/`.\n\n", len(tools))
	b.WriteString("## Conventions of every tool\n\n")
	b.WriteString(strings.TrimSpace(catalog.Conventions()))
	b.WriteString("\n\n## Tools\n\n")
	for _, cat := range categories {
		fmt.Fprintf(&b, "### %s\n\n", cat.Title)
		fmt.Fprintf(&b, "See the [%s conventions](#%s).\n\n", strings.ToLower(cat.Title), anchor(cat.Title+" conventions"))
		b.WriteString("| Tool | Title | Price (USDC) | Description |\n|---|---|---|---|\n")
		for _, t := range tools {
			if t.Category == cat.Name {
				fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s |\n", code(t.Name), t.Name, cell(t.Title),
					indexPrice(toolcall.PricingOf(t, src.Price)), cell(t.Description))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("## Conventions by category\n\n")
	for _, cat := range categories {
		fmt.Fprintf(&b, "### %s conventions\n\n", cat.Title)
		if docs := strings.TrimSpace(cat.Docs); docs != "" {
			fmt.Fprintf(&b, "%s\n\n", docs)
		} else {
			b.WriteString("Those of every tool.\n\n")
		}
	}
	return append(bytes.TrimRight(b.Bytes(), "\n"), '\n')
}

// indexPrice is a tool's price in the index: one figure, one per value of
// the argument that prices it, or free.
func indexPrice(p toolcall.Pricing) string {
	if !p.Metered() {
		return "free"
	}
	if p.Argument == "" {
		return p.Price.String()
	}
	parts := make([]string, len(p.Choices))
	for i, c := range p.Choices {
		parts[i] = c.Value + " " + c.Price.String()
	}
	return strings.Join(parts, ", ")
}
