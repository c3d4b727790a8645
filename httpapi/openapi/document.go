package openapi

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
)

// Version is the version of the OpenAPI format of the document.
const Version = "3.1.0"

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// ref points at a component of the document.
func ref(kind, name string) schema {
	return schema{"$ref": "#/components/" + kind + "/" + name}
}

// document assembles the OpenAPI document from the operations, the Go
// types of the bodies and the tool catalog.
type document struct {
	spec      Spec
	schemas   *schemaSet
	responses schema // components.responses, added as operations use them
	params    schema // components.parameters, likewise
}

// Build builds the document of spec without its servers (see
// Document.JSON).
func Build(spec Spec) (*Document, error) {
	if spec.Status == nil || spec.ErrorBody == nil || spec.InsufficientCreditsBody == nil {
		return nil, fmt.Errorf("openapi: Spec.Status, ErrorBody and InsufficientCreditsBody are required")
	}
	d := &document{spec: spec, schemas: newSchemaSet(), responses: schema{}, params: schema{}}
	tools, err := d.toolSchemas()
	if err != nil {
		return nil, err
	}
	paths := schema{}
	tags := map[string]bool{}
	ids := map[string]bool{}
	for _, op := range spec.Operations {
		if ids[op.ID] {
			return nil, fmt.Errorf("openapi: %s %s: operationId %q is used twice", op.Method, op.Path, op.ID)
		}
		ids[op.ID] = true
		entry, err := d.operation(op, tools)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s %s: %w", op.Method, op.Path, err)
		}
		tags[entry["tags"].([]string)[0]] = true
		item, _ := paths[op.Path].(schema)
		if item == nil {
			item = schema{}
			paths[op.Path] = item
		}
		item[strings.ToLower(op.Method)] = entry
	}
	return newDocument(schema{
		"openapi": Version,
		"info": schema{
			"title":   "Agent Finance Toolkit API",
			"version": spec.APIVersion,
			"description": "Metered finance calculations for autonomous agents. Never places orders.\n\n" +
				"Authenticate with `X-API-Key` (or `Authorization: Bearer`). Priced calls are paid from a prepaid balance " +
				"in USDC credits (1 credit = 1 USD); their answers carry `X-Charged` and `X-Balance`. " +
				"Numbers that must stay exact travel as decimal strings. Errors are `{\"detail\", \"code\"}`.",
			"license": schema{"name": "Apache-2.0", "identifier": "Apache-2.0"},
		},
		"tags":  tagList(tags),
		"paths": paths,
		"components": schema{
			"schemas":    d.schemas.resolve(),
			"parameters": d.params,
			"headers":    headerComponents(),
			"responses":  d.responses,
			"securitySchemes": schema{
				"ApiKey":   schema{"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "The agent API key, shown once at registration"},
				"Bearer":   schema{"type": "http", "scheme": "bearer", "description": "The agent API key as a bearer token"},
				"AdminKey": schema{"type": "apiKey", "in": "header", "name": "X-Admin-Key", "description": "The operator's admin key"},
				"OwnerKey": schema{"type": "apiKey", "in": "header", "name": "X-Owner-Key",
					"description": "The owner key, shown once on the first registration of an owner_id; agent API keys never open owner endpoints"},
			},
		},
	}), nil
}

// tagDescriptions describe the tags (the first path segment after /v1).
var tagDescriptions = map[string]string{
	"agents":   "Registration, keys, modes and spend caps",
	"admin":    "Operator endpoints (X-Admin-Key)",
	"owner":    "An owner's agents, spend, usage, ledger, limits, modes and keys (X-Owner-Key)",
	"billing":  "Prices, balance, deposits, ledger and usage",
	"tools":    "The tool catalog and the generic metered call",
	"openapi":  "This document",
	"sizing":   "REST shortcut of a sizing tool",
	"risk":     "REST shortcut of a risk tool",
	"eval":     "REST shortcuts of evaluate_performance by tier",
	"compound": "REST shortcuts of the compound tools",
	"guardian": "Platform status, reports, security events, alerts and metrics",
	"support":  "Feedback, tickets, suggestions, enterprise inquiries and bug reports",
}

func tagOf(path string) string {
	tag, _, _ := strings.Cut(strings.TrimPrefix(path, "/v1/"), "/")
	return strings.TrimSuffix(tag, ".json")
}

func tagList(used map[string]bool) []schema {
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]schema, len(names))
	for i, n := range names {
		desc := tagDescriptions[n]
		if desc == "" {
			desc = "Endpoints under /v1/" + n
		}
		out[i] = schema{"name": n, "description": desc}
	}
	return out
}

