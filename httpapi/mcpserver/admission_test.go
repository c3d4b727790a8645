package mcpserver

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestHandler serves h for agent ag, as httpapi does once it has
// authenticated the request.
func newTestHandler(t *testing.T, ag agents.Agent) (*Handler, *httptest.Server) {
	t.Helper()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys}, platform.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	object := func(string) (*jsonschema.Schema, error) { return &jsonschema.Schema{Type: "object"}, nil }
	h, err := New(Config{Agents: p.Agents, Calls: p.Calls, Billing: p.Billing, Catalog: p.Catalog, OutputSchema: object})
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Serve(w, r, ag); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return h, srv
}

// post sends an MCP message and returns the answer's status and session.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	return res.StatusCode, res.Header.Get("Mcp-Session-Id")
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
// initialize (within the 16 KiB limit) never reach the SDK, over either
// transport.
func TestSessionKeepsOnlyWhatItNeedsOfInitialize(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"experimental":{"pad":"` + strings.Repeat("c", 12<<10) + `"}},` +
		`"clientInfo":{"name":"inspector","version":"0.16.2","title":"MCP Inspector"}}}`
	for _, transport := range []string{"streamable", "sse"} {
		t.Run(transport, func(t *testing.T) {
			ag := agents.Agent{ID: "agt_" + transport}
			h, srv := newTestHandler(t, ag)
			if transport == "sse" {
				status, _ := post(t, sseEndpoint(t, srv.URL), initialize)
				require.Equal(t, http.StatusAccepted, status)
			} else {
				status, session := post(t, srv.URL+"/mcp", initialize)
				require.Equal(t, http.StatusOK, status)
				require.NotEmpty(t, session)
			}
			got := kept(t, h, ag.ID)
			assert.Equal(t, "2025-06-18", got.ProtocolVersion)
			assert.Equal(t, &mcp.Implementation{Name: "inspector", Version: "0.16.2"}, got.ClientInfo, "no title")
			require.NotNil(t, got.Capabilities)
			assert.Equal(t, mcp.ClientCapabilities{}, *got.Capabilities, "no capability is kept")
		})
	}
}
