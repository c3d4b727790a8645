package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/internal/httpbody"
	"github.com/agentfinance/toolkit/internal/strictjson"
	"github.com/google/jsonschema-go/jsonschema"
)

// smallBodyBytes caps every request body except those carrying tool
// arguments (Options.MaxBodyBytes).
const smallBodyBytes = 64 << 10

// bodyLimits bound every ordinary request body (registration, limits,
// modes, deposits, support requests) whatever its schema, while it is
// scanned. MaxStringBytes fits the longest text of any schema (a 5,000
// character description) written as raw UTF-8, up to 20,000 bytes;
// MaxKeys bounds free-form objects (a report's details) as it bounds tool
// arguments.
var bodyLimits = strictjson.Limits{MaxDepth: 8, MaxValues: 10_000, MaxStringBytes: 32 << 10, MaxKeys: catalog.MaxObjectKeys}

// requestType is the body type of a route: its prototype (for the OpenAPI
// document) and how to build its decoder.
type requestType struct {
	prototype  any
	newDecoder func(limits strictjson.Limits) (any, error)
}

// constrainer is implemented by request types that add what Go types
// cannot say to their generated schema: lengths, item counts, enums and
// bounds. The same schema is published and enforced while decoding.
type constrainer interface {
	constrain(s *jsonschema.Schema)
}

// argumentsCarrier is implemented by request types that carry a tool's
// arguments: those members are scanned within the limits only, their
// values' rules (strings, numbers, keys sent twice) left to the tool's
// own schema, so an error names the argument as it does on every surface
// ("equity", not "arguments.equity") and lists it with the others.
type argumentsCarrier interface {
	argumentMembers() []string
}

// bodyOf describes the request body type T.
func bodyOf[T any]() *requestType {
	return &requestType{
		prototype: *new(T),
		newDecoder: func(limits strictjson.Limits) (any, error) {
			s, err := requestSchemaOf(*new(T))
			if err != nil {
				return nil, err
			}
			opts := strictjson.Options{Limits: limits, Document: "the request body"}
			if c, ok := any(*new(T)).(argumentsCarrier); ok {
				opts.PermissiveMembers = c.argumentMembers()
			}
			return strictjson.NewDecoder[T](s, opts)
		},
	}
}

// inputTypeSchemas maps the API's special Go types to their JSON schemas
// in request bodies.
func inputTypeSchemas() map[reflect.Type]*jsonschema.Schema {
	decimal := &jsonschema.Schema{Type: "string", Pattern: toolkit.DecimalPattern, Description: "decimal number as a string",
		Examples: []any{"25.00"}}
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[toolkit.Amount]():  decimal,
		reflect.TypeFor[time.Time]():       {Type: "string", Format: "date-time"},
		reflect.TypeFor[json.RawMessage](): {Type: "object", Description: "JSON object"},
	}
}

// schemaFor returns the JSON schema of a request body type.
func schemaFor(v any) (*jsonschema.Schema, error) {
	t := reflect.TypeOf(v)
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: inputTypeSchemas()})
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	return s, nil
}

// requestSchemaOf is the schema of a request body type with its
// constraints.
func requestSchemaOf(prototype any) (*jsonschema.Schema, error) {
	s, err := schemaFor(prototype)
	if err != nil {
		return nil, err
	}
	if c, ok := prototype.(constrainer); ok {
		c.constrain(s)
	}
	return s, nil
}

// compileBodies builds the decoder of every route's body type.
func (a *API) compileBodies() error {
	a.bodies = map[reflect.Type]any{}
	for _, rt := range a.routes {
		if rt.request == nil {
			continue
		}
		limits := bodyLimits
		if rt.toolBody {
			limits = catalog.ArgumentLimits()
		}
		d, err := rt.request.newDecoder(limits)
		if err != nil {
			return err
		}
		a.bodies[reflect.TypeOf(rt.request.prototype)] = d
	}
	return nil
}

// decodeBody reads the (size-capped) request body and decodes it into a T
// through the route's decoder: limits bind while scanning, keys match
// exactly and appear once, and errors name the field and the rule.
func decodeBody[T any](a *API, r *http.Request) (T, error) {
	var zero T
	d, ok := a.bodies[reflect.TypeFor[T]()].(*strictjson.Decoder[T])
	if !ok {
		return zero, toolkit.Errorf(toolkit.Internal, "httpapi: no decoder for %s", reflect.TypeFor[T]())
	}
	body, err := httpbody.Read(r)
	if err != nil {
		return zero, err
	}
	return d.Decode(body)
}
