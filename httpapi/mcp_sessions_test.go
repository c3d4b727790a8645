package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func callEcho(cs *mcp.ClientSession) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "demo_free", Arguments: map[string]any{"value": "1"}})
	if err == nil && res.IsError {
		return assert.AnError
	}
	return err
}

// Regression (robustness finding 4): legacy SSE sessions end when idle,
// an agent holds a bounded number, and rotation or suspension releases
// them all. (Streamable HTTP holds none: see mcp_stateless_test.go.)
func TestMCPSessionsAreBounded(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MCPSessionsPerAgent = 2 })
	_, k := e.register("acme")
	first, err := e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	_, err = e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	_, err = e.mcpConnect(t, "sse", k)
	assert.Error(t, err, "a third session is refused")
	require.NoError(t, callEcho(first), "open sessions keep working")

	status, m := e.do("POST", "/v1/agents/rotate-key", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Error(t, callEcho(first), "rotation ends the sessions")
	_, err = e.mcpConnect(t, "sse", m["api_key"].(string))
	assert.NoError(t, err, "the released sessions no longer count against the cap")
}

// A rotated key is refused on the next streamable request: nothing
// outlives a request, so nothing needs closing.
func TestMCPRotationRefusesTheOldKeyOnStreamable(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	require.NoError(t, callEcho(cs))
	status, m := e.do("POST", "/v1/agents/rotate-key", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Error(t, callEcho(cs), "the old key is refused")
	renewed, err := e.mcpConnect(t, "streamable", m["api_key"].(string))
	require.NoError(t, err)
	assert.NoError(t, callEcho(renewed))
}

func TestMCPIdleSessionsEnd(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MCPIdleTimeout = 300 * time.Millisecond })
	_, k := e.register("acme")
	cs, err := e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	require.NoError(t, callEcho(cs))
	time.Sleep(time.Second)
	assert.Error(t, callEcho(cs), "an idle session is gone")
}

func TestSuspensionEndsSessions(t *testing.T) {
	e := newEnv(t)
	id, k := e.register("acme")
	cs, err := e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	status, _ := e.do("PUT", "/v1/admin/agents/"+id+"/mode", map[string]string{"X-Admin-Key": adminKey}, `{"mode":"suspended"}`)
	require.Equal(t, http.StatusOK, status)
	assert.Error(t, callEcho(cs))
}

// rawGet sends a GET with an explicit Host header.
func (e *env) rawGet(t *testing.T, path, host string) (int, string) {
	req, err := http.NewRequest("GET", e.srv.URL+path, nil)
	require.NoError(t, err)
	req.Host = host
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Regression (robustness finding 7): documents never copy a Host that is
// not allowed, and MCP's rebinding guard follows the same list (so it works
// behind a configured reverse proxy).
func TestHostsAreAllowedExplicitly(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/llms.txt", "/.well-known/agent.json", "/.well-known/mcp/server-card.json", "/v1/openapi.json"} {
		status, body := e.rawGet(t, path, "evil.example")
		assert.Equal(t, http.StatusForbidden, status, path)
		assert.NotContains(t, body, "evil.example/", path)
	}
	status, body := e.rawGet(t, "/llms.txt", "localhost:8080")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "http://localhost:8080/v1/openapi.json")

	proxied := newEnv(t, func(c *envConfig) { c.api.AllowedHosts = []string{"api.example.com", "127.0.0.1"} })
	status, body = proxied.rawGet(t, "/llms.txt", "api.example.com")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "http://api.example.com/mcp")
	_, k := proxied.register("acme")
	hc := &http.Client{Transport: hostTransport{host: "api.example.com", key: k}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: proxied.srv.URL + "/mcp", HTTPClient: hc}, nil)
	require.NoError(t, err, "MCP behind a reverse proxy with an allowed Host")
	cs.Close()
	hc = &http.Client{Transport: hostTransport{host: "rebound.example", key: k}}
	_, err = mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: proxied.srv.URL + "/mcp", HTTPClient: hc}, nil)
	assert.Error(t, err, "a rebound Host is refused")

	fixed := newEnv(t, func(c *envConfig) { c.api.BaseURL = "https://toolkit.example.com" })
	status, body = fixed.rawGet(t, "/llms.txt", "localhost")
	assert.Equal(t, http.StatusOK, status)
	assert.True(t, strings.Contains(body, "https://toolkit.example.com/v1/openapi.json"), "the base URL wins over Host")
}

// hostTransport sends every request with a given Host and API key.
type hostTransport struct{ host, key string }

func (h hostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	r.Header.Set("X-API-Key", h.key)
	return http.DefaultTransport.RoundTrip(r)
}

// MCP carries tool arguments, so its bodies take the tool-body cap, not
// the 64 KiB cap of ordinary requests.
func TestMCPTakesLargeToolArguments(t *testing.T) {
	e := newEnv(t, withDefaultCatalog, func(c *envConfig) { c.api.MaxBodyBytes = 1 << 20 })
	_, k := e.register("acme")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	r := make([]string, 20000) // about 140 KB of arguments
	for i := range r {
		r[i] = "-0.5"
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "analyze_distribution", Arguments: map[string]any{"r_multiples": r}})
	require.NoError(t, err)
	assert.False(t, res.IsError, "%v", res.Content)
}