// operation is the document's entry for one route.
func (d *document) operation(rt Operation, tools toolDocs) (schema, error) {
	if rt.ID == "" {
		return nil, fmt.Errorf("the route has no id (operationId)")
	}
	op := schema{"operationId": rt.ID, "summary": rt.Summary, "tags": []string{tagOf(rt.Path)}}
	switch rt.Auth {
	case AuthAgent:
		op["security"] = []schema{{"ApiKey": []string{}}, {"Bearer": []string{}}}
	case AuthAdmin:
		op["security"] = []schema{{"AdminKey": []string{}}}
	case AuthOwner:
		op["security"] = []schema{{"OwnerKey": []string{}}}
	default:
		op["security"] = []schema{}
	}
	params := []schema{d.param("RequestId")}
	for _, m := range pathParam.FindAllStringSubmatch(rt.Path, -1) {
		maxLen := 64
		if m[1] == "owner_id" {
			maxLen = 100 // owner ids are 1 to 100 characters
		}
		params = append(params, schema{"name": m[1], "in": "path", "required": true, "schema": schema{"type": "string", "maxLength": maxLen}})
	}
	for _, q := range rt.Query {
		params = append(params, schema{"name": q.Name, "in": "query", "required": false, "description": q.Description, "schema": schema(q.Schema)})
	}
	if rt.ToolBody {
		params = append(params, d.param("IdempotencyKey"))
	}
	op["parameters"] = params

	body, result, err := d.bodies(rt, tools)
	if err != nil {
		return nil, err
	}
	if body != nil {
		op["requestBody"] = schema{"required": true, "content": jsonContent(body)}
	}
	success := schema{"description": "Success", "headers": rateHeaders(schema{"X-Request-Id": ref("headers", "RequestId")})}
	if result != nil {
		success["content"] = jsonContent(result)
		if rt.CSV {
			success["content"].(schema)["text/csv"] = schema{"schema": schema{"type": "string",
				"description": "The same rows as CSV with a header line (Accept: text/csv); the next page's cursor is in X-Next-Cursor"}}
			success["headers"].(schema)["X-Next-Cursor"] = ref("headers", "NextCursor")
		}
	}
	if rt.ToolBody {
		h := success["headers"].(schema)
		h["X-Charged"], h["X-Balance"], h["Idempotent-Replayed"] = ref("headers", "Charged"), ref("headers", "Balance"), ref("headers", "IdempotentReplayed")
	}
	responses := schema{strconv.Itoa(rt.Status): success}
	if rt.AltStatus != 0 {
		responses[strconv.Itoa(rt.AltStatus)] = success
	}
	for _, k := range rt.Errors {
		responses[strconv.Itoa(d.spec.Status(k))] = d.errorResponse(k)
	}
	op["responses"] = responses
	return op, nil
}

// bodies are the request and success body schemas of an operation.
func (d *document) bodies(op Operation, tools toolDocs) (request, response schema, err error) {
	switch {
	case op.Tool != "":
		doc, ok := tools.lookup(op.Tool)
		if !ok {
			return schema{"type": "object"}, schema{}, nil
		}
		if op.Tier == "" {
			return ref("schemas", doc.arguments), doc.result, nil
		}
		return d.tierArguments(op.ID, doc), doc.result, nil
	case op.CallsTools:
		return tools.callRequest(d.schemas), tools.callResponse(d.schemas), nil
	case op.IsDocument:
		return nil, schema{"type": "object", "additionalProperties": true, "description": "OpenAPI 3.1 document"}, nil
	}
	if op.Request != nil {
		conv, err := d.schemas.inputSchema(op.RequestName, op.Request)
		if err != nil {
			return nil, nil, err
		}
		request = d.schemas.component(op.RequestName, conv)
	}
	if op.Response != nil {
		response = d.schemas.of(op.Response)
	}
	return request, response, nil
}

func jsonContent(s schema) schema {
	return schema{"application/json": schema{"schema": s}}
}

// errorDescriptions describe each error status in the document.
var errorDescriptions = map[toolkit.Kind]string{
	toolkit.Invalid:             "Invalid request: the detail names the field (or query parameter) and the rule",
	toolkit.Unauthenticated:     "Missing or invalid key",
	toolkit.InsufficientCredits: "Balance too low: nothing ran and nothing was charged; required and available say by how much",
	toolkit.Forbidden:           "Not allowed: agent suspended or terminated, tool or operation not authorized, spend cap reached, or host not served",
	toolkit.NotFound:            "Not found",
	toolkit.Conflict:            "Conflicts with the current state (an existing owner or payment, a terminated agent, an Idempotency-Key reused with another body)",
	toolkit.TooLarge:            "Request body or input too large",
	toolkit.RateLimited:         "Too many requests: retry after Retry-After seconds",
	toolkit.Unavailable:         "A dependency is unavailable or the server is busy: retry after Retry-After seconds when given",
	toolkit.Internal:            "Internal error",
}

