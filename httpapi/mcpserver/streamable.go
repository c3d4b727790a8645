package mcpserver

import (
	"context"
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Streamable HTTP is served without sessions: the SDK's stateless mode
// (StreamableHTTPOptions.Stateless). Every POST carries the agent's key,
// is authenticated by the caller and answered for that agent alone (the
// one shared server's tool handlers take the agent from the request's
// context), and nothing of it outlives the request. So any instance
// behind a round-robin balancer answers any request of a client, with no
// affinity and no session store: a client's initialize, tools/list and
// each tools/call may each reach another server.
//
// What a session would have carried is carried by every request instead:
// the agent (its key, so a request cannot act for another agent), the
// protocol version (the Mcp-Protocol-Version header) and the idempotency
// key of a call (its _meta). The server answers no Mcp-Session-Id, and a
// GET (a stream for server-initiated messages, which this server never
// sends) or a DELETE gets 405 Method Not Allowed, as the MCP specification
// allows; clients then work with POSTs alone. Legacy SSE (GET /mcp/sse)
// keeps a session in the process that holds its stream: behind a balancer
// it needs affinity.

// newStreamable returns the SDK's streamable-HTTP handler in stateless
// mode, over the servers getServer returns.
func newStreamable(getServer func(*http.Request) *mcp.Server, maxBodyBytes int64) *mcp.StreamableHTTPHandler {
	// The DNS-rebinding guard is the caller's Host check, so the SDK's
	// loopback-only guard is off: it would refuse a local reverse proxy.
	return mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless: true, MaxRequestBodyBytes: maxBodyBytes, DisableLocalhostProtection: true})
}

// agentKey carries the authenticated agent of a streamable-HTTP request
// to the shared server's tool handlers: the SDK connects each stateless
// request's session with the request's context, whose values reach them.
type agentKey struct{}

// sharedServer builds the server of streamable HTTP: every catalog tool,
// run for the agent in the request's context. A call whose context holds
// no agent is an internal error, never run for anyone. Building a server
// costs about as much as 45 calls (the SDK checks each tool's schema), so
// there is one, not one per request.
func (h *Handler) sharedServer() *mcp.Server {
	s := h.newServer()
	for _, t := range h.tools {
		s.AddTool(t.def, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ag, ok := ctx.Value(agentKey{}).(agents.Agent)
			if !ok {
				h.cfg.Logger.Error("mcp tool call without an authenticated agent", "tool", t.tool.Name)
				return h.toolError(toolkit.Errorf(toolkit.Internal, "internal error"), agents.Agent{}), nil
			}
			return h.toolHandler(ag, t.tool)(ctx, req)
		})
	}
	return s
}

// serveStreamable serves one streamable-HTTP request of ag. Only a POST
// gets the server (the SDK answers anything else 405 without one).
func (h *Handler) serveStreamable(w http.ResponseWriter, r *http.Request, ag agents.Agent) error {
	if r.Method == http.MethodPost {
		ctx := context.WithValue(r.Context(), agentKey{}, ag)
		r = r.WithContext(context.WithValue(ctx, serverKey{}, h.shared.Load()))
	}
	h.streamable.ServeHTTP(w, r)
	return nil
}

// isStreamable tells a streamable-HTTP request on /mcp/sse from a legacy
// SSE one: a legacy client GETs its stream bare and POSTs its messages to
// ?sessionid=; a streamable client POSTs without it, sends
// Mcp-Session-Id or Mcp-Protocol-Version once initialized, or DELETEs.
func (h *Handler) isStreamable(r *http.Request) bool {
	if r.URL.Query().Get("sessionid") != "" {
		return false
	}
	return r.Method == http.MethodPost || r.Method == http.MethodDelete ||
		r.Header.Get("Mcp-Session-Id") != "" || r.Header.Get("Mcp-Protocol-Version") != ""
}
