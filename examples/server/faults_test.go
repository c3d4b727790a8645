//go:build faults

// The fault suite (robustness issue, item 8): the reference server under
// concurrent debits, killed database connections, a charge whose answer is
// lost, and a graceful shutdown under load, with the books checked in SQL
// after every case. It needs PostgreSQL and prints figures:
//
//	go test -tags faults -run Fault -v ./examples/server
//
// .ci/run runs it time-boxed.
package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sqliteFaultDB(t *testing.T) faultDB {
	path := filepath.Join(t.TempDir(), "toolkit.db")
	db, err := bunstore.OpenSQLiteDB(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return faultDB{name: "sqlite", dsn: path, db: db}
}

// (a) 500 concurrent debits of 0.003 on 1.00: exactly 333 succeed and 167
// get 402, the balance ends at 0.001 and the ledger moved exactly the
// charges — on SQLite, on Postgres, and split over two servers on one
// Postgres.
func TestFaultConcurrentDebits(t *testing.T) {
	for _, c := range []struct {
		name    string
		db      func(*testing.T) faultDB
		servers int
	}{{"sqlite", sqliteFaultDB, 1}, {"postgres", postgresFaultDB, 1}, {"postgres-two-servers", postgresFaultDB, 2}} {
		t.Run(c.name, func(t *testing.T) {
			f := c.db(t)
			var servers []*server
			for range c.servers {
				servers = append(servers, startServer(t, append([]string{"-db", f.dsn}, noLimits...)...))
			}
			key, _ := funded(t, servers[0], "fault-"+c.name, "1.00")
			var ok, poor, other atomic.Int64
			var wg sync.WaitGroup
			start := time.Now()
			for i := range 500 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					switch status, _ := post(http.DefaultClient, servers[i%len(servers)].base, key, ""); status {
					case 200:
						ok.Add(1)
					case 402:
						poor.Add(1)
					default:
						other.Add(1)
					}
				}()
			}
			wg.Wait()
			t.Logf("FIGURE %s: 500 concurrent debits in %v: %d succeeded, %d got 402, %d other",
				c.name, time.Since(start).Round(time.Millisecond), ok.Load(), poor.Load(), other.Load())
			assert.Equal(t, int64(333), ok.Load())
			assert.Equal(t, int64(167), poor.Load())
			assert.Zero(t, other.Load())
			status, bal := servers[0].call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": key}, "")
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, "0.001", bal["sandbox_balance"])
			f.booksHold(t)
		})
	}
}

// (b) Postgres kills the server's connections under load: answers are
// 200 or 503 only (never a 500, never a partial write), and the server
// recovers by itself (the figure: the first 200 after the kill).
func TestFaultTerminatedConnections(t *testing.T) {
	f := postgresFaultDB(t)
	s := startServer(t, append([]string{"-db", f.dsn}, noLimits...)...)
	key, _ := funded(t, s, "fault-terminate", "100")
	var (
		mu        sync.Mutex
		statuses  = map[int]int{}
		killedAt  time.Time
		recovered time.Duration
	)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				status, _ := post(http.DefaultClient, s.base, key, "")
				mu.Lock()
				statuses[status]++
				if status == 200 && !killedAt.IsZero() && recovered == 0 {
					recovered = time.Since(killedAt)
				}
				mu.Unlock()
			}
		}()
	}
	time.Sleep(time.Second)
	var killed int
	require.NoError(t, f.db.QueryRow(`SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'toolkit-fault'`).Scan(&killed))
	mu.Lock()
	killedAt = time.Now()
	mu.Unlock()
	wg.Wait()
	t.Logf("FIGURE terminate: %d server connections killed under load; answers %v; first 200 after the kill in %v", killed, statuses, recovered)
	assert.Positive(t, killed)
	for status := range statuses {
		assert.Contains(t, []int{200, 503}, status, "only successes and 503s")
	}
	assert.Positive(t, recovered)
	// The goal is under a second (the figure above); the bound asserted is
	// loose so that a loaded CI machine measures, rather than fails.
	assert.Less(t, recovered, 5*time.Second, "the server recovers by itself")
	f.booksHold(t)
}

// losingProxy forwards to the server but, for the first request carrying
// Idempotency-Key "lose-me", reads the whole answer and then drops the
// connection without passing it on: the charge committed, the client
// never heard.
func losingProxy(t *testing.T, target string) *httptest.Server {
	var lost atomic.Bool
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequest(r.Method, target+r.URL.RequestURI(), r.Body)
		req.Header = r.Header.Clone()
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if r.Header.Get("Idempotency-Key") == "lose-me" && lost.CompareAndSwap(false, true) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(body)
	}))
}

// (c) a charge whose answer is lost after the debit committed: the retry
// with the same Idempotency-Key answers the identical body, marked as a
// replay, and the call is charged once.
func TestFaultLostAnswerRetried(t *testing.T) {
	f := postgresFaultDB(t)
	s := startServer(t, append([]string{"-db", f.dsn}, noLimits...)...)
	key, _ := funded(t, s, "fault-lost", "1.00")
	proxy := losingProxy(t, s.base)
	defer proxy.Close()
	status, _ := post(http.DefaultClient, proxy.URL, key, "lose-me")
	require.Zero(t, status, "the first answer is lost")
	status, first := post(http.DefaultClient, proxy.URL, key, "lose-me")
	require.Equal(t, http.StatusOK, status)
	status, second := post(http.DefaultClient, proxy.URL, key, "lose-me")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, first, second, "identical body")
	status, bal := s.call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": key}, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.997", bal["sandbox_balance"], "charged once")
	t.Logf("FIGURE lost answer: 3 attempts with one Idempotency-Key, charged once (balance %v)", bal["sandbox_balance"])
	f.booksHold(t)
}

// (d) a graceful shutdown under load loses no request: every call the
// server charged was answered (charges in the ledger = 200s the clients
// received); calls it never took are refused or reset and safe to retry.
func TestFaultGracefulShutdownUnderLoad(t *testing.T) {
	f := postgresFaultDB(t)
	s := startServer(t, append([]string{"-db", f.dsn}, noLimits...)...)
	key, id := funded(t, s, "fault-shutdown", "100")
	var answered, unanswered atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if status, _ := post(http.DefaultClient, s.base, key, ""); status == http.StatusOK {
					answered.Add(1)
				} else if status == 0 {
					unanswered.Add(1)
				}
			}
		}()
	}
	time.Sleep(time.Second)
	s.stop()
	close(stop)
	wg.Wait()
	charged := f.charges(t, id)
	t.Logf("FIGURE shutdown: %d calls charged, %d answered 200, %d not taken after shutdown began, lost %d",
		charged, answered.Load(), unanswered.Load(), charged-answered.Load())
	assert.Equal(t, charged, answered.Load(), "every charged call was answered")
	assert.Positive(t, answered.Load())
	f.booksHold(t)
}
