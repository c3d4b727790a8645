package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"

	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testAdminKey = "test-admin-key-of-at-least-32-characters"

// syncBuffer collects the server's output while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is one running reference server.
type server struct {
	t      *testing.T
	base   string
	out    *syncBuffer
	stop   func()
	client *http.Client // http.DefaultClient, or one trusting the test CA over HTTPS
}

// startServer runs the reference server with args (and the test admin
// key, and a key file in a temporary directory unless args name one) until
// stop or the end of the test.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	return startServerWith(t, http.DefaultClient, args...)
}

// startServerWith is startServer calling the server with client, over
// HTTPS when args name -tls-cert.
func startServerWith(t *testing.T, client *http.Client, args ...string) *server {
	t.Helper()
	if !slices.Contains(args, "-keys") {
		args = append(args, "-keys", filepath.Join(t.TempDir(), "keys.json"))
	}
	if !slices.Contains(args, "-metrics-addr") {
		args = append(args, "-metrics-addr", "off") // the default port is shared by every test process
	}
	cfg, err := parseConfig(args, func(k string) string { return map[string]string{"TOOLKIT_ADMIN_KEY": testAdminKey}[k] })
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	scheme := "http"
	if slices.Contains(args, "-tls-cert") {
		scheme = "https"
	}
	s := &server{t: t, base: scheme + "://" + ln.Addr().String(), out: &syncBuffer{}, client: client}
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ln, s.out) }()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				require.NoError(t, err, "graceful shutdown")
			case <-time.After(20 * time.Second):
				t.Fatal("server did not shut down")
			}
		})
	}
	t.Cleanup(s.stop)
	waitReadyWith(t, client, s.base)
	return s
}

// call sends a request with optional headers and decodes the JSON answer.
func (s *server) call(method, path string, headers map[string]string, body string) (int, map[string]any) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	require.NoError(s.t, err)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := s.client.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	var m map[string]any
	require.NoError(s.t, json.NewDecoder(res.Body).Decode(&m))
	return res.StatusCode, m
}

var metricsLine = regexp.MustCompile(`metrics on (http://\S+/metrics)`)

// TestFreshServerOperations: a fresh reference server exposes health,
// readiness, status and metrics; an attack (a key spray, a registration
// flood, a claim on another owner) is visible to the admin as aggregated
// events, stored at shutdown at the latest.
func TestFreshServerOperations(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toolkit.db")
	s := startServer(t, "-db", db, "-metrics-addr", "127.0.0.1:0", "-rate-register", "3/h", "-rate-auth-failures", "5/m")
	for _, path := range []string{"/healthz", "/readyz", "/v1/guardian/status", "/"} {
		status, m := s.call("GET", path, nil, "")
		assert.Equal(t, http.StatusOK, status, "%s: %v", path, m)
	}
	_, st := s.call("GET", "/v1/guardian/status", nil, "")
	assert.Equal(t, "operational", st["status"])
	assert.Equal(t, platform.Version(), st["version"], "the build's version")

	codes := map[int]int{}
	for i := range 8 {
		status, _ := s.call("GET", "/v1/agents/me", map[string]string{"X-API-Key": fmt.Sprintf("aft_agent_%040d", i)}, "")
		codes[status]++
	}
	assert.Equal(t, map[int]int{http.StatusUnauthorized: 5, http.StatusTooManyRequests: 3}, codes)
	created := 0
	for i := range 5 {
		if status, _ := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"o`+fmt.Sprint(i)+`","agent_name":"b","agent_type":"risk"}`); status == http.StatusCreated {
			created++
		}
	}
	assert.Equal(t, 3, created)

	m := metricsLine.FindStringSubmatch(s.out.String())
	require.NotNil(t, m, "the metrics address is printed: %s", s.out.String())
	res, err := http.Get(m[1])
	require.NoError(t, err)
	scrape, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	for _, want := range []string{
		`toolkit_http_requests_total{code="401",route="GET /v1/agents/me"} 5`,
		`toolkit_rate_limited_total{limit="auth_failures"} 3`,
		`toolkit_rate_limited_total{limit="register"} 2`,
		`go_goroutines `,
	} {
		assert.Contains(t, string(scrape), want)
	}
	status, _ := s.call("GET", "/metrics", nil, "")
	assert.Equal(t, http.StatusNotFound, status, "metrics are not served on the API address")

	s.stop() // the open windows are stored at shutdown
	s = startServer(t, "-db", db, "-metrics-addr", "off")
	status, events := s.call("GET", "/v1/guardian/events", map[string]string{"X-Admin-Key": testAdminKey}, "")
	require.Equal(t, http.StatusOK, status, events)
	counts := map[string]float64{}
	for _, e := range events["events"].([]any) {
		e := e.(map[string]any)
		counts[e["type"].(string)] += e["count"].(float64)
	}
	assert.Equal(t, map[string]float64{string(guardian.TypeAuthFailure): 5, string(guardian.TypeRateLimited): 5}, counts)
	assert.Equal(t, 3.0, events["count"], "one event per burst: the failures, and the two limits")
}

// TestInstancesShareRateLimits runs two servers on one database: with
// -rate-store their registrations draw from one bucket per address.
func TestInstancesShareRateLimits(t *testing.T) {
	dbs := map[string]func(t *testing.T) string{
		"sqlite": func(t *testing.T) string { return filepath.Join(t.TempDir(), "toolkit.db") },
		"postgres": func(t *testing.T) string {
			dsn := bunstoretest.PostgresURL(t)
			return dsn + "&search_path=" + bunstoretest.FreshSchema(t, dsn)
		},
	}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			dsn := db(t)
			register := func(s *server, owner string) int {
				status, _ := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"`+owner+`","agent_name":"b","agent_type":"risk"}`)
				return status
			}
			shared := []*server{
				startServer(t, "-db", dsn, "-metrics-addr", "off", "-rate-register", "4/h", "-rate-store"),
				startServer(t, "-db", dsn, "-metrics-addr", "off", "-rate-register", "4/h", "-rate-store"),
			}
			created := 0
			for i := range 10 {
				if register(shared[i%2], fmt.Sprint(name, "-shared-", i)) == http.StatusCreated {
					created++
				}
			}
			assert.Equal(t, 4, created, "two instances, one limit")

			separate := []*server{
				startServer(t, "-db", dsn, "-metrics-addr", "off", "-rate-register", "4/h"),
				startServer(t, "-db", dsn, "-metrics-addr", "off", "-rate-register", "4/h"),
			}
			created = 0
			for i := range 10 {
				if register(separate[i%2], fmt.Sprint(name, "-separate-", i)) == http.StatusCreated {
					created++
				}
			}
			assert.Equal(t, 8, created, "without -rate-store each instance counts on its own")
		})
	}
}

func TestParseOperationFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	cfg, err := parseConfig(nil, noEnv)
	require.NoError(t, err)
	assert.Equal(t, httpapi.DefaultRateLimits.PerKey, cfg.ops.rateLimits.PerKey)
	assert.Equal(t, "127.0.0.1:9090", cfg.ops.metricsAddr)
	assert.Nil(t, cfg.ops.cors)
	assert.False(t, cfg.ops.rateStore)
	assert.Equal(t, 25*time.Second, cfg.ops.mcpKeepAlive)
	assert.Equal(t, 15*time.Second, cfg.ops.shutdownTimeout)

	cfg, err = parseConfig([]string{"-rate-key", "10/s", "-rate-register", "off", "-metrics-addr", "off",
		"-trusted-proxy-header", "X-Forwarded-For", "-trusted-proxies", "10.0.0.0/8, 192.168.0.0/16", "-shutdown-timeout", "40s"}, func(k string) string {
		return map[string]string{"TOOLKIT_CORS_ORIGINS": "https://a.example.com,https://b.example.com", "TOOLKIT_RATE_STORE": "true",
			"TOOLKIT_MCP_KEEPALIVE": "10s"}[k]
	})
	require.NoError(t, err)
	assert.Equal(t, guardian.NewLimit(10, time.Second), cfg.ops.rateLimits.PerKey)
	assert.True(t, cfg.ops.rateLimits.Register.IsUnlimited())
	assert.Empty(t, cfg.ops.metricsAddr)
	assert.True(t, cfg.ops.rateStore)
	assert.Equal(t, "X-Forwarded-For", cfg.ops.trustedProxy.Header)
	assert.Len(t, cfg.ops.trustedProxy.Proxies, 2)
	assert.Equal(t, []string{"https://a.example.com", "https://b.example.com"}, cfg.ops.cors.AllowedOrigins)
	assert.Equal(t, 10*time.Second, cfg.ops.mcpKeepAlive)
	assert.Equal(t, 40*time.Second, cfg.ops.shutdownTimeout)
	cfg, err = parseConfig([]string{"-mcp-keepalive", "off"}, noEnv)
	require.NoError(t, err)
	assert.Negative(t, cfg.ops.mcpKeepAlive, "off: never")

	for _, bad := range [][]string{
		{"-rate-ip", "lots"},
		{"-rate-auth-failures", "0/m"},
		{"-trusted-proxies", "10.0.0.0/8"},
		{"-trusted-proxy-header", "X-Real-IP", "-trusted-proxies", "10.0.0.1"},
		{"-mcp-keepalive", "0s"},
		{"-mcp-keepalive", "soon"},
		{"-shutdown-timeout", "-1s"},
	} {
		_, err := parseConfig(bad, noEnv)
		assert.Error(t, err, "%v", bad)
	}
}

// TestTamperedCiphertextIsAnEmergency: a sealed ticket description edited
// in the database fails to open (500) and the admin sees an emergency
// alert naming the agent.
func TestTamperedCiphertextIsAnEmergency(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toolkit.db")
	s := startServer(t, "-db", db, "-metrics-addr", "off")
	status, reg := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"acme","agent_name":"b","agent_type":"risk"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	key := map[string]string{"X-API-Key": reg["api_key"].(string)}
	status, ticket := s.call("POST", "/v1/support/ticket", key,
		`{"subject":"Wrong result","description":"Kelly returned 2.0","priority":"high","category":"tool_error"}`)
	require.Equal(t, http.StatusCreated, status, ticket)

	raw, err := bunstore.OpenSQLiteDB(db)
	require.NoError(t, err)
	_, err = raw.Exec("UPDATE support_tickets SET description = subject") // a ciphertext moved to another column
	require.NoError(t, err)
	require.NoError(t, raw.Close())
	status, _ = s.call("GET", "/v1/support/ticket/"+ticket["ticket_id"].(string), key, "")
	require.Equal(t, http.StatusInternalServerError, status)

	s.stop()
	s = startServer(t, "-db", db, "-metrics-addr", "off")
	status, alerts := s.call("GET", "/v1/guardian/alerts", map[string]string{"X-Admin-Key": testAdminKey}, "")
	require.Equal(t, http.StatusOK, status, alerts)
	require.Equal(t, 1.0, alerts["count"], "%v", alerts)
	alert := alerts["alerts"].([]any)[0].(map[string]any)
	assert.Equal(t, "ciphertext_tampered", alert["type"])
	assert.Equal(t, "emergency", alert["severity"])
	assert.Equal(t, reg["agent_id"], alert["agent_id"])
}
