package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawMCP posts one body to an MCP endpoint with the agent's key and
// returns the status, the headers and the JSON-RPC message answered (the
// JSON body, or the first event of an event stream; "" for none).
func (e *env) rawMCP(t *testing.T, url, k string, headers map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("X-API-Key", k)
	for name, v := range headers {
		req.Header.Set(name, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, res.Header, string(raw)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return res.StatusCode, res.Header, data
		}
	}
	return res.StatusCode, res.Header, ""
}

// rawSession initializes a streamable MCP client of protocol version and
// returns the headers of its requests.
func (e *env) rawSession(t *testing.T, k, version string) map[string]string {
	t.Helper()
	status, h, body := e.rawMCP(t, e.srv.URL+"/mcp", k, nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":`+
		`{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	headers := map[string]string{"MCP-Protocol-Version": version}
	if id := h.Get("Mcp-Session-Id"); id != "" {
		headers["Mcp-Session-Id"] = id
	}
	status, _, body = e.rawMCP(t, e.srv.URL+"/mcp", k, headers, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, status, body)
	return headers
}

// sseEndpoint opens a legacy SSE stream of the agent and returns its
// message endpoint.
func (e *env) sseEndpoint(t *testing.T, k string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/mcp/sse", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	require.Equal(t, http.StatusOK, res.StatusCode)
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if path, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return e.srv.URL + path
		}
	}
	t.Fatal("the SSE stream sent no endpoint")
	return ""
}

// assertRPCError checks an answer is HTTP 400 carrying a JSON-RPC error
// of code whose message contains want.
func assertRPCError(t *testing.T, status int, body string, code int64, want string) {
	t.Helper()
	assert.Equal(t, http.StatusBadRequest, status, body)
	var msg struct {
		JSONRPC string        `json:"jsonrpc"`
		Error   jsonrpc.Error `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &msg), "a JSON-RPC error object: %s", body)
	assert.Equal(t, "2.0", msg.JSONRPC)
	assert.Equal(t, code, msg.Error.Code, body)
	assert.Contains(t, msg.Error.Message, want)
}

// Regression (issue 23, finding 1): a JSON-RPC batch is refused with a
// JSON-RPC error before the SDK answers any of its messages, over
// streamable HTTP (even in a session of 2025-03-26, whose clients could
// batch) and over legacy SSE's message endpoint.
func TestMCPRefusesBatches(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	batch := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"tools/list"},`, 50), ",") + "]"
	for name, send := range map[string]func() (int, string){
		"streamable": func() (int, string) {
			status, _, body := e.rawMCP(t, e.srv.URL+"/mcp", k, e.rawSession(t, k, "2025-03-26"), batch)
			return status, body
		},
		"streamable without a session": func() (int, string) {
			status, _, body := e.rawMCP(t, e.srv.URL+"/mcp/sse", k, nil, batch)
			return status, body
		},
		"legacy SSE": func() (int, string) {
			status, _, body := e.rawMCP(t, e.sseEndpoint(t, k), k, nil, batch)
			return status, body
		},
	} {
		status, body := send()
		assertRPCError(t, status, body, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not accepted")
		assert.NotContains(t, body, `"tools"`, "%s: nothing of the batch was answered", name)
	}
}

// Regression (issue 23, finding 2): a tools/call whose _meta is over
// 4 KiB is refused before the SDK decodes it: nothing runs and nothing is
// charged.
func TestMCPRefusesABigMeta(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	e.fund(k, "1")
	headers := e.rawSession(t, k, "2025-06-18")
	call := func(meta string) (int, string) {
		status, _, body := e.rawMCP(t, e.srv.URL+"/mcp", k, headers, `{"jsonrpc":"2.0","id":3,"method":"tools/call",`+
			`"params":{"name":"demo_double","arguments":{"value":"2"},"_meta":`+meta+`}}`)
		return status, body
	}
	status, body := call(`{"pad":"` + strings.Repeat("m", 8<<10) + `"}`)
	assertRPCError(t, status, body, jsonrpc.CodeInvalidParams, "params._meta is over 4096 bytes")
	assert.Contains(t, body, `"id":3`, "the error answers the request")
	assert.Equal(t, 0, e.runs, "nothing ran")
	assert.Equal(t, "1.00", e.balance(k), "nothing was charged")

	status, body = call(`{"idempotency_key":"k-1","pad":"` + strings.Repeat("m", 3<<10) + `"}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"doubled":"4`, "a _meta within the limit is served")
	assert.Equal(t, 1, e.runs)
}

// Regression (issue 23, finding 2): an initialize whose params are over
// 16 KiB is refused before the SDK decodes its capabilities, over every
// transport, and opens no session.
func TestMCPRefusesABigInitialize(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	big := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"m","version":"1"},` +
		`"capabilities":{"experimental":{"pad":[` + strings.TrimSuffix(strings.Repeat(`{"k":"v"},`, 3000), ",") + `]}}}}`
	for _, url := range []string{e.srv.URL + "/mcp", e.srv.URL + "/mcp/sse", e.sseEndpoint(t, k)} {
		status, h, body := e.rawMCP(t, url, k, nil, big)
		assertRPCError(t, status, body, jsonrpc.CodeInvalidParams, "initialize params are over 16384 bytes")
		assert.Empty(t, h.Get("Mcp-Session-Id"), "%s: no session", url)
	}
}
