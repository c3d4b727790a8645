package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/internal/strictjson"
	"github.com/google/jsonschema-go/jsonschema"
)

// Spec is the one definition of a tool besides its computation: what
// every surface shows of it, what it costs and where REST serves it.
// NewTool makes it a Tool; the fields mean what Tool's fields of the same
// names mean.
type Spec struct {
	Name        string
	Title       string
	Description string
	Category    string
	Operation   string // price-table key; empty = free
	// Prices are the list prices of the operations the tool is billed as;
	// nil: free.
	Prices    map[string]toolkit.Amount
	Aliases   []string
	Shortcuts []Shortcut
	// Docs is the reference text (markdown), embedded beside the family
	// that defines the tool.
	Docs string
	// Example is one working arguments object (Tool.Example), for a tool
	// whose conditional requirements the schema's required list cannot
	// say; nil: ExampleArguments builds it from the argument examples.
	Example map[string]any
}

// WithAliases returns s with the other published names of the tool.
func (s Spec) WithAliases(aliases ...string) Spec {
	s.Aliases = aliases
	return s
}

// priced returns s billed at the list price usd for its Operation.
func (s Spec) priced(usd string) Spec {
	s.Prices = listPrice(s.Operation, usd)
	return s
}

// WithExample returns s with its working arguments object.
func (s Spec) WithExample(arguments map[string]any) Spec {
	s.Example = arguments
	return s
}

// NewTool builds a Tool whose arguments decode into In and whose result
// is an Out (recorded in Tool.Results for typed documents).
//
// The input schema is generated from In: JSON field names become
// properties, fields without omitempty are required, Float/Floats/
// toolkit.Amount accept decimal strings or numbers, and unknown properties
// are rejected. tighten then adds what Go types cannot say (enums,
// minItems, minimum, maximum, defaults). Prepare validates the arguments
// against that schema in one scan (limits bind while scanning; errors name
// the field and the rule; null for an optional argument means absent, as
// OpenAI strict function calling makes a model send it) and decodes them
// into In; the prepared call then
// runs run. Top-level properties whose type implements
// strictjson.PrefixDecoder are validated and decoded by their own decoder.
func NewTool[In, Out any](spec Spec, run func(ctx context.Context, call Call, in In) (Out, error), tighten func(s *jsonschema.Schema)) Tool {
	schema, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		panic(fmt.Sprintf("catalog: schema for %s: %v", spec.Name, err))
	}
	dropNullable(schema)
	if tighten != nil {
		tighten(schema)
	}
	capResults(spec.Name, schema)
	declareLimits(schema)
	shareDecimals(schema)
	dec, err := strictjson.NewDecoder[In](schema, strictjson.Options{Limits: ArgumentLimits(), Noun: "argument", Document: "arguments", NullIsAbsent: true})
	if err != nil {
		panic(fmt.Sprintf("catalog: argument decoder for %s: %v", spec.Name, err))
	}
	return Tool{
		Name:        spec.Name,
		Title:       spec.Title,
		Description: spec.Description,
		Category:    spec.Category,
		Operation:   spec.Operation,
		Prices:      spec.Prices,
		Aliases:     spec.Aliases,
		Shortcuts:   spec.Shortcuts,
		Docs:        spec.Docs,
		Example:     spec.Example,
		InputSchema: schema,
		Results:     resultTypes[Out](),
		Prepare: func(call Call) (Prepared, error) {
			in, err := dec.Decode(objectArguments(call.Arguments))
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (any, error) { return run(ctx, call, in) }, nil
		},
	}
}

// resultTypes is Tool.Results of a tool returning Out: none when Out is an
// interface (the result is not described).
func resultTypes[Out any]() []reflect.Type {
	t := reflect.TypeFor[Out]()
	if t.Kind() == reflect.Interface {
		return nil
	}
	return []reflect.Type{t}
}

// ArgumentLimits bound every tool's arguments whatever the schema says:
// nesting, the number of values (100,000 OHLCV bars hold 600,000), the
// size of one string and the members of one object (MaxObjectKeys).
func ArgumentLimits() strictjson.Limits {
	return strictjson.Limits{MaxDepth: 16, MaxValues: 1_000_000, MaxStringBytes: 64 << 10, MaxKeys: MaxObjectKeys}
}

// MaxObjectKeys bounds the members of any object in a tool's arguments,
// free-form ones (a memory's metadata) included: no tool takes more than a
// few dozen arguments.
const MaxObjectKeys = 256

// objectArguments reads empty or null arguments as {}; anything but an
// object is refused.
func objectArguments(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return []byte("{}")
	}
	return raw
}

// dropNullable turns the generated ["null", T] types of slices, maps and
// pointers into plain T: a present value must be a real value, and an
// optional one is simply omitted.
func dropNullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 && s.Types[0] == "null" {
		s.Types = s.Types[1:]
		if len(s.Types) == 1 {
			s.Type, s.Types = s.Types[0], nil
		}
	}
	for _, p := range s.Properties {
		dropNullable(p)
	}
	dropNullable(s.Items)
	dropNullable(s.AdditionalProperties)
}
