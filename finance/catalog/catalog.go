// Package catalog turns the finance functions into tools. A tool is
// defined in one place, its Spec: name, human title, description,
// category, the operation it is billed as and that operation's list price
// (Prices), its published aliases, its REST shortcuts, its reference text
// (Docs, a markdown file embedded beside the family that defines it) and
// a working example. NewTool adds the JSON-schema input generated from a
// Go type and the Run function taking raw JSON arguments.
//
// The catalog is the one source for GET /v1/tools/list, POST
// /v1/tools/call, the REST shortcuts, the MCP server, the price table
// (Catalog.Prices: the platform gives it to billing) and the tool
// reference pages (docs/tools/, served under /docs/tools/): a tool appears
// on every surface by being registered here.
//
// # Calling a tool from Go
//
// Tool.Run is the pure, unmetered form of a call: it validates and decodes
// the arguments and computes, without resolving aliases, authorizing,
// bounding the time, recovering from a panic or charging. Every metered
// call, from any surface or from a Go program, goes through the one call
// path of billing/toolcall (platform.Services.Calls).
package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sort"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/google/jsonschema-go/jsonschema"
)

// Call is one invocation of a tool.
type Call struct {
	// AgentID identifies the calling agent (empty when called directly).
	AgentID string
	// Limits are the calling agent's trading limits (zero value: none).
	Limits finance.AgentLimits
	// Arguments is the JSON object of tool arguments; empty means {}.
	Arguments json.RawMessage
	// Undo, when set, receives the undo of every write the tool makes, so
	// the caller can take the writes back when it discards the answer
	// (see Compensation). Nil for calls whose writes always stand.
	Undo *Compensation
}

// Tool is one callable finance function: its Spec, plus the input schema
// and the functions NewTool builds.
type Tool struct {
	Name        string // unique, snake_case, e.g. "calculate_position_size"
	Title       string // short human title (MCP "title"), e.g. "Position Size (Fixed Fractional)"
	Description string // one or two sentences for humans and LLMs
	Category    string // family, e.g. "sizing", "performance", "market"
	Operation   string // price-table key (by convention the tool's name unless it shares a published key); unpriced keys are free
	// Prices are the list prices in USD of the operations the tool is
	// billed as (operation -> price): one for most tools, one per tier for
	// evaluate_performance. An operation without a price is free. The
	// catalog's price table (Catalog.Prices) is the union of every tool's.
	Prices map[string]toolkit.Amount
	// Aliases are other published names of the tool, resolved by
	// Catalog.Resolve (the published service used both spellings).
	Aliases []string
	// Shortcuts are the tool's REST shortcuts: POST paths whose body is
	// the tool's arguments and whose answer is the bare result.
	Shortcuts []Shortcut
	// Docs is the tool's reference text in markdown: conventions,
	// formulas, thresholds and fields in detail. The reference pages
	// (docs/tools/<name>.md) show it after what the catalog says itself.
	Docs        string
	InputSchema *jsonschema.Schema // JSON Schema of Arguments (type object)
	// Results are the Go types of the values a successful call returns,
	// for typed documents (OpenAPI): one type, or several when the answer
	// is one of them (a bar tool answers its analysis or
	// *market.InsufficientBars). Empty: the result is not described.
	Results []reflect.Type
	// OperationFor, when set, picks the billed operation from the
	// arguments (evaluate_performance bills by tier); Operation is then the
	// operation of the default arguments, shown in listings.
	OperationFor func(args json.RawMessage) string
	// Effect is what a call does besides answering (zero value: ReadOnly).
	Effect Effect
	// Example, when set, is one complete arguments object the tool
	// accepts, for a tool whose required members' examples alone make no
	// valid call (a requirement stated in words, such as "give
	// equity_values or r_multiples"). See ExampleArguments.
	Example map[string]any
	// Prepare validates and decodes the call's arguments (bad arguments are
	// toolkit.Invalid naming the field and the rule) and returns the
	// computation, so callers can reject bad input before metering.
	Prepare func(call Call) (Prepared, error)
}

// Shortcut is a REST shortcut of a tool: POST Path takes the tool's
// arguments as its body and answers the bare result, metered like any
// call of the tool.
type Shortcut struct {
	Path        string // e.g. "/v1/sizing/calculate"
	OperationID string // the OpenAPI operationId, e.g. "calculatePositionSize"
	Summary     string // one line for the OpenAPI document and llms.txt
	// Tier, when set, is the evaluate_performance tier the path fixes
	// (see WithTier): a body naming another tier is refused.
	Tier string
}

// Prepared is a validated tool call, ready to compute. Errors are
// *toolkit.Error values.
type Prepared func(ctx context.Context) (any, error)

