package httpapi

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/agentfinance/toolkit/billing/owners"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi/mcpserver"
	"github.com/agentfinance/toolkit/httpapi/openapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/agentfinance/toolkit/httpapi/portal"
)

// Options configures the API. Zero fields take defaults.
type Options struct {
	// AdminKey enables the admin endpoints (X-Admin-Key, compared in
	// constant time). Empty: every admin endpoint answers 401.
	AdminKey string
	// MaxBodyBytes caps request bodies (default 8 MiB, enough for 100,000
	// values); larger bodies get 413.
	MaxBodyBytes int64
	// MaxBodyBytesInFlight bounds the request body bytes all requests in
	// flight hold at once (default 4 × MaxBodyBytes; never less than
	// MaxBodyBytes); a request whose body does not fit gets 503 with a
	// Retry-After.
	MaxBodyBytesInFlight int64
	// BaseURL is the public base URL used in the machine-readable
	// documents (e.g. "https://toolkit.example.com"). Empty: derived from
	// each request's scheme and Host, when that host is allowed.
	BaseURL string
	// AllowedHosts are the Host header values served (names or
	// host:port; ports are ignored; "*" allows any): the public documents
	// and MCP refuse other hosts with 403, which guards MCP against DNS
	// rebinding and the documents against a Host an attacker chose.
	// Default: localhost, 127.0.0.1 and ::1; the host of BaseURL is always
	// allowed.
	AllowedHosts []string
	// Logger receives one access-log line per request (default
	// slog.Default()). Secrets (keys, bodies) are never logged.
	Logger *slog.Logger
	// MCPIdleTimeout ends a legacy SSE MCP session after this long without
	// a message (default 15 minutes). Streamable HTTP holds no sessions.
	MCPIdleTimeout time.Duration
	// MCPKeepAlive is how often a legacy SSE MCP stream gets a comment
	// line, which clients ignore, so that proxies do not drop a quiet
	// stream (default DefaultMCPKeepAlive; negative: never).
	MCPKeepAlive time.Duration
	// MCPSessionsPerAgent bounds the open legacy SSE MCP sessions of one
	// agent (default 16); a further one is refused with 429.
	MCPSessionsPerAgent int
	// MCPEnvelope bounds what the MCP SDK decodes of each message, checked
	// over its bytes before the SDK runs: params._meta at most 4 KiB,
	// initialize's params at most 16 KiB, the params of any method (of
	// tools/call, all but its arguments) at most 64 KiB (zero fields:
	// these defaults). Over a limit, and any JSON-RPC batch, is answered
	// 400 with a JSON-RPC error.
	MCPEnvelope mcpserver.EnvelopeLimits
	// RateLimits bound request rates (zero fields: DefaultRateLimits).
	RateLimits RateLimits
	// TrustedProxy says how to find the client address behind a reverse
	// proxy (default: the connection's peer).
	TrustedProxy TrustedProxy
	// Metrics, when set, records Prometheus metrics (see NewMetrics).
	// Default: none.
	Metrics *Metrics
	// CORS, when set, answers cross-origin requests of browser clients.
	// Default: off.
	CORS *CORS
	// Portal configures the web portal at /portal/ (served by default).
	Portal PortalOptions
}

// API is the toolkit's HTTP API. It is an http.Handler.
type API struct {
	svc      platform.Services
	calls    *toolcall.Service
	owners   *owners.Service
	opts     Options
	limits   RateLimits
	rec      guardian.Recorder
	mux      *http.ServeMux
	routeMux *http.ServeMux // the route table alone, to find the methods of a path
	handler  http.Handler   // mux, behind CORS when enabled
	routes   []route
	bodies   map[reflect.Type]any // request body type -> *strictjson.Decoder of it
	inflight *bodyBudget          // the bytes of request bodies held at once
	mcp      *mcpserver.Handler
	hosts    []string // allowed Host names (see Options.AllowedHosts)
	prefix   string   // set by Mount with MountOptions.Prefix
	// document is the OpenAPI document (without its servers), built by New.
	document *openapi.Document
	// pages are the tool reference pages, rendered at their first request.
	pages renderedPages
	// hostLists caches the encoded tool list of each agent host's format
	// (toolformat.Format -> []byte), built at its first request.
	hostLists sync.Map
}

