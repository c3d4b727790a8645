package catalog

import (
	"embed"
	"fmt"
	"slices"
)

// The reference texts of the built-in tools live beside them, embedded:
// docs/tools/<tool>.md is a tool's Docs, docs/categories/<category>.md
// what the tools of a category share, docs/conventions.md the rules of
// every tool. The reference pages (docs/tools/ of the repository, served
// under /docs/tools/) are rendered from them and the rest of the catalog:
// go generate ./finance/catalog writes the pages again after an edit, and
// a test fails while they are stale.
//
//go:generate go test ../../httpapi -run TestToolPages -update

//go:embed docs
var referenceTexts embed.FS

// referenceText returns the embedded file at path; a built-in tool or
// category without its text is a programming error.
func referenceText(path string) string {
	b, err := referenceTexts.ReadFile(path)
	if err != nil {
		panic(fmt.Sprintf("catalog: %v", err))
	}
	return string(b)
}

// toolDocs is the reference text of the built-in tool name.
func toolDocs(name string) string { return referenceText("docs/tools/" + name + ".md") }

// Conventions returns the reference text of the rules every tool follows
// (numbers in and out, units, optional arguments, errors and limits): the
// introduction of the tool reference pages.
func Conventions() string { return referenceText("docs/conventions.md") }

// Category describes a category of tools for the reference pages.
type Category struct {
	Name  string // as in Tool.Category, e.g. "performance"
	Title string // heading, e.g. "Performance"
	// Docs is what the category's tools share, in markdown: conventions,
	// the Go functions behind them, their speed.
	Docs string
}

// builtinCategories are the categories of the built-in tools, in catalog
// order.
var builtinCategories = []Category{
	{Name: "core", Title: "Core"},
	{Name: "compound", Title: "Compound"},
	{Name: performanceCategory, Title: "Performance"},
	{Name: marketCategory, Title: "Market"},
	{Name: categoryDerivatives, Title: "Derivatives"},
	{Name: categoryCompliance, Title: "Compliance"},
}

// DescribeCategory records the title and reference text of a category.
// A category is described once.
func (c *Catalog) DescribeCategory(cat Category) error {
	if cat.Name == "" || cat.Title == "" {
		return fmt.Errorf("catalog: a category needs a name and a title")
	}
	if _, dup := c.categories[cat.Name]; dup {
		return fmt.Errorf("catalog: category %q is described twice", cat.Name)
	}
	c.categories[cat.Name] = cat
	return nil
}

// Categories returns the categories of the registered tools, in the order
// their first tools were registered. A category never described has its
// name as its title and no Docs.
func (c *Catalog) Categories() []Category {
	var out []Category
	for _, t := range c.tools {
		if slices.ContainsFunc(out, func(cat Category) bool { return cat.Name == t.Category }) {
			continue
		}
		cat, ok := c.categories[t.Category]
		if !ok {
			cat = Category{Name: t.Category, Title: t.Category}
		}
		out = append(out, cat)
	}
	return out
}