// Run validates the arguments and computes the result: the pure,
// unmetered form of a call (no alias, authorization, deadline, recovery or
// charge; billing/toolcall adds them for every metered call).
func (t Tool) Run(ctx context.Context, call Call) (any, error) {
	run, err := t.Prepare(call)
	if err != nil {
		return nil, err
	}
	return run(ctx)
}

// BilledOperation returns the operation a call with args is billed as.
func (t Tool) BilledOperation(args json.RawMessage) string {
	if t.OperationFor != nil {
		return t.OperationFor(args)
	}
	return t.Operation
}

// Chargeable is implemented by results that report whether the call may be
// billed. A result whose Chargeable returns false (such as an
// "insufficient_bars" answer) is never charged, even for a priced tool.
type Chargeable interface {
	Chargeable() bool
}

// IsChargeable reports whether a successful result may be billed.
func IsChargeable(result any) bool {
	if c, ok := result.(Chargeable); ok {
		return c.Chargeable()
	}
	return true
}

// Catalog is an ordered set of tools with unique names and aliases. It
// is safe for concurrent reads once built; Register must not race with
// reads.
type Catalog struct {
	tools      []Tool
	byName     map[string]int
	byAlias    map[string]string // alias -> tool name
	shortcuts  map[string]string // shortcut path -> tool name
	prices     map[string]toolkit.Amount
	priceOwner map[string]string // operation -> the tool that priced it first
	categories map[string]Category
}

// New returns a catalog holding tools, failing on a duplicate or
// malformed tool.
func New(tools ...Tool) (*Catalog, error) {
	c := &Catalog{byName: map[string]int{}, byAlias: map[string]string{}, shortcuts: map[string]string{},
		prices: map[string]toolkit.Amount{}, priceOwner: map[string]string{}, categories: map[string]Category{}}
	for _, t := range tools {
		if err := c.Register(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Register adds t. Its name must be unique, and no other tool's alias; its
// aliases must name no other tool or alias; its shortcut paths must be
// unused; its prices must be non-negative, whole micro-USD, for
// operations it is billed as, and equal to any price another tool gives
// the same operation; its schema must be an object.
func (c *Catalog) Register(t Tool) error {
	if err := c.check(t); err != nil {
		return fmt.Errorf("catalog: tool %q: %w", t.Name, err)
	}
	c.byName[t.Name] = len(c.tools)
	c.tools = append(c.tools, t)
	for _, a := range t.Aliases {
		c.byAlias[a] = t.Name
	}
	for _, s := range t.Shortcuts {
		c.shortcuts[s.Path] = t.Name
	}
	for op, price := range t.Prices {
		if _, ok := c.prices[op]; !ok {
			c.prices[op], c.priceOwner[op] = price, t.Name
		}
	}
	return nil
}

// Lookup returns the tool called name.
func (c *Catalog) Lookup(name string) (Tool, bool) {
	i, ok := c.byName[name]
	if !ok {
		return Tool{}, false
	}
	return c.tools[i], true
}

// Resolve returns the tool called name, or the tool one of whose Aliases
// is name.
func (c *Catalog) Resolve(name string) (Tool, bool) {
	if t, ok := c.Lookup(name); ok {
		return t, true
	}
	return c.Lookup(c.byAlias[name])
}

// Tools returns every tool in registration order. The slice is a copy.
func (c *Catalog) Tools() []Tool {
	return append([]Tool(nil), c.tools...)
}

// Names returns the tool names in alphabetical order.
func (c *Catalog) Names() []string {
	names := make([]string, 0, len(c.tools))
	for _, t := range c.tools {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// Prices returns the price table of the catalog: every operation a tool
// prices, with its list price in USD (a new map). Operations not in it are
// free. The platform gives it to billing (billing.Config.Prices), so a
// priced tool is one edit: its Spec.
func (c *Catalog) Prices() map[string]toolkit.Amount {
	return maps.Clone(c.prices)
}

// toolSpec returns the Spec of a built-in tool billed under its own name,
// with its reference text.
func toolSpec(category, name, title, description string) Spec {
	return Spec{Name: name, Title: title, Description: description, Category: category, Operation: name, Docs: toolDocs(name)}
}

// families lists the constructors of the built-in tool families, in the
// order they appear in the catalog.
var families = []func() []Tool{
	coreTools,
	performanceGrowthTools,
	performanceStatisticsTools,
	marketIndicatorTools,
	marketPatternTools,
	derivativesTools,
}

// Default returns a new catalog with every built-in tool registered and
// their categories described.
func Default() *Catalog {
	c, err := New()
	if err != nil {
		panic(err)
	}
	for _, cat := range builtinCategories {
		cat.Docs = referenceText("docs/categories/" + cat.Name + ".md")
		if err := c.DescribeCategory(cat); err != nil {
			panic(err)
		}
	}
	for _, family := range families {
		for _, t := range family() {
			if err := c.Register(t); err != nil {
				panic(err) // a programming error in a built-in family
			}
		}
	}
	return c
}
