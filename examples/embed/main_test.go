package main

import (
	"context"
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
	mux, closeStore, err := newMux(context.Background(), filepath.Join(t.TempDir(), "embed.db"))
	require.NoError(t, err)
	t.Cleanup(func() { closeStore() })
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

	res, err := http.Post(srv.URL+"/v1/agents/register", "application/json",
		strings.NewReader(`{"owner_id":"host-app","agent_name":"embedded","agent_type":"analysis"}`))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusCreated, res.StatusCode)

	status, _ = get("/v1/nope")
	assert.Equal(t, http.StatusNotFound, status, "the toolkit owns /v1/")
	status, _ = get("/other")
	assert.Equal(t, http.StatusNotFound, status, "the host's mux answers its own paths")
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
