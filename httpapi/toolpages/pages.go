package toolpages

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
)

// IndexFile is the file name of the index page.
const IndexFile = "README.md"

// Source is what the pages are rendered from.
type Source struct {
	// Catalog holds the tools and their categories.
	Catalog *catalog.Catalog
	// Price is the list price of an operation (billing.Service.Price with
	// presale false).
	Price func(operation string) toolkit.Amount
	// Results returns the self-contained schema of a tool's result
	// (openapi.Document.ResultSchema). Nil, or an error: the page lists no
	// result fields.
	Results func(tool string) (*jsonschema.Schema, error)
}

// Pages are the rendered reference pages, in markdown.
type Pages struct {
	files map[string][]byte // file name -> markdown
	names []string          // tool names, catalog order
}

// Render renders the index and one page per tool of src.Catalog.
func Render(src Source) (*Pages, error) {
	if src.Catalog == nil || src.Price == nil {
		return nil, fmt.Errorf("toolpages: Source.Catalog and Source.Price are required")
	}
	p := &Pages{files: map[string][]byte{}}
	for _, t := range src.Catalog.Tools() {
		page, err := renderPage(src, t)
		if err != nil {
			return nil, err
		}
		p.files[t.Name+".md"] = page
		p.names = append(p.names, t.Name)
	}
	p.files[IndexFile] = renderIndex(src)
	return p, nil
}

// Index returns the index page.
func (p *Pages) Index() []byte { return p.files[IndexFile] }

// Page returns the page of the tool called name.
func (p *Pages) Page(name string) ([]byte, bool) {
	b, ok := p.files[name+".md"]
	return b, ok && name+".md" != IndexFile
}

// Files returns every page by file name (README.md, <tool>.md): what the
// repository's docs/tools/ holds. The map is a copy; the pages are shared.
func (p *Pages) Files() map[string][]byte {
	out := make(map[string][]byte, len(p.files))
	for name, b := range p.files {
		out[name] = b
	}
	return out
}

// generatedNote heads every page: where it comes from and how to change it.
const generatedNote = "<!-- Generated from the tool catalog: do not edit. Change the tool's catalog.Spec or its reference " +
	"text (finance/catalog/docs, agents/workspace/docs), then run go generate ./finance/catalog. -->\n\n"

// renderPage is the page of tool t.
func renderPage(src Source, t catalog.Tool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(generatedNote)
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", cmp.Or(t.Title, t.Name), t.Description)
	category := categoryTitle(src.Catalog, t.Category)
	pricing := toolcall.PricingOf(t, src.Price)
	fmt.Fprintf(&b, "- **Tool name:** %s\n", code(t.Name))
	if len(t.Aliases) > 0 {
		fmt.Fprintf(&b, "- **Also called:** %s\n", codeList(t.Aliases))
	}
	fmt.Fprintf(&b, "- **Category:** [%s](%s#%s) (see its [conventions](%s#%s))\n",
		category, IndexFile, anchor(category), IndexFile, anchor(category+" conventions"))
	fmt.Fprintf(&b, "- **Price:** %s\n", priceText(pricing))
	fmt.Fprintf(&b, "- **Billing class:** %s\n", code(pricing.BillingClass()))
	for _, s := range t.Shortcuts {
		fmt.Fprintf(&b, "- **REST shortcut:** %s%s\n", code("POST "+s.Path), tierText(s))
	}
	fmt.Fprintf(&b, "- **Effect:** %s\n\n", effectText(t.Effect))
	writeArguments(&b, t)
	if err := writeResults(&b, src, t); err != nil {
		return nil, err
	}
	if err := writeExample(&b, t); err != nil {
		return nil, err
	}
	if docs := strings.TrimSpace(t.Docs); docs != "" {
		fmt.Fprintf(&b, "## Reference\n\n%s\n", docs)
	}
	return b.Bytes(), nil
}

