//go:build cluster

// The cluster acceptance test (issue 28, item 4) and the failover test
// (item 3). They need PostgreSQL (TOOLKIT_TEST_POSTGRES_URL), HAProxy
// (scripts/cluster/up installs the Debian package as root) and the
// PostgreSQL server binaries, and print figures:
//
//	go test -tags cluster -run 'Cluster|Failover' -v ./examples/server
//
// .ci/run runs them time-boxed, with TOOLKIT_REQUIRE_CLUSTER=1.
package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clusterFlags keep the limits out of the way of the load (but every
// bucket still lives in the database, so its cost is in the figures),
// except guardian reports: 10 an hour per client address, shared.
var clusterFlags = []string{"-rate-key", "100000/m", "-rate-ip", "100000/m", "-rate-register", "1000/h",
	"-rate-auth-failures", "10000/m", "-rate-report", "10/h"}

var adminHeader = map[string]string{"X-Admin-Key": testAdminKey}

// TestClusterAcceptance: three servers behind HAProxy on one Postgres,
// started and stopped by scripts/cluster/up and down.
func TestClusterAcceptance(t *testing.T) {
	c := startCluster(t, clusterFlags...)
	t.Run("guardian metrics sum every server", c.metricsSumEveryServer)
	t.Run("500 debits race through the balancer", c.race500)
	t.Run("MCP without affinity", c.mcpWithoutAffinity)
	t.Run("rotated key refused by every server", c.rotatedKeyRefusedEverywhere)
	t.Run("rate limits shared", c.rateLimitsShared)
	agents := c.loadAgents(16)
	t.Run("throughput 3 servers vs 1", func(t *testing.T) { c.throughput(t, agents) })
	t.Run("server killed mid-load", func(t *testing.T) { c.killedMidLoad(t, agents) })
	t.Run("rolling restart drains", func(t *testing.T) { c.rollingRestart(t, agents) })
	t.Run("books and charges", func(t *testing.T) {
		c.db.booksHold(t)
		for _, a := range agents {
			assert.Equal(t, a.ok.Load(), c.db.charges(t, a.id), "agent %s: every 200 charged once, nothing else", a.id)
		}
	})
	t.Run("down stops everything", c.downStopsEverything)
}

// metricsSumEveryServer: tool calls made on each server directly are all
// in the admin metrics read on any one of them.
func (c *testCluster) metricsSumEveryServer(t *testing.T) {
	key, _ := funded(t, c.lb, "metrics", "1.00")
	for _, s := range c.servers {
		for range 10 {
			status, body := post(http.DefaultClient, s.base, key, "")
			require.Equal(t, http.StatusOK, status, body)
		}
	}
	start := time.Now()
	var got any
	for time.Since(start) < 20*time.Second {
		status, m := c.servers[2].call("GET", "/v1/guardian/metrics", adminHeader, "")
		require.Equal(t, http.StatusOK, status, m)
		if got = m["total_tool_calls_24h"]; got == float64(30) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("FIGURE cluster metrics: 10 calls on each of 3 servers; total_tool_calls_24h on one server = %v after %v",
		got, time.Since(start).Round(100*time.Millisecond))
	assert.Equal(t, float64(30), got, "the guardian's count sums every server")
}

// race500: 500 concurrent debits of 0.003 on 1.00 through the balancer.
func (c *testCluster) race500(t *testing.T) {
	key, _ := funded(t, c.lb, "race", "1.00")
	var ok, poor, other atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 500 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch status, _ := post(http.DefaultClient, c.lb.base, key, ""); status {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusPaymentRequired:
				poor.Add(1)
			default:
				other.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("FIGURE cluster race: 500 concurrent debits through HAProxy in %v: %d succeeded, %d got 402, %d other",
		time.Since(start).Round(time.Millisecond), ok.Load(), poor.Load(), other.Load())
	assert.Equal(t, int64(333), ok.Load())
	assert.Equal(t, int64(167), poor.Load())
	assert.Zero(t, other.Load())
	status, bal := c.lb.call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": key}, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.001", bal["sandbox_balance"])
	c.db.booksHold(t)
}

// mcpWithoutAffinity: an MCP client over streamable HTTP makes 50 priced
// calls through the round-robin balancer, its requests landing on every
// server; legacy SSE works through the balancer's affinity backend.
func (c *testCluster) mcpWithoutAffinity(t *testing.T) {
	key, _ := funded(t, c.lb, "mcp", "1.00")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rec := &servedBy{key: key}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cluster", Version: "0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: c.lb.base + "/mcp", HTTPClient: &http.Client{Transport: rec}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	args := map[string]any{"equity": "100000", "entry_price": "185.50", "stop_price": "180.00", "direction": "long"}
	for i := range 50 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_position_size", Arguments: args,
			Meta: mcp.Meta{"idempotency_key": fmt.Sprintf("mcp-%d", i)}})
		require.NoError(t, err, "call %d", i)
		require.False(t, res.IsError, "call %d: %v", i, res.Content)
		assert.Equal(t, "0.003", fmt.Sprint(res.Meta["charged"]), "call %d", i)
	}
	counts := rec.counts()
	t.Logf("FIGURE cluster MCP: 50 priced calls over streamable HTTP through HAProxy; requests per server %v", counts)
	assert.Len(t, counts, 3, "round robin, no affinity: every server answered")
	for s, n := range counts {
		assert.GreaterOrEqual(t, n, 15, "server %s", s)
	}
	status, bal := c.lb.call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": key}, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.85", bal["sandbox_balance"], "50 calls charged once each")

	sse := &servedBy{key: key}
	ss, err := mcp.NewClient(&mcp.Implementation{Name: "cluster-sse", Version: "0"}, nil).Connect(ctx,
		&mcp.SSEClientTransport{Endpoint: c.lb.base + "/mcp/sse", HTTPClient: &http.Client{Transport: sse}}, nil)
	require.NoError(t, err)
	defer ss.Close()
	for i := range 5 {
		res, err := ss.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_position_size", Arguments: args})
		require.NoError(t, err, "SSE call %d", i)
		require.False(t, res.IsError, "SSE call %d: %v", i, res.Content)
	}
	assert.Len(t, sse.counts(), 1, "legacy SSE is pinned to one server by the balancer: %v", sse.counts())
}

