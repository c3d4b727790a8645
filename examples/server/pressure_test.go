package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSQLiteUnderPressure: 1,500 priced calls with 1,000 in flight on the
// default SQLite store get no 500: each is charged (200) or, when the
// write queue is full, refused with 503 and a Retry-After, uncharged. The
// books add up afterwards.
func TestSQLiteUnderPressure(t *testing.T) {
	if testing.Short() {
		t.Skip("1,500 concurrent calls")
	}
	const calls, inFlight, agents = 1500, 1000, 10
	s := startServer(t, "-db", filepath.Join(t.TempDir(), "toolkit.db"),
		"-rate-key", "off", "-rate-ip", "off", "-rate-register", "off", "-metrics-addr", "off")
	keys := make([]string, agents)
	for i := range keys {
		status, reg := s.call("POST", "/v1/agents/register", nil,
			fmt.Sprintf(`{"owner_id":"pressure-%d","agent_name":"p","agent_type":"trading"}`, i))
		require.Equal(t, http.StatusCreated, status, reg)
		keys[i] = reg["api_key"].(string)
		status, m := s.call("POST", "/v1/billing/deposit", map[string]string{"X-API-Key": keys[i]},
			`{"amount":"10","funding_path":"direct_transfer"}`)
		require.Equal(t, http.StatusOK, status, m)
	}

	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: inFlight, MaxConnsPerHost: inFlight}}
	var ok, busy, bad atomic.Int64
	charged := make([]atomic.Int64, agents)
	var wg sync.WaitGroup
	slots := make(chan struct{}, inFlight)
	var firstBad atomic.Value
	start := time.Now()
	for i := range calls {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			status, retryAfter, body := postSizing(client, s.base, keys[i%agents])
			switch {
			case status == http.StatusOK:
				ok.Add(1)
				charged[i%agents].Add(1)
			case status == http.StatusServiceUnavailable && retryAfter != "":
				busy.Add(1)
			default:
				bad.Add(1)
				firstBad.CompareAndSwap(nil, fmt.Sprintf("%d %s", status, body))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	assert.Zero(t, bad.Load(), "every answer is 200, or 503 with Retry-After; first other: %v", firstBad.Load())
	assert.Equal(t, int64(calls), ok.Load()+busy.Load()+bad.Load())
	for i, key := range keys {
		status, bal := s.call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": key}, "")
		require.Equal(t, http.StatusOK, status, bal)
		got, err := toolkit.ParseAmount(fmt.Sprint(bal["sandbox_balance"]))
		require.NoError(t, err)
		micros, err := got.Micros()
		require.NoError(t, err)
		assert.Equal(t, 10_000_000-3_000*charged[i].Load(), micros, "agent %d: every 200 charged, nothing else", i)
	}
	t.Logf("FIGURE sqlite pressure: %d calls, %d in flight: %d charged, %d busy (503), %d other, in %v (%.0f calls/s)",
		calls, inFlight, ok.Load(), busy.Load(), bad.Load(), elapsed.Round(time.Millisecond), float64(calls)/elapsed.Seconds())
}

// postSizing sends one priced sizing call and returns its status, its
// Retry-After header and its body (status 0: no answer).
func postSizing(client *http.Client, base, key string) (status int, retryAfter, body string) {
	req, err := http.NewRequest("POST", base+"/v1/sizing/calculate",
		strings.NewReader(`{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`))
	if err != nil {
		return 0, "", err.Error()
	}
	req.Header.Set("X-API-Key", key)
	res, err := client.Do(req)
	if err != nil {
		return 0, "", err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), string(b)
}
