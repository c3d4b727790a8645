package openapi

import (
	"reflect"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
)

// Spec is what the document describes: the API's operations, its tools
// and its error bodies.
type Spec struct {
	// APIVersion is the contract's version (info.version).
	APIVersion string
	// Operations are the endpoints, in route-table order.
	Operations []Operation
	// Tools are the catalog's tools: their arguments and results become
	// components, and the tool operations reference them.
	Tools []catalog.Tool
	// Status maps an error kind to its HTTP status (the one table of the
	// HTTP layer).
	Status func(toolkit.Kind) int
	// ErrorBody is the Go type of every error body, and
	// InsufficientCreditsBody that of a 402.
	ErrorBody, InsufficientCreditsBody reflect.Type
}

// Auth is who may call an operation.
type Auth int

// The authentication levels.
const (
	AuthPublic Auth = iota // no key
	AuthAgent              // X-API-Key (or Bearer) of an active agent
	AuthAdmin              // X-Admin-Key
	AuthOwner              // X-Owner-Key of an owner (never an agent key)
)

// Operation is one endpoint as the document shows it.
type Operation struct {
	Method, Path string
	// ID is the operationId: a lowerCamelCase verb phrase, stable across
	// versions (generated clients name their methods after it).
	ID      string
	Summary string
	Auth    Auth
	// Request is the schema of the request body that the server enforces
	// (nil: no body), and RequestName its component name.
	Request     *jsonschema.Schema
	RequestName string
	// Response is the Go type of the success body (nil: none).
	Response reflect.Type
	// Status is the success status; AltStatus, when set, a second one with
	// the same body.
	Status, AltStatus int
	// ToolBody marks operations whose body carries tool arguments: they
	// take an Idempotency-Key and answer X-Charged and X-Balance.
	ToolBody bool
	// Tool, when set, makes the operation a REST shortcut of that tool:
	// its body is the tool's arguments (without the tier that Tier fixes)
	// and its answer the tool's result.
	Tool, Tier string
	// CallsTools marks POST /v1/tools/call: a body and an answer per tool.
	CallsTools bool
	// IsDocument marks the operation that serves this document.
	IsDocument bool
	// CSV marks operations that also answer text/csv (Accept: text/csv).
	CSV bool
	// Query are the query parameters.
	Query []Param
	// Errors are the error kinds the operation can answer, each documented
	// with its status and body.
	Errors []toolkit.Kind
}

// Param is a query parameter.
type Param struct {
	Name, Description string
	Schema            map[string]any
}

// Enumerated is implemented by response types whose string fields take a
// closed set of values: the document lists them as enums.
type Enumerated interface {
	// Enums maps a JSON field name to its values.
	Enums() map[string][]string
}
