// Package httpapi serves the toolkit over HTTP: the /v1 API, MCP and the
// public documents, mountable on any net/http mux.
//
//	p, _ := platform.New(ports, platform.Config{})  // every service
//	api, _ := httpapi.New(p.Services, httpapi.Options{AdminKey: adminKey})
//	_ = api.Mount(mux, httpapi.MountOptions{})      // or http.ListenAndServe(addr, api)
//
// It is thin: each handler decodes the request (strictly: unknown fields,
// duplicate keys and values over their limits are a 400 naming the field),
// makes one domain call and encodes the answer. Errors are *toolkit.Error
// values; errors.go holds the one table from Kind to HTTP status and writes
// every error as {"detail": ..., "code": ...}.
//
// # Layout
//
//   - routes.go: the route table, one place for every endpoint (method,
//     path, auth, body types, statuses, rate class); document.go describes
//     it for the OpenAPI document.
//   - middleware.go: request ids, access logs, recovery (a panic is a 500
//     and one log line), authentication (X-API-Key or Bearer for agents,
//     X-Admin-Key in constant time for admins), body caps, rate limits.
//   - *_handlers.go and dto_*.go: the handlers and the JSON shapes, by area.
//   - Subpackages: openapi builds the OpenAPI 3.1 document from the route
//     table and the catalog; mcpserver serves every tool over MCP
//     (streamable HTTP at /mcp, SSE at /mcp/sse); platform assembles the
//     services from their ports.
//
// Every tool call, whether a REST shortcut (/v1/sizing/calculate, ...),
// POST /v1/tools/call or MCP, runs through billing/toolcall: one call path,
// one metering point.
package httpapi
