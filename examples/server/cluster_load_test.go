//go:build cluster

package main

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadAgent is a funded agent of the load phases, with the count of its
// calls answered 200 (each must be charged exactly once).
type loadAgent struct {
	key, id string
	ok      atomic.Int64
}

// loadAgents registers and funds n agents through the balancer.
func (c *testCluster) loadAgents(n int) []*loadAgent {
	out := make([]*loadAgent, n)
	for i := range out {
		key, id := funded(c.t, c.lb, fmt.Sprintf("load-%d", i), "100")
		out[i] = &loadAgent{key: key, id: id}
	}
	return out
}

// loadResult is what a load run got.
type loadResult struct {
	mu       sync.Mutex
	statuses map[int]int // 0: no answer (a transport error)
	calls    int
	elapsed  time.Duration
}

func (r *loadResult) perSecond() float64 {
	return float64(r.statuses[http.StatusOK]) / r.elapsed.Seconds()
}

// load runs one client per agent through the balancer until stop closes:
// sizing calls, keyed (Idempotency-Key prefix-client-n) when prefix is
// not empty.
func (c *testCluster) load(agents []*loadAgent, prefix string, stop <-chan struct{}) *loadResult {
	r := &loadResult{statuses: map[int]int{}}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: len(agents)}}
	var wg sync.WaitGroup
	start := time.Now()
	for i, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				idem := ""
				if prefix != "" {
					idem = fmt.Sprintf("%s-%d-%d", prefix, i, n)
				}
				status, _ := post(client, c.lb.base, a.key, idem)
				if status == http.StatusOK {
					a.ok.Add(1)
				}
				r.mu.Lock()
				r.statuses[status]++
				r.calls++
				r.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	return r
}

// loadFor runs load for d.
func (c *testCluster) loadFor(agents []*loadAgent, prefix string, d time.Duration) *loadResult {
	stop := make(chan struct{})
	time.AfterFunc(d, func() { close(stop) })
	return c.load(agents, prefix, stop)
}

// throughput measures metered calls per second through the balancer
// with the three servers, then with one (the other two disabled in
// HAProxy). Reported, never asserted: the machine is shared.
func (c *testCluster) throughput(t *testing.T, agents []*loadAgent) {
	three := c.loadFor(agents, "", 3*time.Second)
	for _, s := range []string{"s2", "s3"} {
		c.admin("disable server toolkit/" + s)
	}
	one := c.loadFor(agents, "", 3*time.Second)
	for _, s := range []string{"s2", "s3"} {
		c.admin("enable server toolkit/" + s)
	}
	require.Eventually(t, func() bool { return c.serving() == 3 }, 10*time.Second, 100*time.Millisecond)
	t.Logf("FIGURE cluster throughput: %d clients, metered sizing through HAProxy: 3 servers %.0f calls/s, 1 server %.0f calls/s (x%.2f); answers %v and %v",
		len(agents), three.perSecond(), one.perSecond(), three.perSecond()/one.perSecond(), three.statuses, one.statuses)
	for _, r := range []*loadResult{three, one} {
		assert.Equal(t, r.calls, r.statuses[http.StatusOK], "every call answered 200: %v", r.statuses)
	}
}

// killedMidLoad: one server is killed (SIGKILL) under keyed load: the
// balancer retries what it sent there on the others, so clients see no
// 5xx and no broken connection; then the server is started again.
func (c *testCluster) killedMidLoad(t *testing.T, agents []*loadAgent) {
	stop := make(chan struct{})
	retried, redispatched := c.retries()
	time.AfterFunc(1500*time.Millisecond, func() { c.kill(2) })
	time.AfterFunc(4*time.Second, func() { close(stop) })
	r := c.load(agents, "kill", stop)
	retriedAfter, redispatchedAfter := c.retries()
	t.Logf("FIGURE cluster kill: server 2 killed (SIGKILL) 1.5 s into a %v load of %d keyed clients through HAProxy: %d calls, answers %v; HAProxy retried %d and redispatched %d",
		r.elapsed.Round(time.Millisecond), len(agents), r.calls, r.statuses, retriedAfter-retried, redispatchedAfter-redispatched)
	for status, n := range r.statuses {
		assert.True(t, status == http.StatusOK, "status %d seen %d times: only 200s reach the clients", status, n)
	}
	start := time.Now()
	c.script("restart", "2")
	require.Eventually(t, func() bool { return c.serving() == 3 }, 20*time.Second, 100*time.Millisecond)
	t.Logf("FIGURE cluster kill: server 2 started again and UP in HAProxy after %v", time.Since(start).Round(100*time.Millisecond))
}

// rollingRestart: server 1 is drained, stopped gracefully and started
// again under load without idempotency keys: every call is answered 200.
func (c *testCluster) rollingRestart(t *testing.T, agents []*loadAgent) {
	stop := make(chan struct{})
	var took time.Duration
	go func() {
		defer close(stop)
		time.Sleep(500 * time.Millisecond)
		start := time.Now()
		c.script("restart", "1")
		took = time.Since(start)
		time.Sleep(500 * time.Millisecond)
	}()
	r := c.load(agents, "", stop)
	require.Eventually(t, func() bool { return c.serving() == 3 }, 20*time.Second, 100*time.Millisecond)
	t.Logf("FIGURE cluster rolling restart: server 1 drained, restarted and back in %v under load of %d clients without keys: %d calls, answers %v",
		took.Round(100*time.Millisecond), len(agents), r.calls, r.statuses)
	assert.Equal(t, r.calls, r.statuses[http.StatusOK], "every call answered 200 while a server restarts")
}

// processAlive reports whether pid runs (nil) or not.
func processAlive(pid int) error { return syscall.Kill(pid, 0) }
