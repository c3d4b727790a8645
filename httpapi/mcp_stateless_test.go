package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundRobin sends each request to the next of several instances of the
// API, as a balancer without affinity does, with the agent's key.
type roundRobin struct {
	key     string
	targets []*url.URL
	mu      sync.Mutex
	next    int
	served  map[string]int // target host -> requests
}

func (rr *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	rr.mu.Lock()
	target := rr.targets[rr.next%len(rr.targets)]
	rr.next++
	rr.served[target.Host]++
	rr.mu.Unlock()
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = target.Scheme, target.Host, target.Host
	r.Header.Set("X-API-Key", rr.key)
	return http.DefaultTransport.RoundTrip(r)
}

// twin starts a second instance of e's API over the same services and
// store: another server of a cluster.
func (e *env) twin(t *testing.T) *httptest.Server {
	api, err := httpapi.New(e.services, e.apiOptions)
	require.NoError(t, err)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv
}

// TestMCPStreamableNeedsNoAffinity (issue 28, item 1): an MCP client over
// streamable HTTP whose every request goes to the next of two instances
// lists and calls tools, each call charged once.
func TestMCPStreamableNeedsNoAffinity(t *testing.T) {
	e := newEnv(t)
	other := e.twin(t)
	_, k := e.register("acme")
	e.fund(k, "1")
	a, err := url.Parse(e.srv.URL)
	require.NoError(t, err)
	b, err := url.Parse(other.URL)
	require.NoError(t, err)
	rr := &roundRobin{key: k, targets: []*url.URL{a, b}, served: map[string]int{}}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "rr", Version: "0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: rr}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, list.Tools, 2)
	for range 6 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "demo_double", Arguments: map[string]any{"value": "2"}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		assert.Equal(t, "0.003", ownMeta(res.Meta)["charged"])
	}
	assert.Equal(t, "0.982", e.balance(k), "six calls, each charged once")
	assert.GreaterOrEqual(t, rr.served[a.Host], 4, "%v", rr.served)
	assert.GreaterOrEqual(t, rr.served[b.Host], 4, "%v", rr.served)
}

// mcpPost sends one raw streamable-HTTP request (a client of an earlier
// protocol version, without the Go SDK) and returns the status, the
// headers and the body.
func (e *env) mcpPost(t *testing.T, k, protocol, body string) (int, http.Header, string) {
	req, err := http.NewRequest("POST", e.srv.URL+"/mcp", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", protocol)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header, string(raw)
}

// TestMCPStreamableHoldsNoSessions: a client of protocol 2025-06-18 (as
// the hosted clients speak it) initializes without getting a session id
// and then calls with nothing but its key and the protocol header; a GET
// stream and a DELETE are 405, which the protocol allows.
func TestMCPStreamableHoldsNoSessions(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	e.fund(k, "1")
	status, h, body := e.mcpPost(t, k, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
		"capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Empty(t, h.Get("Mcp-Session-Id"), "no session to remember")
	assert.Contains(t, body, `"protocolVersion":"2025-06-18"`)
	assert.Contains(t, body, `"instructions"`)
	status, _, body = e.mcpPost(t, k, "2025-06-18", `{"jsonrpc":"2.0","id":2,"method":"tools/call",
		"params":{"name":"demo_double","arguments":{"value":"2"},"_meta":{"idempotency_key":"raw-1"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"doubled":"4"`)
	assert.Contains(t, body, `"structuredContent"`)
	assert.Contains(t, body, `"charged":"0.003"`)
	status, _, body = e.mcpPost(t, k, "2025-06-18", `{"jsonrpc":"2.0","id":3,"method":"tools/call",
		"params":{"name":"demo_double","arguments":{"value":"2"},"_meta":{"idempotency_key":"raw-1"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"replayed":true`, "the idempotency key works across session-less requests")
	assert.Equal(t, "0.997", e.balance(k))

	for _, method := range []string{"GET", "DELETE"} {
		req, err := http.NewRequest(method, e.srv.URL+"/mcp", nil)
		require.NoError(t, err)
		req.Header.Set("X-API-Key", k)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, method)
	}
	req, err := http.NewRequest("GET", e.srv.URL+"/mcp/sse", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "a streamable client's GET on /mcp/sse opens no legacy SSE session")
}

// Nothing held means nothing to bound or expire: clients beyond the SSE
// cap connect, and a client idle past the SSE idle timeout goes on.
func TestMCPStreamableHasNoCapAndNoIdleTimeout(t *testing.T) {
	e := newEnv(t, func(c *envConfig) {
		c.api.MCPSessionsPerAgent = 1
		c.api.MCPIdleTimeout = 200 * time.Millisecond
	})
	_, k := e.register("acme")
	var clients []*mcp.ClientSession
	for range 3 {
		cs, err := e.mcpConnect(t, "streamable", k)
		require.NoError(t, err)
		clients = append(clients, cs)
	}
	time.Sleep(500 * time.Millisecond)
	for i, cs := range clients {
		assert.NoError(t, callEcho(cs), "client %d", i)
	}
}

// A streamable request runs as the agent whose key it carries, whatever
// Mcp-Session-Id it names: another agent's key is charged to that agent.
func TestMCPStreamableRunsAsTheKeysAgent(t *testing.T) {
	e := newEnv(t)
	acme, k := e.register("acme")
	e.fund(k, "1")
	_, mallory := e.register("mallory")
	e.fund(mallory, "1")
	req, err := http.NewRequest("POST", e.srv.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo_double","arguments":{"value":"2"}}}`))
	require.NoError(t, err)
	req.Header.Set("X-API-Key", mallory)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", acme+".ABCDEF")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "0.997", e.balance(mallory), "charged to the key's agent")
	assert.Equal(t, "1.00", e.balance(k), "never to the agent a session id names")
}