// errorResponse references the shared response of an error kind.
func (d *document) errorResponse(k toolkit.Kind) schema {
	name := pascal(k.String())
	if _, ok := d.responses[name]; !ok {
		body := d.schemas.of(d.spec.ErrorBody)
		if k == toolkit.InsufficientCredits {
			body = d.schemas.of(d.spec.InsufficientCreditsBody)
		}
		headers := schema{"X-Request-Id": ref("headers", "RequestId")}
		switch k {
		case toolkit.RateLimited:
			headers["Retry-After"] = ref("headers", "RetryAfter")
			rateHeaders(headers)
		case toolkit.Unavailable:
			headers["Retry-After"] = ref("headers", "RetryAfter")
		case toolkit.Unauthenticated:
			headers["WWW-Authenticate"] = ref("headers", "WWWAuthenticate")
		}
		d.responses[name] = schema{"description": errorDescriptions[k], "headers": headers, "content": jsonContent(body)}
	}
	return ref("responses", name)
}

// param references a shared header parameter.
func (d *document) param(name string) schema {
	if _, ok := d.params[name]; !ok {
		switch name {
		case "RequestId":
			d.params[name] = schema{"name": "X-Request-Id", "in": "header", "required": false,
				"description": "Your id for this request (1-64 printable ASCII characters), echoed in the answer's X-Request-Id and the server's logs; the server makes one when absent",
				"schema":      schema{"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[!-~]+$"}}
		case "IdempotencyKey":
			d.params[name] = schema{"name": "Idempotency-Key", "in": "header", "required": false,
				"description": "Makes a priced call safe to retry: a retry with the same key and body returns the stored answer (Idempotent-Replayed: true) and is charged once; the same key with another body is 409",
				"schema":      schema{"type": "string", "minLength": 1, "maxLength": billing.MaxIdempotencyKeyLen}}
		}
	}
	return ref("parameters", name)
}

// rateHeaders adds the rate-limit headers of a limited answer to h.
func rateHeaders(h schema) schema {
	h["RateLimit-Limit"], h["RateLimit-Remaining"], h["RateLimit-Reset"] =
		ref("headers", "RateLimitLimit"), ref("headers", "RateLimitRemaining"), ref("headers", "RateLimitReset")
	return h
}

// headerComponents are the response headers of the document.
func headerComponents() schema {
	decimal := schema{"type": "string", "pattern": outputDecimalPattern}
	return schema{
		"RequestId": schema{"description": "The request's id: the X-Request-Id sent, or one the server made", "schema": schema{"type": "string"}},
		"Charged": schema{"description": "What this call debited, in USDC credits (1 credit = 1 USD): \"0\" when the call is free, not chargeable or replayed; absent for free tools",
			"schema": decimal},
		"Balance": schema{"description": "The balance after this call's debit, in USDC credits; absent when nothing was debited",
			"schema": decimal},
		"IdempotentReplayed": schema{"description": "\"true\" when the answer is the stored answer of an earlier call with the same Idempotency-Key (nothing ran, nothing was charged)",
			"schema": schema{"type": "string", "enum": []string{"true"}}},
		"RetryAfter": schema{"description": "Seconds to wait before retrying",
			"schema": schema{"type": "string", "pattern": "^[0-9]+$"}},
		"WWWAuthenticate":    schema{"description": "How to authenticate", "schema": schema{"type": "string"}},
		"NextCursor":         schema{"description": "The cursor of the next page of a CSV answer; absent on the last page", "schema": schema{"type": "string"}},
		"RateLimitLimit":     schema{"description": "Size of the rate-limit bucket this answer drew from", "schema": schema{"type": "integer"}},
		"RateLimitRemaining": schema{"description": "Requests left in the bucket", "schema": schema{"type": "integer"}},
		"RateLimitReset":     schema{"description": "Seconds until the bucket is full again", "schema": schema{"type": "integer"}},
	}
}

// pascal turns a snake_case name into PascalCase.
func pascal(snake string) string {
	var b strings.Builder
	for _, part := range strings.Split(snake, "_") {
		b.WriteString(exportedName(part))
	}
	return b.String()
}
