//go:build inspector

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inspectorDir holds the pinned MCP Inspector (npm ci there first; .ci/run
// does).
const inspectorDir = "testdata/inspector"

// inspector runs the MCP Inspector's CLI on url with args, as
// docs/agent-hosts.md shows it, and decodes its JSON answer.
func inspector(t *testing.T, url string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npx", append([]string{"--no-install", "@modelcontextprotocol/inspector", "--cli", url}, args...)...)
	cmd.Dir = inspectorDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "%v\n%s%s", args, stdout.String(), stderr.String())
	var out map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), stdout.String())
	return out
}

// TestInspectorListsAndCallsTheTools runs the commands of
// docs/agent-hosts.md with the pinned @modelcontextprotocol/inspector
// against the reference server: tools/list with the X-API-Key header
// lists the 45 tools and passes the Inspector's schema portability check
// (--strict exits 6 on an error), tools/call answers the sizing of the
// walk-through and what it cost, and the Bearer header and legacy SSE
// work the same.
func TestInspectorListsAndCallsTheTools(t *testing.T) {
	_, err := os.Stat(filepath.Join(inspectorDir, "node_modules", "@modelcontextprotocol", "inspector"))
	require.NoError(t, err, "run npm ci in examples/server/%s", inspectorDir)
	s := startServer(t, "-db", filepath.Join(t.TempDir(), "toolkit.db"))
	status, reg := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"acme","agent_name":"Bot","agent_type":"trading"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	key := reg["api_key"].(string)
	status, bal := s.call("POST", "/v1/billing/deposit", map[string]string{"X-API-Key": key}, `{"amount":"5.00","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, bal)

	list := inspector(t, s.base+"/mcp", "--transport", "http", "--header", "X-API-Key: "+key, "--method", "tools/list", "--strict")
	assert.Len(t, list["tools"], 45)
	call := []string{"--method", "tools/call", "--tool-name", "calculate_position_size",
		"--tool-arg", "equity=100000", "entry_price=185.50", "stop_price=180", "direction=long"}
	for _, header := range []string{"X-API-Key: " + key, "Authorization: Bearer " + key} {
		res := inspector(t, s.base+"/mcp", append([]string{"--transport", "http", "--header", header}, call...)...)
		assert.Nil(t, res["isError"], header)
		assert.EqualValues(t, 363, res["structuredContent"].(map[string]any)["shares"], header)
		assert.Equal(t, "0.003", res["_meta"].(map[string]any)["charged"], header)
	}
	sse := inspector(t, s.base+"/mcp/sse", "--transport", "sse", "--header", "X-API-Key: "+key, "--method", "tools/list")
	assert.Len(t, sse["tools"], 45)
}
