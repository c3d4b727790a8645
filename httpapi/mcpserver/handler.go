package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the MCP implementation name (serverInfo.name).
const Name = "agent-finance-toolkit"

// Config is what the MCP handler serves and how. Agents, Calls, Billing
// and Catalog are required.
type Config struct {
	// Agents re-reads the calling agent before each tool call, so a
	// suspension takes effect inside an open SSE session.
	Agents *agents.Service
	// Calls runs every tool call (the one metered call path).
	Calls *toolcall.Service
	// Billing prices the tools (descriptions, _meta) and the results.
	Billing *billing.Service
	// Catalog lists the tools served.
	Catalog *catalog.Catalog
	// OutputSchema returns a tool's outputSchema (the OpenAPI document's
	// result schema, self-contained). Nil: tools have none.
	OutputSchema func(tool string) (*jsonschema.Schema, error)
	// Version is the MCP server's version (serverInfo.version).
	Version string
	// MaxBodyBytes caps a request body (default 8 MiB).
	MaxBodyBytes int64
	// IdleTimeout ends a legacy SSE session after this long without a
	// message (default 15 minutes). Streamable HTTP holds no sessions.
	IdleTimeout time.Duration
	// KeepAlive is how often a legacy SSE stream gets a comment line
	// (": keep-alive"), which clients ignore, so that proxies and clients
	// do not take a quiet stream for a dead one (default 25 seconds;
	// negative: never). Streamable HTTP holds no stream.
	KeepAlive time.Duration
	// SessionsPerAgent bounds the open legacy SSE sessions of one agent
	// (default 16); a further one is refused with RateLimited.
	SessionsPerAgent int
	// Envelope bounds what the SDK decodes of each message: batches,
	// _meta, initialize's params and other methods' params (zero fields:
	// EnvelopeLimits' defaults).
	Envelope EnvelopeLimits
	// Recorder receives the guardian event of a tool call that a full or
	// read-only database refused (default: discarded).
	Recorder guardian.Recorder
	// Logger receives one line per panic, internal error or storage fault
	// of a tool call (default slog.Default()).
	Logger *slog.Logger
}

// Handler serves the catalog over MCP: legacy SSE at /mcp/sse (with its
// ?sessionid= message endpoint) and streamable HTTP at /mcp (also at
// /mcp/sse for clients of the published service).
//
// The caller (httpapi) authenticates every request and checks its Host;
// Serve takes the authenticated agent. Streamable HTTP holds no session
// (see streamable.go): each request is served for the agent whose key it
// carries, by any instance. A legacy SSE session gets its own MCP server
// bound to the agent that opened it, can only be used with that agent's
// key, ends after Config.IdleTimeout without a message, and an agent holds
// at most Config.SessionsPerAgent of them; CloseAgent ends all of an
// agent's SSE sessions (key rotated, suspended or terminated).
type Handler struct {
	cfg         Config
	tools       []tool
	toolList    []byte // tools/list's answer (see ToolList)
	sse         *mcp.SSEHandler
	streamable  *mcp.StreamableHTTPHandler
	sessions    *sessionRegistry
	sseSessions sync.Map // SSE session id -> *sseSession
	prefix      atomic.Pointer[string]
	shared      atomic.Pointer[mcp.Server] // streamable HTTP's one server (see streamable.go)
	closed      atomic.Bool                // set by CloseStreams: no new SSE stream
}

// sseSession is what the handler knows of a legacy SSE session.
type sseSession struct {
	agentID string
	idle    *idleWatch
}

// serverKey carries the session's server from Serve to the SDK's
// getServer callback.
type serverKey struct{}