// writeArguments writes the arguments table of t.
func writeArguments(b *bytes.Buffer, t catalog.Tool) {
	b.WriteString("## Arguments\n\n")
	args := arguments(t.InputSchema)
	if len(args) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	if t.InputSchema.Description != "" {
		fmt.Fprintf(b, "%s\n\n", t.InputSchema.Description)
	}
	b.WriteString("| Argument | Type | Required | Description |\n|---|---|---|---|\n")
	for _, a := range args {
		required := "no"
		if a.required {
			required = "yes"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", code(a.path), a.kind, required, cell(a.notes))
	}
	b.WriteString("\n")
}

// writeResults writes the result tables of t.
func writeResults(b *bytes.Buffer, src Source, t catalog.Tool) error {
	b.WriteString("## Result\n\n")
	var root *jsonschema.Schema
	if src.Results != nil {
		var err error
		if root, err = src.Results(t.Name); err != nil {
			return fmt.Errorf("toolpages: result of %s: %w", t.Name, err)
		}
	}
	tables := resultTables(root, t.Results)
	if len(tables) == 0 {
		b.WriteString("A JSON object; see the reference below.\n\n")
		return nil
	}
	if len(tables) > 1 {
		b.WriteString("One of these answers:\n\n")
	}
	for _, table := range tables {
		if table.title != "" {
			fmt.Fprintf(b, "### %s\n\n", table.title)
		}
		writeFields(b, table.fields)
	}
	return nil
}

// writeFields writes a result table, without a notes column when no
// field has notes.
func writeFields(b *bytes.Buffer, fields []field) {
	notes := slices.ContainsFunc(fields, func(f field) bool { return f.notes != "" })
	if notes {
		b.WriteString("| Field | Type | Notes |\n|---|---|---|\n")
	} else {
		b.WriteString("| Field | Type |\n|---|---|\n")
	}
	for _, f := range fields {
		if notes {
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(f.path), f.kind, cell(f.notes))
		} else {
			fmt.Fprintf(b, "| %s | %s |\n", code(f.path), f.kind)
		}
	}
	b.WriteString("\n")
}

// writeExample writes a working call of t: the body of POST
// /v1/tools/call.
func writeExample(b *bytes.Buffer, t catalog.Tool) error {
	args, err := catalog.ExampleArguments(t)
	if err != nil {
		return fmt.Errorf("toolpages: example of %s: %w", t.Name, err)
	}
	body, err := json.MarshalIndent(struct {
		ToolName  string         `json:"tool_name"`
		Arguments map[string]any `json:"arguments"`
	}{t.Name, args}, "", "  ")
	if err != nil {
		return fmt.Errorf("toolpages: example of %s: %w", t.Name, err)
	}
	fmt.Fprintf(b, "## Example\n\nA working call, the body of `POST /v1/tools/call`:\n\n```json\n%s\n```\n\n", body)
	return nil
}

// priceText states what a call costs at list price.
func priceText(p toolcall.Pricing) string {
	if !p.Metered() {
		return "free"
	}
	if p.Argument == "" {
		return fmt.Sprintf("%s USDC per call (operation %s)", p.Price, code(p.Operation))
	}
	parts := make([]string, len(p.Choices))
	for i, c := range p.Choices {
		parts[i] = fmt.Sprintf("%s USDC when %s is %s (operation %s)", c.Price, code(c.Argument), code(c.Value), code(c.Operation))
	}
	return "per call, " + strings.Join(parts, "; ")
}

// tierText says which tier a shortcut's path fixes.
func tierText(s catalog.Shortcut) string {
	if s.Tier == "" {
		return ""
	}
	return " (tier " + code(s.Tier) + ")"
}

// effectText says what a call does besides answering.
func effectText(e catalog.Effect) string {
	if e == catalog.Appends {
		return "appends a record to the caller's data (repeating the call adds another)"
	}
	return "read-only: computes, or reads the caller's data, and changes nothing"
}

// categoryTitle is the title of the category name in c.
func categoryTitle(c *catalog.Catalog, name string) string {
	for _, cat := range c.Categories() {
		if cat.Name == name {
			return cat.Title
		}
	}
	return name
}

// cell makes text fit one markdown table cell.
func cell(text string) string {
	text = strings.ReplaceAll(text, "|", `\|`)
	return strings.Join(strings.Fields(text), " ")
}

// codeList lists names as inline code.
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}

// anchor is the fragment a heading gets (GitHub's and the served
// pages' rule): lower case, spaces to hyphens, other punctuation dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}