// New returns the API over the given services (usually
// platform.New's). Agents, Billing and Catalog are required; without Calls
// the API runs tool calls through a toolcall.Service over Catalog and
// Billing that records to Guardian and counts calls there and in
// Options.Metrics. The endpoints of a nil Support, Workspace, Brokers or
// Guardian are not served.
func New(svc platform.Services, opts Options) (*API, error) {
	if svc.Agents == nil || svc.Billing == nil || svc.Catalog == nil {
		return nil, fmt.Errorf("httpapi: Agents, Billing and Catalog services are required")
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 8 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MCPIdleTimeout <= 0 {
		opts.MCPIdleTimeout = 15 * time.Minute
	}
	if opts.MCPSessionsPerAgent <= 0 {
		opts.MCPSessionsPerAgent = 16
	}
	a := &API{svc: svc, opts: opts, limits: opts.RateLimits.withDefaults(), rec: guardian.Discard,
		mux: http.NewServeMux(), routeMux: http.NewServeMux(), calls: svc.Calls, owners: owners.New(svc.Agents, svc.Billing, nil)}
	if svc.Guardian != nil {
		a.rec = svc.Guardian
	}
	if a.calls == nil {
		a.calls = toolcall.New(svc.Catalog, svc.Billing, toolcall.Options{Recorder: a.rec, Observe: a.observeCall})
	}
	a.hosts = allowedHosts(opts)
	a.inflight = newBodyBudget(opts.MaxBodyBytesInFlight, opts.MaxBodyBytes)
	a.routes = a.routeTable()
	if err := a.compileBodies(); err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	doc, err := a.buildDocument()
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	a.document = doc
	a.mcp, err = mcpserver.New(mcpserver.Config{Agents: svc.Agents, Calls: a.calls, Billing: svc.Billing, Catalog: svc.Catalog, KeepAlive: opts.MCPKeepAlive,
		OutputSchema: doc.ResultSchema,
		Version:      platform.Version(), MaxBodyBytes: opts.MaxBodyBytes, IdleTimeout: opts.MCPIdleTimeout,
		SessionsPerAgent: opts.MCPSessionsPerAgent, Envelope: opts.MCPEnvelope, Recorder: a.rec, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	for _, rt := range a.routes {
		pattern := rt.method + " " + rt.path
		rt.pattern = pattern
		a.mux.Handle(pattern, a.wrap(rt))
		a.routeMux.Handle(pattern, http.NotFoundHandler())
	}
	a.mux.Handle("/v1/", a.wrap(route{pattern: "unmatched", limit: rateNone, handle: a.unmatched}))
	a.mux.Handle("/", a.wrap(route{pattern: "unmatched", limit: rateNone, handle: notFound})) // JSON 404s outside /v1 too
	for path, handle := range map[string]func(http.ResponseWriter, *http.Request) error{
		publicPaths[0]: a.agentCard, publicPaths[1]: a.serverCard, publicPaths[2]: a.llmsTxt,
	} {
		a.mux.Handle("GET "+path, a.wrap(route{pattern: "GET " + path, handle: handle}))
	}
	docs := a.docs(docsUI())
	for _, path := range docsPaths {
		a.mux.Handle("GET "+path, a.wrap(route{pattern: "GET " + docsPaths[1], limit: rateNone, quiet: true, handle: docs}))
	}
	for _, path := range toolPagesPaths {
		a.mux.Handle("GET "+path, a.wrap(route{pattern: "GET " + toolPagesPath, limit: rateNone, quiet: true, handle: a.toolPage}))
	}
	for path, handle := range map[string]func(http.ResponseWriter, *http.Request) error{
		healthPath: a.healthz, readyPath: a.readyz, "/{$}": a.index,
	} {
		a.mux.Handle("GET "+path, a.wrap(route{pattern: "GET " + path, limit: rateNone, quiet: path != "/{$}", handle: handle}))
	}
	for _, p := range mcpPaths {
		a.mux.Handle(p, a.wrap(route{pattern: p, auth: authAgent, toolBody: true, handle: a.serveMCP}))
	}
	if err := a.mountPortal(); err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	a.handler = withCORS(a.mux, opts.CORS)
	return a, nil
}

// DefaultMCPKeepAlive is Options.MCPKeepAlive's default: 25 seconds.
const DefaultMCPKeepAlive = mcpserver.DefaultKeepAlive

// CloseStreams ends the API's long-lived requests, the legacy SSE MCP
// streams, and refuses new ones (503); it reports how many it ended.
// Register it with http.Server.RegisterOnShutdown, so that Shutdown,
// which waits for every request to end, is not held by them:
//
//	srv.RegisterOnShutdown(func() { api.CloseStreams() })
func (a *API) CloseStreams() int { return a.mcp.CloseStreams() }

// ServeHTTP implements http.Handler.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.handler.ServeHTTP(w, r)
}

// serveMCP serves /mcp and /mcp/sse to the authenticated agent, on an
// allowed Host only (the guard against DNS rebinding).
func (a *API) serveMCP(w http.ResponseWriter, r *http.Request) error {
	if err := a.checkHost(r); err != nil {
		return err
	}
	return a.mcp.Serve(w, r, agentFrom(r))
}

// mcpPaths are the MCP endpoints: streamable HTTP at /mcp, legacy SSE
// (and streamable HTTP, for published clients) at /mcp/sse.
var mcpPaths = []string{"/mcp", "/mcp/sse"}

// MountOptions choose what Mount registers on a host's mux.
type MountOptions struct {
	// Prefix, such as "/toolkit", serves the whole API under it
	// (/toolkit/v1/..., /toolkit/mcp, /toolkit/llms.txt); the documents then
	// carry the prefix in their URLs. Empty: the API's own paths at the
	// root of the mux.
	Prefix string
	// NoDocuments leaves /.well-known/agent.json,
	// /.well-known/mcp/server-card.json, /llms.txt and the /docs page to
	// the host (root mounts only).
	NoDocuments bool
	// NoMCP leaves /mcp and /mcp/sse to the host (root mounts only).
	NoMCP bool
	// NoPortal leaves /portal/ to the host (root mounts only).
	NoPortal bool
}

// Mount registers the API on a host's mux next to its own routes: the
// /v1/ subtree, MCP and the public documents, or everything under
// opts.Prefix. It never panics: a path the mux already serves is an
// error naming it, and nothing is registered. At the root, the
// operational endpoints (/healthz, /readyz, the / index) are left to the
// host; the API serves them too: mux.Handle("GET /readyz", api).
func (a *API) Mount(mux *http.ServeMux, opts MountOptions) error {
	var patterns []string
	var handler http.Handler = a
	if opts.Prefix != "" {
		prefix := "/" + strings.Trim(opts.Prefix, "/")
		a.prefix = prefix
		a.mcp.SetPrefix(prefix)
		patterns, handler = []string{prefix + "/"}, http.StripPrefix(prefix, a)
	} else {
		patterns = []string{"/v1/"}
		if !opts.NoMCP {
			patterns = append(patterns, mcpPaths...)
		}
		if !opts.NoPortal && !a.opts.Portal.Disabled {
			patterns = append(patterns, portal.Prefix+"/")
		}
		if !opts.NoDocuments {
			patterns = append(patterns, publicPaths...)
			patterns = append(patterns, docsPaths...)
		}
	}
	probe := http.NewServeMux()
	for _, p := range patterns {
		if err := tryHandle(probe, p, handler); err != nil {
			return err
		}
		if h, pattern := mux.Handler(&http.Request{Method: http.MethodGet, URL: &url.URL{Path: p}}); pattern == p && h != nil {
			return fmt.Errorf("httpapi: the host mux already serves %s", p)
		}
	}
	for _, p := range patterns {
		if err := tryHandle(mux, p, handler); err != nil {
			return err
		}
	}
	return nil
}

// tryHandle registers a pattern, turning the mux's panic on a conflicting
// pattern into an error.
func tryHandle(mux *http.ServeMux, pattern string, h http.Handler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("httpapi: cannot mount %s: %v", pattern, p)
		}
	}()
	mux.Handle(pattern, h)
	return nil
}
