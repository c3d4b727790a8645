package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
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
