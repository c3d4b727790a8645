//go:build cluster

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testCluster is a cluster started by scripts/cluster/up for one test:
// servers on one fresh Postgres schema behind HAProxy.
type testCluster struct {
	t       *testing.T
	dir     string
	port    int
	env     []string
	lb      *server   // through HAProxy
	servers []*server // each server directly
	db      faultDB
}

// clusterPortsFree reports whether every port the cluster would use from
// base is free: HAProxy, its stats and admin socket, each server and its
// metrics.
func clusterPortsFree(base, servers int) bool {
	ports := []int{base, base + 10, base + 11}
	for i := 1; i <= servers; i++ {
		ports = append(ports, base+i, base+1000+i)
	}
	for _, p := range ports {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return false
		}
		ln.Close()
	}
	return true
}

// startCluster runs scripts/cluster/up with three servers on a fresh
// schema of TOOLKIT_TEST_POSTGRES_URL, the extra server flags given, and
// scripts/cluster/down when the test ends.
func startCluster(t *testing.T, flags ...string) *testCluster {
	if _, err := exec.LookPath("haproxy"); err != nil && os.Geteuid() != 0 {
		requireOrSkip(t, "haproxy is not installed and only root may install it (apt-get install haproxy)")
	}
	c := &testCluster{t: t, dir: t.TempDir(), db: postgresFaultDB(t)}
	start := time.Now()
	// Another process of this machine may take a port between the check
	// and the bind: then the cluster is stopped and tried on other ports.
	for attempt := 1; ; attempt++ {
		c.port = freeClusterPorts(t)
		c.env = append(os.Environ(), "TOOLKIT_CLUSTER_DIR="+c.dir, "TOOLKIT_CLUSTER_PORT="+strconv.Itoa(c.port),
			"TOOLKIT_CLUSTER_SERVERS=3", "TOOLKIT_CLUSTER_DB="+c.db.dsn, "TOOLKIT_ADMIN_KEY="+testAdminKey,
			"TOOLKIT_CLUSTER_FLAGS="+strings.Join(flags, " "))
		out, err := c.run("up")
		if err == nil {
			break
		}
		c.script("down")
		require.True(t, attempt < 3 && strings.Contains(strings.ToLower(out), "address already in use"),
			"scripts/cluster/up: %v: %s", err, out)
	}
	t.Cleanup(func() { c.script("down") })
	t.Logf("FIGURE cluster: scripts/cluster/up (build, 3 servers, HAProxy, health checks UP) took %v", time.Since(start).Round(100*time.Millisecond))
	c.lb = &server{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", c.port), client: http.DefaultClient}
	for i := 1; i <= 3; i++ {
		c.servers = append(c.servers, &server{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", c.port+i), client: http.DefaultClient})
	}
	return c
}

// freeClusterPorts picks a base port whose cluster ports are free, below
// the ephemeral range (32768 and up) that outgoing connections take.
func freeClusterPorts(t *testing.T) int {
	for range 50 {
		if p := 10000 + 20*rand.IntN(1000); clusterPortsFree(p, 3) {
			return p
		}
	}
	t.Fatal("no free ports for the cluster")
	return 0
}

// run runs scripts/cluster/NAME with the cluster's environment.
func (c *testCluster) run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join("..", "..", "scripts", "cluster", name), args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// script runs scripts/cluster/NAME and fails the test when it fails.
func (c *testCluster) script(name string, args ...string) {
	c.t.Helper()
	out, err := c.run(name, args...)
	require.NoError(c.t, err, "scripts/cluster/%s: %s", name, out)
}

// pid is the process id of server i (1-based).
func (c *testCluster) pid(i int) int {
	b, err := os.ReadFile(filepath.Join(c.dir, fmt.Sprintf("server-%d.pid", i)))
	require.NoError(c.t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(c.t, err)
	return pid
}

// kill ends server i at once (SIGKILL: no drain, no goodbye).
func (c *testCluster) kill(i int) {
	require.NoError(c.t, syscall.Kill(c.pid(i), syscall.SIGKILL))
}

// admin sends a command to HAProxy's admin socket.
func (c *testCluster) admin(command string) string {
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", c.port+11))
	require.NoError(c.t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, command+"\n")
	require.NoError(c.t, err)
	b, err := io.ReadAll(conn)
	require.NoError(c.t, err)
	return string(b)
}

// serving is how many servers HAProxy has UP in the main backend.
func (c *testCluster) serving() int {
	n := 0
	for _, line := range strings.Split(c.admin("show stat"), "\n") {
		f := strings.Split(line, ",")
		if len(f) > 17 && f[0] == "toolkit" && strings.HasPrefix(f[1], "s") && strings.HasPrefix(f[17], "UP") {
			n++
		}
	}
	return n
}

// retries is HAProxy's count of retried and redispatched requests in the
// main backend.
func (c *testCluster) retries() (retried, redispatched int) {
	for _, line := range strings.Split(c.admin("show stat"), "\n") {
		f := strings.Split(line, ",")
		if len(f) > 17 && f[0] == "toolkit" && f[1] == "BACKEND" {
			retried, _ = strconv.Atoi(f[15])
			redispatched, _ = strconv.Atoi(f[16])
		}
	}
	return retried, redispatched
}

// servedBy records which server answered each request through HAProxy
// (its X-Served-By header), and adds the agent's key to each.
type servedBy struct {
	key  string
	mu   sync.Mutex
	seen []string
}

// RoundTrip adds the key and records the answering server.
func (s *servedBy) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-API-Key", s.key)
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		s.mu.Lock()
		s.seen = append(s.seen, res.Header.Get("X-Served-By"))
		s.mu.Unlock()
	}
	return res, err
}

// counts is how many requests each server answered.
func (s *servedBy) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int{}
	for _, v := range s.seen {
		m[v]++
	}
	return m
}

// register registers an agent through s and returns its key and id.
func register(t *testing.T, s *server, owner string) (key, id string) {
	status, reg := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"`+owner+`","agent_name":"c","agent_type":"trading"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	return reg["api_key"].(string), reg["agent_id"].(string)
}