// New returns the MCP handler over cfg, with every tool's definition built
// once (shared read-only by every session's server).
func New(cfg Config) (*Handler, error) {
	if cfg.Agents == nil || cfg.Calls == nil || cfg.Billing == nil || cfg.Catalog == nil {
		return nil, errors.New("mcpserver: Agents, Calls, Billing and Catalog are required")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 8 << 20
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 15 * time.Minute
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = DefaultKeepAlive
	}
	if cfg.SessionsPerAgent <= 0 {
		cfg.SessionsPerAgent = 16
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Envelope = cfg.Envelope.withDefaults()
	cfg.Recorder = guardian.OrDiscard(cfg.Recorder)
	h := &Handler{cfg: cfg, sessions: newSessionRegistry(cfg.SessionsPerAgent)}
	h.prefix.Store(new(string))
	tools, list, err := h.defineTools()
	if err != nil {
		return nil, err
	}
	h.tools, h.toolList = tools, list
	h.shared.Store(h.sharedServer())
	getServer := func(r *http.Request) *mcp.Server {
		s, _ := r.Context().Value(serverKey{}).(*mcp.Server)
		return s // nil (refused by the SDK) only for a request Serve did not prepare
	}
	// The DNS-rebinding guard is the caller's Host check, so the SDK's
	// loopback-only guard is off: it would refuse a local reverse proxy.
	h.sse = mcp.NewSSEHandler(getServer, &mcp.SSEOptions{MaxRequestBodyBytes: cfg.MaxBodyBytes, DisableLocalhostProtection: true})
	h.streamable = newStreamable(getServer, cfg.MaxBodyBytes)
	return h, nil
}

// SetPrefix tells the handler the path prefix the API is mounted under
// (e.g. "/toolkit"), for the SSE message endpoint and the instructions.
func (h *Handler) SetPrefix(prefix string) {
	h.prefix.Store(&prefix)
	h.shared.Store(h.sharedServer())
}

func (h *Handler) pathPrefix() string { return *h.prefix.Load() }

// CloseAgent ends every legacy SSE session of agentID (its key was
// rotated, or it was suspended or terminated) and reports how many it
// closed. Streamable HTTP needs nothing closed: its next request is
// authenticated afresh.
func (h *Handler) CloseAgent(agentID string) int { return h.sessions.closeAgent(agentID) }

// newServer returns an MCP server without tools: the implementation and
// the instructions.
func (h *Handler) newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Agent Finance Toolkit", Version: h.cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions(h.pathPrefix()),
	})
}

// server builds an MCP server exposing every catalog tool to ag, for one
// legacy SSE session.
func (h *Handler) server(ag agents.Agent) *mcp.Server {
	s := h.newServer()
	for _, t := range h.tools {
		s.AddTool(t.def, h.toolHandler(ag, t.tool))
	}
	return s
}

// toolHandler runs one tool through the same metered path as the REST
// API, with the idempotency key of the request's _meta; failures come
// back as MCP tool errors (see toolError).
func (h *Handler) toolHandler(ag agents.Agent, t catalog.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// The SDK runs handlers on its own goroutines: a panic here would
		// end the process, so it becomes an internal tool error.
		defer func() {
			if p := recover(); p != nil {
				h.cfg.Logger.Error("mcp tool panic", "tool", t.Name, "agent_id", ag.ID, "panic", fmt.Sprint(p))
				res, err = h.toolError(toolkit.Errorf(toolkit.Internal, "internal error"), ag), nil
			}
		}()
		// The agent may have been suspended since the session opened.
		current, err := h.cfg.Agents.Me(ctx, ag.ID)
		switch {
		case err != nil:
			current = ag // for the error's top-up hint
		case !current.IsActive():
			err = toolkit.Errorf(toolkit.Forbidden, "Agent is %s: API calls are not permitted", current.Mode)
		}
		var key string
		if err == nil {
			key, err = idempotencyKey(req.Params.Meta)
		}
		c := h.carriageFor(req.Session)
		var out toolcall.Result
		if err == nil {
			out, err = h.cfg.Calls.Call(ctx, current, toolcall.Request{Tool: t.Name, Arguments: req.Params.Arguments,
				IdempotencyKey: key, AnswerSize: c.size})
		}
		if err != nil {
			return h.failed(ctx, t, current, err), nil
		}
		return h.toolResult(out, current, c), nil
	}
}

