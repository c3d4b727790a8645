// Package catalog turns the finance functions into tools: each Tool has a
// name, a description, a category, the operation it is billed as (the key in
// the price table; empty means free), a JSON-schema input, and a Run
// function taking raw JSON arguments.
//
// The catalog is the one source for GET /v1/tools/list, POST /v1/tools/call,
// the REST shortcuts and the MCP server: a tool appears on every surface by
// being registered here.
package catalog

import (
	"context"
	"encoding/json"
	"fmt"
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

// Tool is one callable finance function.
type Tool struct {
	Name        string             // unique, snake_case, e.g. "calculate_position_size"
	Title       string             // short human title (MCP "title"); Register takes the title table's when empty
	Description string             // one or two sentences for humans and LLMs
	Category    string             // family, e.g. "sizing", "performance", "market"
	Operation   string             // price-table key (by convention the tool's name unless it shares a published key); unpriced keys are free
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

// Prepared is a validated tool call, ready to compute. Errors are
// *toolkit.Error values.
type Prepared func(ctx context.Context) (any, error)

// Run validates the arguments and computes the result.
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

// Catalog is an ordered set of tools with unique names. It is safe for
// concurrent reads once built; Register must not race with reads.
type Catalog struct {
	tools  []Tool
	byName map[string]int
}

// New returns a catalog holding tools, failing on a duplicate or
// malformed tool.
func New(tools ...Tool) (*Catalog, error) {
	c := &Catalog{byName: make(map[string]int)}
	for _, t := range tools {
		if err := c.Register(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Register adds t. Names must be unique and the schema must be an object.
// A tool without a Title takes the one the title table gives its name.
func (c *Catalog) Register(t Tool) error {
	switch {
	case t.Name == "":
		return fmt.Errorf("catalog: tool without a name")
	case t.Prepare == nil:
		return fmt.Errorf("catalog: tool %q has no Prepare", t.Name)
	case t.InputSchema == nil || t.InputSchema.Type != "object":
		return fmt.Errorf("catalog: tool %q needs an object input schema", t.Name)
	}
	if _, dup := c.byName[t.Name]; dup {
		return fmt.Errorf("catalog: duplicate tool %q", t.Name)
	}
	if t.Title == "" {
		t.Title = titles[t.Name]
	}
	c.byName[t.Name] = len(c.tools)
	c.tools = append(c.tools, t)
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

// Call runs the named tool. An unknown name is toolkit.NotFound.
func (c *Catalog) Call(ctx context.Context, name string, call Call) (any, error) {
	t, ok := c.Lookup(name)
	if !ok {
		return nil, toolkit.Errorf(toolkit.NotFound, "Unknown tool: '%s'", name)
	}
	return t.Run(ctx, call)
}

// toolSpec returns the Spec of a tool billed under its own name.
func toolSpec(category, name, description string) Spec {
	return Spec{Name: name, Description: description, Category: category, Operation: name}
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

// Default returns a new catalog with every built-in tool registered.
func Default() *Catalog {
	c, err := New()
	if err != nil {
		panic(err)
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
