package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// OpenAPIVersion is the version of the OpenAPI format of the document.
const OpenAPIVersion = "3.1.0"

// openAPISchemas maps the API's special Go types to their JSON schemas.
func openAPISchemas() map[reflect.Type]*jsonschema.Schema {
	decimal := &jsonschema.Schema{Type: "string", Pattern: toolkit.DecimalPattern, Description: "decimal number as a string"}
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[toolkit.Amount]():    decimal,
		reflect.TypeFor[toolkit.Float]():     decimal,
		reflect.TypeFor[toolkit.Floats]():    {Type: "array", Items: decimal},
		reflect.TypeFor[time.Time]():         {Type: "string", Format: "date-time"},
		reflect.TypeFor[json.RawMessage]():   {Type: "object", Description: "JSON object"},
		reflect.TypeFor[jsonschema.Schema](): {Type: "object", Description: "JSON Schema (draft 2020-12)"},
	}
}

// schemaFor returns the JSON schema of a prototype value, or nil.
func schemaFor(v any) (*jsonschema.Schema, error) {
	if v == nil {
		return nil, nil
	}
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Map {
		return &jsonschema.Schema{Type: "object"}, nil
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: openAPISchemas()})
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	return s, nil
}

// typeName names a component schema after its Go type.
func typeName(v any) string { return reflect.TypeOf(v).Name() }

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// openAPI builds the OpenAPI 3.1 document from the route table and the
// request/response types, so it cannot drift from what the API serves.
func (a *API) openAPI(baseURL string) (map[string]any, error) {
	components := map[string]any{}
	ref := func(v any) (map[string]any, error) {
		s, err := schemaFor(v)
		if err != nil || s == nil {
			return nil, err
		}
		if reflect.TypeOf(v).Kind() == reflect.Map {
			return map[string]any{"type": "object"}, nil
		}
		components[typeName(v)] = s
		return map[string]any{"$ref": "#/components/schemas/" + typeName(v)}, nil
	}
	errorRef, err := ref(ErrorBody{})
	if err != nil {
		return nil, err
	}
	jsonContent := func(schema any) map[string]any {
		return map[string]any{"application/json": map[string]any{"schema": schema}}
	}
	errResp := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": jsonContent(errorRef)}
	}
	paths := map[string]map[string]any{}
	for _, rt := range a.routes {
		op := map[string]any{
			"summary":     rt.summary,
			"operationId": operationID(rt.method, rt.path),
			"tags":        []string{strings.Split(strings.TrimPrefix(rt.path, "/v1/"), "/")[0]},
		}
		responses := map[string]any{
			"400": errResp("Invalid request: the detail names the field and the rule"),
			"413": errResp("Request body too large"),
			"429": errResp("Rate limit exceeded (Retry-After says when to retry; RateLimit-Limit, -Remaining and -Reset describe the bucket)"),
			"500": errResp("Internal error"),
		}
		switch rt.auth {
		case authAgent:
			op["security"] = []map[string][]string{{"ApiKey": {}}, {"Bearer": {}}}
			responses["401"] = errResp("Missing or invalid API key")
			responses["402"] = errResp("Insufficient balance (priced operations)")
			responses["403"] = errResp("Agent suspended or terminated, or the call is not allowed")
			responses["404"] = errResp("Not found")
			responses["409"] = errResp("Conflict with the current state")
		case authAdmin:
			op["security"] = []map[string][]string{{"AdminKey": {}}}
			responses["401"] = errResp("Missing or invalid admin key, or admin endpoints disabled")
			responses["404"] = errResp("Not found")
			responses["409"] = errResp("Conflict with the current state")
		default:
			op["security"] = []map[string][]string{}
			responses["409"] = errResp("Conflict with the current state")
			responses["403"] = errResp("The X-API-Key sent is not allowed")
			responses["401"] = errResp("The X-API-Key sent is invalid")
		}
		schema, err := a.requestSchema(rt)
		if err != nil {
			return nil, err
		}
		if schema != nil {
			op["requestBody"] = map[string]any{"required": true, "content": jsonContent(schema)}
		}
		respSchema, err := ref(rt.response)
		if err != nil {
			return nil, err
		}
		responses[fmt.Sprint(rt.status)] = map[string]any{"description": "Success", "content": jsonContent(respSchema)}
		op["responses"] = responses
		var params []map[string]any
		for _, m := range pathParam.FindAllStringSubmatch(rt.path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		for _, q := range rt.query {
			params = append(params, map[string]any{"name": q.name, "in": "query", "required": false,
				"description": q.description, "schema": q.schema})
		}
		if params != nil {
			op["parameters"] = params
		}
		if paths[rt.path] == nil {
			paths[rt.path] = map[string]any{}
		}
		paths[rt.path][strings.ToLower(rt.method)] = op
	}
	return map[string]any{
		"openapi": OpenAPIVersion,
		"info": map[string]any{
			"title":       "Agent Finance Toolkit API",
			"version":     Version,
			"description": "Metered finance calculations for autonomous agents. Never places orders.",
			"license":     map[string]any{"name": "Proprietary", "identifier": "LicenseRef-Proprietary"},
		},
		"servers": []map[string]any{{"url": baseURL}},
		"paths":   paths,
		"components": map[string]any{
			"schemas": components,
			"securitySchemes": map[string]any{
				"ApiKey":   map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key"},
				"Bearer":   map[string]any{"type": "http", "scheme": "bearer", "description": "The agent API key as a bearer token"},
				"AdminKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-Admin-Key"},
			},
		},
	}, nil
}

// requestSchema is the request body schema of a route: the DTO's schema
// with its constraints, or for a tool shortcut the tool's own input
// schema; nil without a body.
func (a *API) requestSchema(rt route) (*jsonschema.Schema, error) {
	if s, ok := shortcutFor(rt.path); ok {
		t, err := a.calls.Lookup(s.tool)
		if err != nil {
			return &jsonschema.Schema{Type: "object"}, nil
		}
		schema := *t.InputSchema
		if s.tier != "" {
			props := map[string]*jsonschema.Schema{}
			for k, v := range schema.Properties {
				if k != "tier" {
					props[k] = v
				}
			}
			schema.Properties = props
		}
		return &schema, nil
	}
	if rt.request == nil {
		return nil, nil
	}
	return requestSchemaOf(rt.request.prototype)
}

func shortcutFor(path string) (shortcutSpec, bool) {
	for _, s := range append(shortcuts[:len(shortcuts):len(shortcuts)], journalShortcut) {
		if s.path == path {
			return s, true
		}
	}
	return shortcutSpec{}, false
}

// operationID derives "putV1AgentsMode" style ids.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '{' || r == '}' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func (a *API) serveOpenAPI(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	if b, ok := a.openAPIDocs.Load(base); ok {
		writeRawJSON(w, http.StatusOK, b.([]byte))
		return nil
	}
	doc, err := a.openAPI(base)
	if err != nil {
		return toolkit.WithOp("httpapi.openAPI", err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return toolkit.WithOp("httpapi.openAPI", err)
	}
	// The document depends only on the base URL (routes and catalog are
	// fixed once the API is built): one build per allowed base, bounded.
	if a.openAPICount.Add(1) <= maxCachedOpenAPIDocs {
		a.openAPIDocs.Store(base, b)
	}
	writeRawJSON(w, http.StatusOK, b)
	return nil
}

// maxCachedOpenAPIDocs bounds the cached documents (one per base URL).
const maxCachedOpenAPIDocs = 16
