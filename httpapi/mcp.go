package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is the API and MCP server version.
const Version = "1.0.0"

// mcpServerName is the MCP implementation name.
const mcpServerName = "agent-finance-toolkit"

// mcpHandler serves the catalog over MCP: legacy SSE at /mcp/sse (with its
// ?sessionid= message endpoint) and streamable HTTP at /mcp (also at
// /mcp/sse for clients of the published service).
//
// Every request is authenticated (X-API-Key or Bearer); a suspended or
// terminated agent is refused. Each session gets its own MCP server bound
// to the agent that opened it, and a session can only be used with that
// agent's key. Sessions end after Options.MCPIdleTimeout without a
// message, an agent holds at most Options.MCPSessionsPerAgent of them, and
// all of an agent's sessions end when its key is rotated or it is
// suspended or terminated.
type mcpHandler struct {
	api         *API
	sse         *mcp.SSEHandler
	streamable  *mcp.StreamableHTTPHandler
	sessions    *sessionRegistry
	sseSessions sync.Map // SSE session id -> *sseSession
}

// sseSession is what the handler knows of a legacy SSE session.
type sseSession struct {
	agentID string
	idle    *idleWatch
}

// serverKey carries the session's server from handle to the SDK's
// getServer callback.
type serverKey struct{}

func newMCPHandler(a *API) *mcpHandler {
	h := &mcpHandler{api: a, sessions: newSessionRegistry(a.opts.MCPSessionsPerAgent)}
	getServer := func(r *http.Request) *mcp.Server {
		s, _ := r.Context().Value(serverKey{}).(*mcp.Server)
		return s // nil (refused by the SDK) only for a request handle did not prepare
	}
	// The DNS-rebinding guard is handle's Host check against the API's
	// allowed hosts, so the SDK's loopback-only guard is off: it would
	// refuse a local reverse proxy.
	h.sse = mcp.NewSSEHandler(getServer, &mcp.SSEOptions{MaxRequestBodyBytes: a.opts.MaxBodyBytes, DisableLocalhostProtection: true})
	h.streamable = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: a.opts.MaxBodyBytes, SessionTimeout: a.opts.MCPIdleTimeout, DisableLocalhostProtection: true})
	return h
}

// mcpServer builds an MCP server exposing every catalog tool to ag. Its
// streamable-HTTP session ids start with the agent id, which binds them.
func (a *API) mcpServer(ag agents.Agent) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: mcpServerName, Title: "Agent Finance Toolkit", Version: Version}, &mcp.ServerOptions{
		Instructions: a.mcpInstructions(),
		GetSessionID: func() string { return ag.ID + "." + rand.Text() },
	})
	for _, t := range a.mcpToolDefs {
		s.AddTool(t.def, a.mcpToolHandler(ag, t.tool))
	}
	return s
}

// mcpToolHandler runs one tool through the same metered path as the REST
// API, with the idempotency key of the request's _meta; failures come
// back as MCP tool errors (see mcpError).
func (a *API) mcpToolHandler(ag agents.Agent, t catalog.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// The SDK runs handlers on its own goroutines: a panic here would
		// end the process, so it becomes an internal tool error.
		defer func() {
			if p := recover(); p != nil {
				a.opts.Logger.Error("mcp tool panic", "tool", t.Name, "agent_id", ag.ID, "panic", fmt.Sprint(p))
				res, err = a.mcpError(toolkit.Errorf(toolkit.Internal, "internal error"), ag), nil
			}
		}()
		// The agent may have been suspended since the session opened.
		current, err := a.svc.Agents.Me(ctx, ag.ID)
		switch {
		case err != nil:
			current = ag // for the error's top-up hint
		case !current.IsActive():
			err = toolkit.Errorf(toolkit.Forbidden, "Agent is %s: API calls are not permitted", current.Mode)
		}
		var key string
		if err == nil {
			key, err = mcpIdempotencyKey(req.Params.Meta)
		}
		var out toolcall.Result
		if err == nil {
			out, err = a.calls.Call(ctx, current, toolcall.Request{Tool: t.Name, Arguments: req.Params.Arguments, IdempotencyKey: key})
		}
		if err != nil {
			if toolkit.KindOf(err) == toolkit.Internal {
				a.opts.Logger.Error("mcp tool call", "tool", t.Name, "agent_id", ag.ID, "error", err.Error())
			}
			return a.mcpError(err, current), nil
		}
		return a.mcpResult(out, current), nil
	}
}

// handle serves /mcp and /mcp/sse after authentication.
func (h *mcpHandler) handle(w http.ResponseWriter, r *http.Request) error {
	if err := h.api.checkHost(r); err != nil {
		return err
	}
	ag := agentFrom(r)
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
func (h *mcpHandler) serveStreamable(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	id := r.Header.Get("Mcp-Session-Id")
	if id != "" && !strings.HasPrefix(id, ag.ID+".") {
		return toolkit.Errorf(toolkit.Forbidden, "This MCP session belongs to another agent")
	}
	if id == "" && r.Method == http.MethodPost {
		body, err := readBody(r)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		server := h.api.mcpServer(ag)
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
func (h *mcpHandler) serveSSEStream(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	server := h.api.mcpServer(ag)
	sess, err := h.sessions.open(ag.ID, server, cancel)
	if err != nil {
		return err
	}
	defer h.sessions.remove(sess)
	idle := &idleWatch{}
	idle.touch(time.Now())
	go idle.watch(ctx, cancel, h.api.opts.MCPIdleTimeout, time.Now)
	// An SSE stream outlives any server WriteTimeout; lift the deadline for
	// this connection only (the error is ignored where unsupported).
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	rec := &sessionRecorder{ResponseWriter: w, prefix: h.api.prefix, bind: func(id string) {
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
func (h *mcpHandler) isStreamable(r *http.Request) bool {
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
	prefix string // the mount prefix (see MountOptions.Prefix)
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
