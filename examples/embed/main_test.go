package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOwnRoutesAndToolkitSideBySide(t *testing.T) {
	mux, p, err := newMux()
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	go p.Run(context.Background())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	get := func(path string) (int, string) {
		res, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	status, body := get("/healthz")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "ok\n", body)
	status, body = get("/")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "dashboard")

	status, body = get("/v1/billing/pricing")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"currency":"USDC"`)

	status, body = get("/v1/tools/list")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"tool_count":45`, "the finance tools and the workspace tools")

	status, body = post(t, srv.URL+"/v1/agents/register", "",
		`{"owner_id":"host-app","agent_name":"embedded","agent_type":"analysis"}`)
	require.Equal(t, http.StatusCreated, status, body)
	var reg struct {
		APIKey string `json:"api_key"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &reg))
	for _, c := range []struct{ path, body string }{
		{"/v1/billing/deposit", `{"amount":"1.00","funding_path":"direct_transfer"}`},
		{"/v1/support/ticket", `{"subject":"Hi","description":"A question","priority":"low","category":"other"}`},
		{"/v1/tools/call", `{"tool_name":"store_memory","arguments":{"content":"BTC ranges in Asian hours"}}`},
	} {
		status, body = post(t, srv.URL+c.path, reg.APIKey, c.body)
		assert.Contains(t, []int{http.StatusOK, http.StatusCreated}, status, "%s: %s", c.path, body)
	}

	status, _ = get("/v1/nope")
	assert.Equal(t, http.StatusNotFound, status, "the toolkit owns /v1/")
	status, _ = get("/other")
	assert.Equal(t, http.StatusNotFound, status, "the host's mux answers its own paths")
}

// post sends a JSON body (with the API key when set) and returns the
// status and body.
func post(t *testing.T, url, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// TestBuildsAsAnExternalModule copies this example into a module of its
// own (with a replace directive pointing here) and builds it: the example
// uses nothing internal to this module.
func TestBuildsAsAnExternalModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second module")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), src, 0o600))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o600))
	goMod := "module example.com/embedded\n\ngo 1.26\n\nrequire github.com/agentfinance/toolkit v0.0.0\n\n" +
		"replace github.com/agentfinance/toolkit => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o600))
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", os.DevNull, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %v:\n%s", args, out)
	}
}