// rotatedKeyRefusedEverywhere: a key rotated on one server is refused by
// every server within a second; the new key works everywhere.
func (c *testCluster) rotatedKeyRefusedEverywhere(t *testing.T) {
	old, _ := register(t, c.lb, "rotate")
	for _, s := range c.servers {
		status, m := s.call("GET", "/v1/agents/me", map[string]string{"X-API-Key": old}, "")
		require.Equal(t, http.StatusOK, status, m)
	}
	status, m := c.servers[0].call("POST", "/v1/agents/rotate-key", map[string]string{"X-API-Key": old}, "")
	require.Equal(t, http.StatusOK, status, m)
	rotated := time.Now()
	refusedAfter := make([]time.Duration, len(c.servers))
	var wg sync.WaitGroup
	for i, s := range c.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(rotated) < 5*time.Second {
				req, _ := http.NewRequest("GET", s.base+"/v1/agents/me", nil)
				req.Header.Set("X-API-Key", old)
				if res, err := http.DefaultClient.Do(req); err == nil {
					res.Body.Close()
					if res.StatusCode == http.StatusUnauthorized {
						refusedAfter[i] = time.Since(rotated)
						return
					}
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	t.Logf("FIGURE cluster rotation: old key refused by each server after %v", refusedAfter)
	for i, d := range refusedAfter {
		assert.NotZero(t, d, "server %d refuses the old key", i+1)
		assert.Less(t, d, time.Second, "server %d refuses the old key within a second", i+1)
	}
	for _, s := range c.servers {
		status, _ := s.call("GET", "/v1/agents/me", map[string]string{"X-API-Key": m["api_key"].(string)}, "")
		assert.Equal(t, http.StatusOK, status, "the new key works on %s", s.base)
	}
}

// rateLimitsShared: 10 guardian reports an hour per address, shared: 30
// through the balancer (10 per server) let exactly 10 in.
func (c *testCluster) rateLimitsShared(t *testing.T) {
	statuses := map[int]int{}
	body := `{"agent_id":"agt_cluster","report_type":"error","description":"shared limit check"}`
	for range 30 {
		status, _ := c.lb.call("POST", "/v1/guardian/report", nil, body)
		statuses[status]++
	}
	t.Logf("FIGURE cluster rate limits: 30 reports (limit 10/h per address) through HAProxy: %v", statuses)
	assert.Equal(t, map[int]int{http.StatusOK: 10, http.StatusTooManyRequests: 20}, statuses)
	for _, s := range c.servers {
		status, _ := s.call("POST", "/v1/guardian/report", nil, body)
		assert.Equal(t, http.StatusTooManyRequests, status, "%s shares the empty bucket", s.base)
	}
}

// downStopsEverything: scripts/cluster/down ends HAProxy and every server.
func (c *testCluster) downStopsEverything(t *testing.T) {
	pids := []int{c.pid(1), c.pid(2), c.pid(3)}
	c.script("down")
	for _, pid := range pids {
		assert.Error(t, processAlive(pid), "server pid %d is gone", pid)
	}
	_, err := http.Get(c.lb.base + "/healthz")
	assert.Error(t, err, "HAProxy no longer listens")
}
