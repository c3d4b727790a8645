package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHealthReadinessAndIndex(t *testing.T) {
	var probeErr error
	e := newEnv(t, func(c *envConfig) { c.probe = func(context.Context) error { return probeErr } })
	status, m := e.do("GET", "/healthz", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"status": "ok"}, m)
	status, m = e.do("GET", "/readyz", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"status": "ready"}, m)

	probeErr = errors.New("dial tcp 10.0.0.5:5432: connection refused")
	status, h, m := e.exchange("GET", "/readyz", nil, "")
	require.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "unavailable", m["status"])
	assert.NotContains(t, m["detail"], "10.0.0.5", "the cause stays in the log")
	assert.Contains(t, e.logs.String(), "10.0.0.5")
	assert.Equal(t, "application/json", h.Get("Content-Type"))
	_, m = e.do("GET", "/v1/guardian/status", nil, "")
	assert.Equal(t, "degraded", m["status"])
	status, _ = e.do("GET", "/healthz", nil, "")
	assert.Equal(t, http.StatusOK, status, "liveness does not depend on the store")

	status, m = e.do("GET", "/", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, platform.Version(), m["version"])
	links := m["links"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/v1/guardian/status", links["status"])
	assert.Equal(t, e.srv.URL+"/v1/openapi.json", links["openapi"])
	assert.Equal(t, e.srv.URL+"/healthz", links["health"])
}

func TestWrongMethodIs405WithAllow(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ method, path, allow string }{
		{"DELETE", "/v1/agents/me", "GET, HEAD"},
		{"POST", "/v1/billing/pricing", "GET, HEAD"},
		{"GET", "/v1/agents/register", "POST"},
		{"PATCH", "/v1/agents/limits", "GET, HEAD, PUT"},
		{"GET", "/v1/guardian/report", "POST"},
		{"DELETE", "/v1/admin/agents/agt_x/mode", "PUT"},
	}
	for _, c := range cases {
		status, h, m := e.exchange(c.method, c.path, nil, "")
		assert.Equal(t, http.StatusMethodNotAllowed, status, "%s %s", c.method, c.path)
		assert.Equal(t, c.allow, h.Get("Allow"), "%s %s", c.method, c.path)
		assert.Equal(t, "method_not_allowed", m["code"])
		assert.Contains(t, m["detail"], "allowed: "+c.allow)
	}
	status, h, _ := e.exchange("GET", "/v1/no/such/route", nil, "")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Empty(t, h.Get("Allow"))
}

func TestUnknownQueryParametersAreRefused(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	status, m := e.do("GET", "/v1/billing/transactions?limit=5&offset=10", key(k), "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, `Unknown query parameter: "offset" (allowed: limit, cursor)`, m["detail"])
	status, m = e.do("GET", "/v1/guardian/status?verbose=1", nil, "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, `Unknown query parameter: "verbose" (allowed: none)`, m["detail"])
	status, _ = e.do("GET", "/v1/billing/transactions?limit=5", key(k), "")
	assert.Equal(t, http.StatusOK, status)
}

func TestCORS(t *testing.T) {
	preflight := func(e *env, origin string) *http.Response {
		t.Helper()
		req, err := http.NewRequest("OPTIONS", e.srv.URL+"/v1/agents/me", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "content-type,x-api-key") // as browsers send it: lower case, sorted
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	off := newEnv(t)
	res := preflight(off, "https://app.example.com")
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "CORS is off by default")
	assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))

	on := newEnv(t, func(c *envConfig) { c.api.CORS = &httpapi.CORS{AllowedOrigins: []string{"https://app.example.com"}} })
	res = preflight(on, "https://app.example.com")
	assert.Equal(t, http.StatusNoContent, res.StatusCode)
	assert.Equal(t, "https://app.example.com", res.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "content-type,x-api-key", res.Header.Get("Access-Control-Allow-Headers"))
	assert.Equal(t, "600", res.Header.Get("Access-Control-Max-Age"))
	res = preflight(on, "https://evil.example.net")
	assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), "other origins get no grant")

	_, h, _ := on.exchange("GET", "/v1/billing/pricing", map[string]string{"Origin": "https://app.example.com"}, "")
	assert.Equal(t, "https://app.example.com", h.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, h.Get("Access-Control-Expose-Headers"), "Ratelimit-Remaining")
}
