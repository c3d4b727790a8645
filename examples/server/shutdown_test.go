package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runServerEnv makes the test binary run the reference server (main)
// instead of the tests: a test that needs the server as a process of its
// own (signals, exit codes) starts this binary with it set.
const runServerEnv = "TOOLKIT_TEST_RUN_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(runServerEnv) == "1" {
		main() // exits 1 on an error
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// keyHeader adds the agent's API key to every request.
type keyHeader string

func (k keyHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-API-Key", string(k))
	return http.DefaultTransport.RoundTrip(r)
}

// TestSIGTERMWithAnSSEClientExitsZero starts the reference server as a
// process, connects a legacy SSE MCP client, and sends SIGTERM: the
// server closes the stream first, so the graceful shutdown is not held to
// its timeout; it exits 0 (a shutdown that reached its timeout exits 1)
// and logs the stream it closed and that it stopped.
func TestSIGTERMWithAnSSEClientExitsZero(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	const timeout = 10 * time.Second
	cmd := exec.Command(os.Args[0], "-addr", addr, "-db", filepath.Join(dir, "toolkit.db"), "-keys", filepath.Join(dir, "keys.json"),
		"-metrics-addr", "off", "-shutdown-timeout", timeout.String())
	cmd.Env = append(os.Environ(), runServerEnv+"=1", "TOOLKIT_ADMIN_KEY="+testAdminKey)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	base := "http://" + addr
	waitReady(t, base)

	res, err := http.Post(base+"/v1/agents/register", "application/json",
		strings.NewReader(`{"owner_id":"acme","agent_name":"Bot","agent_type":"trading"}`))
	require.NoError(t, err)
	var reg struct {
		Key string `json:"api_key"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&reg))
	res.Body.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.SSEClientTransport{Endpoint: base + "/mcp/sse", HTTPClient: &http.Client{Transport: keyHeader(reg.Key)}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.NotEmpty(t, tools.Tools, "the SSE session is live")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			require.Failf(t, "the server exited non-zero", "exit code %d:\n%s", exit.ExitCode(), out.String())
		}
		require.NoError(t, err, out.String())
	case <-time.After(timeout + 30*time.Second): // never reached by a working shutdown: a bound, not a measure
		require.Fail(t, "the server did not exit", out.String())
	}
	log := out.String()
	assert.Contains(t, log, "shutdown: stopping")
	assert.Contains(t, log, `msg="shutdown: MCP streams closed" streams=1`)
	assert.Contains(t, log, `msg="shutdown: stopped"`)
	assert.NotContains(t, log, "context deadline exceeded")
}
