package httpapi

import (
	"net/http"
	"reflect"
	"slices"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/httpapi/openapi"
)

// APIVersion is the version of the API contract (the OpenAPI
// info.version); the build's version is platform.Version().
const APIVersion = "1.0.0"

// buildDocument builds the OpenAPI document of the route table and the
// catalog (once, by New).
func (a *API) buildDocument() (*openapi.Document, error) {
	spec := openapi.Spec{APIVersion: APIVersion, Tools: a.svc.Catalog.Tools(),
		Status:    func(k toolkit.Kind) int { return statusOf[k] },
		ErrorBody: reflect.TypeFor[ErrorBody](), InsufficientCreditsBody: reflect.TypeFor[InsufficientCreditsBody](),
		ErrorExamples: errorExamples(), PathExamples: pathExamples}
	for _, rt := range a.routes {
		op, err := operationOf(rt)
		if err != nil {
			return nil, err
		}
		spec.Operations = append(spec.Operations, op)
	}
	return openapi.Build(spec)
}

// pathExamples are the examples of the path parameters: ids as the
// server makes them.
var pathExamples = map[string]string{
	"agent_id": "agt_k3v9x2m8q1w7p4z6", "ticket_id": "SR-000142", "event_id": "evt_k4x9m2q7w1p8z3c6v5n0", "memory_id": "mem_q4x8n2k7w1z5c9v3",
}

// operationOf describes a route for the document.
func operationOf(rt route) (openapi.Operation, error) {
	op := openapi.Operation{Method: rt.method, Path: rt.path, ID: rt.id, Summary: rt.summary, Auth: rt.auth,
		Status: rt.status, AltStatus: rt.altStatus, ToolBody: rt.toolBody, Errors: errorKinds(rt),
		CallsTools: rt.id == "callTool", IsDocument: rt.id == "getOpenAPI", CSV: rt.csv}
	op.Tool, op.Tier = rt.tool, rt.tier
	for _, q := range rt.query {
		op.Query = append(op.Query, openapi.Param{Name: q.name, Description: q.description, Schema: q.schema})
	}
	if rt.request != nil {
		in, err := requestSchemaOf(rt.request.prototype)
		if err != nil {
			return op, err
		}
		op.Request, op.RequestName = in, reflect.TypeOf(rt.request.prototype).Name()
		op.RequestExamples = requestExamples(rt)
	}
	if rt.response != nil {
		op.Response = reflect.TypeOf(rt.response)
	}
	return op, nil
}

// errorKinds are the error kinds a route can answer, in status order:
// those its shape implies (a body can be invalid or too large, a key
// wrong or its agent suspended, a store unreachable; any query can name
// an unknown parameter) plus the route's own.
func errorKinds(rt route) []toolkit.Kind {
	// Every route can be rate limited (per address, per key, or after
	// failed authentications).
	kinds := []toolkit.Kind{toolkit.Invalid, toolkit.RateLimited, toolkit.Internal}
	if rt.request != nil || rt.toolBody {
		kinds = append(kinds, toolkit.TooLarge)
	}
	switch rt.auth {
	case authAgent:
		kinds = append(kinds, toolkit.Unauthenticated, toolkit.Forbidden, toolkit.Unavailable)
	case authAdmin:
		kinds = append(kinds, toolkit.Unauthenticated)
	case authOwner:
		kinds = append(kinds, toolkit.Unauthenticated, toolkit.Unavailable)
	}
	if rt.toolBody {
		// A tool call can find the balance short, the tool not allowed,
		// an Idempotency-Key reused with another body, or the server busy.
		kinds = append(kinds, toolkit.InsufficientCredits, toolkit.Forbidden, toolkit.Conflict, toolkit.Unavailable)
	}
	kinds = append(kinds, rt.errors...)
	slices.SortFunc(kinds, func(a, b toolkit.Kind) int { return statusOf[a] - statusOf[b] })
	return slices.Compact(kinds)
}

// serveOpenAPI serves the document with the request's base URL as its
// server.
func (a *API) serveOpenAPI(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	b, err := a.document.JSON(base)
	if err != nil {
		return toolkit.WithOp("httpapi.openAPI", err)
	}
	writeRawJSON(w, http.StatusOK, b)
	return nil
}
