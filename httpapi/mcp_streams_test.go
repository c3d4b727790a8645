package httpapi_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseLines opens a legacy SSE stream of agent key k and returns its lines
// as they arrive (the channel closes with the stream).
func (e *env) sseLines(t *testing.T, k string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/mcp/sse", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		scan := bufio.NewScanner(res.Body)
		for scan.Scan() {
			lines <- scan.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		res.Body.Close()
	})
	return lines
}

// nextLines reads n lines, failing after wait (the stream is stuck).
func nextLines(t *testing.T, lines <-chan string, n int, wait time.Duration) []string {
	t.Helper()
	var got []string
	deadline := time.After(wait)
	for len(got) < n {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the stream ended after %q", got)
			got = append(got, line)
		case <-deadline:
			require.Fail(t, "no more lines", "after %q", got)
		}
	}
	return got
}

// TestMCPKeepAliveOnAnIdleSSEStream: a legacy SSE stream on which nothing
// happens gets a keep-alive comment every MCPKeepAlive, after the
// endpoint event, never before it.
func TestMCPKeepAliveOnAnIdleSSEStream(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MCPKeepAlive = 20 * time.Millisecond })
	_, k := e.register("acme")
	lines := e.sseLines(t, k)
	got := nextLines(t, lines, 5, 10*time.Second)
	assert.Equal(t, "event: endpoint", got[0])
	assert.True(t, strings.HasPrefix(got[1], "data: /mcp/sse?sessionid="), got[1])
	assert.Equal(t, []string{"", ": keep-alive", ""}, got[2:])
	assert.Equal(t, []string{": keep-alive", ""}, nextLines(t, lines, 2, 10*time.Second), "and again")
}

// TestMCPKeepAliveCanBeTurnedOff: with a negative MCPKeepAlive an idle
// stream carries nothing after its endpoint event.
func TestMCPKeepAliveCanBeTurnedOff(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MCPKeepAlive = -1 })
	_, k := e.register("acme")
	lines := e.sseLines(t, k)
	nextLines(t, lines, 3, 10*time.Second) // the endpoint event
	select {
	case line := <-lines:
		assert.Fail(t, "a line on an idle stream", "%q", line)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestMCPKeepAliveLeavesTheSDKClientWorking: the official SDK client
// reads past keep-alive comments: calls before and after several work.
func TestMCPKeepAliveLeavesTheSDKClientWorking(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MCPKeepAlive = 10 * time.Millisecond })
	_, k := e.register("acme")
	cs, err := e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	require.NoError(t, callEcho(cs))
	time.Sleep(100 * time.Millisecond)
	assert.NoError(t, callEcho(cs))
}

// TestShutdownClosesMCPStreams: with API.CloseStreams registered,
// http.Server.Shutdown returns without waiting for its deadline while a
// legacy SSE client is connected, the client's session ends, and the hook
// reports the one stream it closed.
func TestShutdownClosesMCPStreams(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	api, err := httpapi.New(e.services, e.apiOptions)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 5 * time.Second}
	closed := make(chan int, 1)
	srv.RegisterOnShutdown(func() { closed <- api.CloseStreams() })
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	hc := &http.Client{Transport: keyTransport{key: k}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.SSEClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp/sse", HTTPClient: hc}, nil)
	require.NoError(t, err)
	defer cs.Close()
	require.NoError(t, callEcho(cs))

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	require.NoError(t, srv.Shutdown(ctx), "the stream did not hold Shutdown to its deadline")
	assert.ErrorIs(t, <-served, http.ErrServerClosed)
	assert.Equal(t, 1, <-closed)
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	select {
	case <-ended:
	case <-ctx.Done():
		assert.Fail(t, "the client's session did not end")
	}
}

// TestClosedStreamsRefuseNewOnes: once CloseStreams ran, a new legacy SSE
// stream is refused with 503 and a Retry-After, while streamable HTTP
// requests are answered as before.
func TestClosedStreamsRefuseNewOnes(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	e.fund(k, "1")
	cs, err := e.mcpConnect(t, "sse", k)
	require.NoError(t, err)
	assert.Equal(t, 1, e.srv.Config.Handler.(*httpapi.API).CloseStreams())
	assert.Error(t, callEcho(cs), "the open session ended")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a stream would never end
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/mcp/sse", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	assert.Contains(t, string(body), "shutting down")
	assert.NotEmpty(t, res.Header.Get("Retry-After"))
	streamable, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	assert.NoError(t, callEcho(streamable))
	assert.Zero(t, e.srv.Config.Handler.(*httpapi.API).CloseStreams(), "nothing more to close")
}
