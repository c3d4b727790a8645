package mcpserver

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveFor serves h for agent ag, as httpapi does once it has
// authenticated the request.
func serveFor(t *testing.T, h *Handler, ag agents.Agent) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Serve(w, r, ag); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// post sends an MCP message and returns the answer's status.
func post(t *testing.T, url, body string) int {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	return res.StatusCode
}

// sseEndpoint opens a legacy SSE stream and returns its message endpoint.
func sseEndpoint(t *testing.T, base string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/mcp/sse", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if path, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return base + path
		}
	}
	t.Fatal("no endpoint event")
	return ""
}

// kept is what the SDK holds of the initialize of the agent's one
// session.
func kept(t *testing.T, h *Handler, agentID string) *mcp.InitializeParams {
	t.Helper()
	var params *mcp.InitializeParams
	require.Eventually(t, func() bool {
		h.sessions.mu.Lock()
		defer h.sessions.mu.Unlock()
		for _, s := range h.sessions.byAgent[agentID] {
			for ss := range s.server.Sessions() {
				params = ss.InitializeParams()
			}
		}
		return params != nil
	}, 5*time.Second, 10*time.Millisecond)
	return params
}

// A session keeps only what it needs of its initialize: the protocol
// version and the client's name and version. The capabilities of a large
// initialize (within the 16 KiB limit) never reach the SDK. (Streamable
// HTTP holds no session: what the SDK makes of a request ends with it.)
func TestSessionKeepsOnlyWhatItNeedsOfInitialize(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"experimental":{"pad":"` + strings.Repeat("c", 12<<10) + `"}},` +
		`"clientInfo":{"name":"inspector","version":"0.16.2","title":"MCP Inspector"}}}`
	ag := agents.Agent{ID: "agt_sse"}
	h := newTestHandler(t)
	srv := serveFor(t, h, ag)
	require.Equal(t, http.StatusAccepted, post(t, sseEndpoint(t, srv.URL), initialize))
	got := kept(t, h, ag.ID)
	assert.Equal(t, "2025-06-18", got.ProtocolVersion)
	assert.Equal(t, &mcp.Implementation{Name: "inspector", Version: "0.16.2"}, got.ClientInfo, "no title")
	require.NotNil(t, got.Capabilities)
	assert.Equal(t, mcp.ClientCapabilities{}, *got.Capabilities, "no capability is kept")
}
