package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/internal/httpbody"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the MCP implementation name (serverInfo.name).
const Name = "agent-finance-toolkit"

// Config is what the MCP handler serves and how. Agents, Calls, Billing
// and Catalog are required.
type Config struct {
	// Agents re-reads the calling agent before each tool call, so a
	// suspension takes effect inside an open session.
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
	// IdleTimeout ends a session after this long without a message
	// (default 15 minutes).
	IdleTimeout time.Duration
	// SessionsPerAgent bounds the open sessions of one agent (default 16);
	// a further one is refused with RateLimited.
	SessionsPerAgent int
	// Logger receives one line per panic or internal error of a tool call
	// (default slog.Default()).
	Logger *slog.Logger
}

// Handler serves the catalog over MCP: legacy SSE at /mcp/sse (with its
// ?sessionid= message endpoint) and streamable HTTP at /mcp (also at
// /mcp/sse for clients of the published service).
//
// The caller (httpapi) authenticates every request and checks its Host;
// Serve takes the authenticated agent. Each session gets its own MCP
// server bound to the agent that opened it, and a session can only be used
// with that agent's key. Sessions end after Config.IdleTimeout without a
// message, an agent holds at most Config.SessionsPerAgent of them, and
// CloseAgent ends all of an agent's sessions (key rotated, suspended or
// terminated).
type Handler struct {
	cfg         Config
	tools       []tool
	sse         *mcp.SSEHandler
	streamable  *mcp.StreamableHTTPHandler
	sessions    *sessionRegistry
	sseSessions sync.Map // SSE session id -> *sseSession
	prefix      atomic.Pointer[string]
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
	if cfg.SessionsPerAgent <= 0 {
		cfg.SessionsPerAgent = 16
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	h := &Handler{cfg: cfg, sessions: newSessionRegistry(cfg.SessionsPerAgent)}
	h.prefix.Store(new(string))
	tools, err := h.defineTools()
	if err != nil {
		return nil, err
	}
	h.tools = tools
	getServer := func(r *http.Request) *mcp.Server {
		s, _ := r.Context().Value(serverKey{}).(*mcp.Server)
		return s // nil (refused by the SDK) only for a request Serve did not prepare
	}
	// The DNS-rebinding guard is the caller's Host check, so the SDK's
	// loopback-only guard is off: it would refuse a local reverse proxy.
	h.sse = mcp.NewSSEHandler(getServer, &mcp.SSEOptions{MaxRequestBodyBytes: cfg.MaxBodyBytes, DisableLocalhostProtection: true})
	h.streamable = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: cfg.MaxBodyBytes, SessionTimeout: cfg.IdleTimeout, DisableLocalhostProtection: true})
	return h, nil
}

// SetPrefix tells the handler the path prefix the API is mounted under
// (e.g. "/toolkit"), for the SSE message endpoint and the instructions.
func (h *Handler) SetPrefix(prefix string) { h.prefix.Store(&prefix) }

func (h *Handler) pathPrefix() string { return *h.prefix.Load() }

// CloseAgent ends every MCP session of agentID (its key was rotated, or it
// was suspended or terminated) and reports how many it closed.
func (h *Handler) CloseAgent(agentID string) int { return h.sessions.closeAgent(agentID) }

// server builds an MCP server exposing every catalog tool to ag. Its
// streamable-HTTP session ids start with the agent id, which binds them.
func (h *Handler) server(ag agents.Agent) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Agent Finance Toolkit", Version: h.cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions(h.pathPrefix()),
		GetSessionID: func() string { return ag.ID + "." + rand.Text() },
	})
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
		var out toolcall.Result
		if err == nil {
			out, err = h.cfg.Calls.Call(ctx, current, toolcall.Request{Tool: t.Name, Arguments: req.Params.Arguments, IdempotencyKey: key})
		}
		if err != nil {
			if toolkit.KindOf(err) == toolkit.Internal {
				h.cfg.Logger.Error("mcp tool call", "tool", t.Name, "agent_id", ag.ID, "error", err.Error())
			}
			return h.toolError(err, current), nil
		}
		return h.toolResult(out, current), nil
	}
}

// Serve serves a request to /mcp or /mcp/sse (paths without the mount
// prefix) of agent ag, whom the caller authenticated (active) and whose
// Host it checked. Errors are *toolkit.Error values for the caller to
// write.
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
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

// serveStreamable serves streamable HTTP; a request without a session id
// opens a session (within the agent's cap).
func (h *Handler) serveStreamable(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	id := r.Header.Get("Mcp-Session-Id")
	if id != "" && !strings.HasPrefix(id, ag.ID+".") {
		return toolkit.Errorf(toolkit.Forbidden, "This MCP session belongs to another agent")
	}
	if id == "" && r.Method == http.MethodPost {
		body, err := httpbody.Read(r)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		server := h.server(ag)
		r = r.WithContext(context.WithValue(r.Context(), serverKey{}, server))
		if !opensSession(body) {
			// A session-less request (server/discover, or an error the SDK
			// answers) gets a throwaway server and counts for nothing.
			h.streamable.ServeHTTP(w, r)
			return nil
		}
		sess, err := h.sessions.open(ag.ID, server, nil)
		if err != nil {
			return err
		}
		h.streamable.ServeHTTP(w, r)
		if !sess.connected() {
			h.sessions.remove(sess) // the initialize failed
		}
		return nil
	}
	if r.Method == http.MethodGet {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	}
	h.streamable.ServeHTTP(w, r)
	return nil
}

// opensSession reports whether a JSON-RPC body is an initialize request,
// the only one that opens a streamable session.
func opensSession(body []byte) bool {
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &msg) == nil && msg.Method == "initialize"
}

// serveSSEStream serves a legacy SSE stream: the session lives as long as
// this GET, which ends after the idle timeout or when the agent's
// sessions are closed.
func (h *Handler) serveSSEStream(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	server := h.server(ag)
	sess, err := h.sessions.open(ag.ID, server, cancel)
	if err != nil {
		return err
	}
	defer h.sessions.remove(sess)
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
	h.sse.ServeHTTP(rec, r.WithContext(context.WithValue(ctx, serverKey{}, server)))
	return nil
}

// isStreamable tells a streamable-HTTP request on /mcp/sse from a legacy
// SSE one: streamable clients POST without ?sessionid= or carry an
// Mcp-Session-Id header.
func (h *Handler) isStreamable(r *http.Request) bool {
	if r.Header.Get("Mcp-Session-Id") != "" {
		return true
	}
	return r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" ||
		r.Method == http.MethodDelete
}

// sessionRecorder spots the session id in the SSE endpoint event
// ("data: /mcp/sse?sessionid=ID") and binds it to the agent.
type sessionRecorder struct {
	http.ResponseWriter
	id     string
	bind   func(id string)
	prefix string // the mount prefix (see Handler.SetPrefix)
}

// Write passes b through, recording the session id on the way.
func (s *sessionRecorder) Write(b []byte) (int, error) {
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
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
