package workspace

import (
	"embed"
	"fmt"

	"github.com/agentfinance/toolkit/finance/catalog"
)

// referenceTexts are the workspace tools' reference texts
// (docs/tools/<tool>.md, each tool's catalog.Spec.Docs) and those of their
// categories (docs/categories/<category>.md).
//
//go:embed docs
var referenceTexts embed.FS

// referenceText returns the embedded file at path; a tool or category
// without its text is a programming error.
func referenceText(path string) string {
	b, err := referenceTexts.ReadFile(path)
	if err != nil {
		panic(fmt.Sprintf("workspace: %v", err))
	}
	return string(b)
}

// toolDocs is the reference text of the workspace tool name.
func toolDocs(name string) string { return referenceText("docs/tools/" + name + ".md") }

// Categories describes the categories of the workspace tools (memory and
// journal) for the tool reference pages: register them next to Tools
// (catalog.Catalog.DescribeCategory).
func Categories() []catalog.Category {
	return []catalog.Category{
		{Name: categoryMemory, Title: "Memory", Docs: referenceText("docs/categories/" + categoryMemory + ".md")},
		{Name: categoryJournal, Title: "Journal", Docs: referenceText("docs/categories/" + categoryJournal + ".md")},
	}
}
