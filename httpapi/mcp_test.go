package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyTransport adds the agent's API key to every request.
type keyTransport struct {
	key    string
	header string
}

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if k.header == "Authorization" {
		r.Header.Set("Authorization", "Bearer "+k.key)
	} else {
		r.Header.Set("X-API-Key", k.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (e *env) mcpConnect(t *testing.T, transport string, k string) (*mcp.ClientSession, error) {
	hc := &http.Client{Transport: keyTransport{key: k, header: map[bool]string{true: "Authorization"}[transport == "streamable"]}}
	var tr mcp.Transport
	switch transport {
	case "sse":
		tr = &mcp.SSEClientTransport{Endpoint: e.srv.URL + "/mcp/sse", HTTPClient: hc}
	case "streamable":
		tr = &mcp.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", HTTPClient: hc}
	case "streamable-on-sse-path":
		tr = &mcp.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp/sse", HTTPClient: hc}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestMCPListAndCallOverEveryTransport(t *testing.T) {
	for _, transport := range []string{"sse", "streamable", "streamable-on-sse-path"} {
		t.Run(transport, func(t *testing.T) {
			e := newEnv(t)
			_, k := e.register("acme")
			e.fund(k, "1")
			cs, err := e.mcpConnect(t, transport, k)
			require.NoError(t, err)
			ctx := context.Background()

			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
			}
			assert.Equal(t, []string{"demo_double", "demo_free"}, names, "exactly the catalog")

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "demo_double", Arguments: map[string]any{"value": "2.5"}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			var out map[string]any
			require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out))
			assert.Equal(t, "5.0", out["doubled"])
			assert.Equal(t, "0.997", e.balance(k), "charged exactly the price of position_sizing")

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "demo_double", Arguments: map[string]any{"value": "x"}})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "value")
			assert.Equal(t, "0.997", e.balance(k), "tool errors are not charged")

			status, _ := e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"suspended"}`)
			require.Equal(t, http.StatusOK, status)
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "demo_free", Arguments: map[string]any{"value": "1"}})
			if err == nil {
				assert.True(t, res.IsError, "a suspended agent is refused")
			}
			_, err = e.mcpConnect(t, transport, k)
			assert.Error(t, err, "a suspended agent cannot connect")
		})
	}
}

func TestMCPRefusesMissingKeyAndForeignSessions(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	_, err := e.mcpConnect(t, "sse", "wrong")
	assert.Error(t, err)
	_, err = e.mcpConnect(t, "streamable", "wrong")
	assert.Error(t, err)

	_, other := e.register("mallory")
	// Open an SSE stream and read its message endpoint (the session id).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/mcp/sse", nil)
	stream.Header.Set("X-API-Key", k)
	sres, err := http.DefaultClient.Do(stream)
	require.NoError(t, err)
	defer sres.Body.Close()
	var endpoint string
	for sc := bufio.NewScanner(sres.Body); endpoint == "" && sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = v
		}
	}
	require.Contains(t, endpoint, "sessionid=")
	req, _ := http.NewRequest("POST", e.srv.URL+endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("X-API-Key", other)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusForbidden, res.StatusCode, "another agent's key cannot use the SSE session")
}

// TestMCPServesTheWholeCatalog lists every tool (the 41 built-in ones and
// the 4 workspace tools) over both transports and checks a priced call
// moves the balance by its price.
func TestMCPServesTheWholeCatalog(t *testing.T) {
	for _, transport := range []string{"sse", "streamable"} {
		t.Run(transport, func(t *testing.T) {
			e := newEnv(t, withFullCatalog)
			_, k := e.register("acme")
			e.fund(k, "1")
			cs, err := e.mcpConnect(t, transport, k)
			require.NoError(t, err)
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			_, http := e.do("GET", "/v1/tools/list", nil, "")
			assert.Len(t, list.Tools, int(http["tool_count"].(float64)), "MCP and /v1/tools/list serve the same catalog")
			assert.Len(t, list.Tools, 45)

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_position_size", Arguments: map[string]any{
				"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "direction": "long"}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, `"shares":5000`)
			assert.Equal(t, "0.997", e.balance(k), "exactly the position_sizing price")

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_monte_carlo", Arguments: map[string]any{
				"r_multiples": []string{"1", "-1", "2"}, "starting_equity": "10000", "num_simulations": 100, "seed": 7}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			assert.Equal(t, "0.989", e.balance(k), "run_monte_carlo costs 0.008")
		})
	}
}
