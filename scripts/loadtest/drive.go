package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// scenario is one measured load: request builds the n-th request of a
// worker.
type scenario struct {
	name    string
	request func(ctx context.Context, worker, n int) (*http.Request, error)
}

// get is a scenario request without credentials.
func get(url string) func(context.Context, int, int) (*http.Request, error) {
	return func(ctx context.Context, _, _ int) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	}
}

// post is a scenario request sending body as the agent keys[worker %
// len(keys)], so the workers spread evenly over the agents.
func post(url, body string, keys []string) func(context.Context, int, int) (*http.Request, error) {
	return func(ctx context.Context, worker, _ int) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", keys[worker%len(keys)])
		return req, nil
	}
}

// result is what the workers of one scenario observed.
type result struct {
	name      string
	elapsed   time.Duration
	latencies []time.Duration // of the answered requests, sorted
	statuses  map[int]int     // status -> count; 0 counts transport errors
	firstErr  error           // the first transport error or non-2xx answer
}

// rate is the successful (2xx) answers per second.
func (r result) rate() float64 {
	ok := 0
	for c, n := range r.statuses {
		if c >= 200 && c < 300 {
			ok += n
		}
	}
	return float64(ok) / r.elapsed.Seconds()
}

// percentile is the latency at fraction p (0..1) of the sorted latencies.
func (r result) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
}

func (r result) line(label string) string {
	codes := make([]int, 0, len(r.statuses))
	for c := range r.statuses {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var st []string
	for _, c := range codes {
		name := fmt.Sprint(c)
		if c == 0 {
			name = "error"
		}
		st = append(st, fmt.Sprintf("%s:%d", name, r.statuses[c]))
	}
	s := fmt.Sprintf("%s  %-40s %9.0f req/s  p50 %8s  p99 %8s  status %s", labelOr(label), r.name, r.rate(),
		r.percentile(0.50).Round(10*time.Microsecond), r.percentile(0.99).Round(10*time.Microsecond), strings.Join(st, " "))
	if r.firstErr != nil {
		s += fmt.Sprintf("  (first error: %v)", r.firstErr)
	}
	return s
}

// drive runs sc with conns workers, each sending requests back to back for
// d, and gathers the latencies and statuses.
func drive(ctx context.Context, client *http.Client, sc scenario, conns int, d time.Duration) result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := time.Now().Add(d)
	workers := make([]result, conns)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			workers[w] = work(ctx, client, sc, w, deadline)
		}()
	}
	wg.Wait()
	out := result{name: sc.name, elapsed: time.Since(start), statuses: map[int]int{}}
	for _, w := range workers {
		out.latencies = append(out.latencies, w.latencies...)
		for c, n := range w.statuses {
			out.statuses[c] += n
		}
		if out.firstErr == nil {
			out.firstErr = w.firstErr
		}
	}
	sort.Slice(out.latencies, func(i, j int) bool { return out.latencies[i] < out.latencies[j] })
	return out
}

// work is one worker's loop: one request at a time on its connection.
func work(ctx context.Context, client *http.Client, sc scenario, worker int, deadline time.Time) result {
	r := result{statuses: map[int]int{}}
	for n := 0; time.Now().Before(deadline); n++ {
		req, err := sc.request(ctx, worker, n)
		if err != nil {
			r.statuses[0]++
			r.firstErr = err
			return r
		}
		began := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			r.statuses[0]++
			if r.firstErr == nil {
				r.firstErr = err
			}
			continue
		}
		if resp.StatusCode/100 != 2 && r.firstErr == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
			r.firstErr = fmt.Errorf("status %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		r.latencies = append(r.latencies, time.Since(began))
		r.statuses[resp.StatusCode]++
	}
	return r
}
