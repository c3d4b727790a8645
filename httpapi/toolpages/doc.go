// Package toolpages renders the tool reference pages from the tool
// catalog: an index (README.md) of every tool by category, with its title,
// price and one-line description, the conventions every tool follows and
// those of each category; and one page per tool (<tool>.md) with its
// title, name, aliases, category, price and billing class (billing/
// toolcall's rule), REST shortcuts, a table of its arguments from its
// input schema (type, required, description with unit, range and
// default), the fields of its answer from its result schema (in the field
// order of its Go result type), a working call (catalog.ExampleArguments)
// and its reference text (catalog.Tool.Docs).
//
// httpapi serves the pages under /docs/tools/ (markdown, or HTML for a
// browser), rendered from the catalog it serves, so they cannot go stale;
// the repository's docs/tools/ holds the same bytes, written by
// go generate ./finance/catalog and checked by a test.
package toolpages