// Serve serves a request to /mcp or /mcp/sse (paths without the mount
// prefix) of agent ag, whom the caller authenticated (active) and whose
// Host it checked. A POST's message is checked before the SDK reads it
// (see admit); a refused one is answered with its JSON-RPC error. Errors
// are *toolkit.Error values for the caller to write.
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	r, err := h.admit(r)
	if err != nil {
		return refuse(w, err)
	}
	if r.URL.Path == "/mcp" || h.isStreamable(r) {
		return h.serveStreamable(w, r, ag)
	}
	if id := r.URL.Query().Get("sessionid"); id != "" {
		if v, ok := h.sseSessions.Load(id); ok {
			sess := v.(*sseSession)
			if sess.agentID != ag.ID {
				return toolkit.Errorf(toolkit.Forbidden, "This MCP session belongs to another agent")
			}
			sess.idle.touch(time.Now())
		}
		h.sse.ServeHTTP(w, r)
		return nil
	}
	if r.Method == http.MethodGet {
		return h.serveSSEStream(w, r, ag)
	}
	h.sse.ServeHTTP(w, r)
	return nil
}

// serveSSEStream serves a legacy SSE stream: the session lives as long as
// this GET, which ends after the idle timeout or when the agent's
// sessions are closed.
func (h *Handler) serveSSEStream(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	if h.closed.Load() {
		return errShuttingDown
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	server := h.server(ag)
	sess, err := h.sessions.open(ag.ID, server, cancel)
	if err != nil {
		return err
	}
	defer h.sessions.remove(sess)
	if h.closed.Load() { // CloseStreams ran while the session opened
		return errShuttingDown
	}
	idle := &idleWatch{}
	idle.touch(time.Now())
	go idle.watch(ctx, cancel, h.cfg.IdleTimeout, time.Now)
	// An SSE stream outlives any server WriteTimeout; lift the deadline for
	// this connection only (the error is ignored where unsupported).
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	rec := &sessionRecorder{ResponseWriter: w, prefix: h.pathPrefix(), bind: func(id string) {
		h.sseSessions.Store(id, &sseSession{agentID: ag.ID, idle: idle})
	}}
	defer func() {
		if rec.id != "" {
			h.sseSessions.Delete(rec.id)
		}
	}()
	defer keepAlive(rec, h.cfg.KeepAlive)() // stops before the handler returns
	h.sse.ServeHTTP(rec, r.WithContext(context.WithValue(ctx, serverKey{}, server)))
	return nil
}

// sessionRecorder spots the session id in the SSE endpoint event
// ("data: /mcp/sse?sessionid=ID") and binds it to the agent. Its writes
// and flushes are serialized, so that keep-alive comments go between the
// SDK's events (each written at once).
type sessionRecorder struct {
	http.ResponseWriter
	id     string
	bind   func(id string)
	prefix string // the mount prefix (see Handler.SetPrefix)
	mu     sync.Mutex
	wrote  bool // the SDK has written (headers and the endpoint event)
}

// Write passes b through, recording the session id on the way.
func (s *sessionRecorder) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wrote = true
	if s.id == "" {
		if i := bytes.Index(b, []byte("sessionid=")); i >= 0 {
			rest := b[i+len("sessionid="):]
			end := bytes.IndexAny(rest, "\r\n&")
			if end < 0 {
				end = len(rest)
			}
			s.id = string(rest[:end])
			s.bind(s.id)
			if s.prefix != "" {
				// The SDK names the message endpoint from the path it saw,
				// which a mount prefix was stripped from: put it back.
				n := len(b)
				b = bytes.Replace(b, []byte("data: /"), []byte("data: "+s.prefix+"/"), 1)
				_, err := s.ResponseWriter.Write(b)
				return n, err
			}
		}
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap exposes the underlying writer to http.ResponseController.
func (s *sessionRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush keeps the event stream flowing.
func (s *sessionRecorder) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush()
}

func (s *sessionRecorder) flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
