package guardian

import (
	"sync"
	"time"
)

// latencyBoundsMs are the upper bounds of the latency histogram, in
// milliseconds; a last bucket holds everything slower.
var latencyBoundsMs = []int64{1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000}

// statsSlots is the number of slots the stats window is divided into.
const statsSlots = 15

// requestStats counts requests, server errors and a latency histogram over
// a sliding window made of statsSlots slots. Memory is constant.
type requestStats struct {
	slot  time.Duration
	mu    sync.Mutex
	slots [statsSlots]statsSlot
}

type statsSlot struct {
	index    int64 // which slot of time this is (unix time / slot)
	requests int64
	errors   int64
	maxMs    int64
	hist     [15]int64 // len(latencyBoundsMs) + 1
}

func newRequestStats(window time.Duration) *requestStats {
	return &requestStats{slot: max(window/statsSlots, time.Millisecond)}
}

// observe counts one request answered at now after d.
func (r *requestStats) observe(now time.Time, d time.Duration, serverError bool) {
	idx := now.UnixNano() / int64(r.slot)
	ms := int64((max(d, 0) + time.Millisecond - 1) / time.Millisecond) // rounded up
	b := len(latencyBoundsMs)
	for i, bound := range latencyBoundsMs {
		if d <= time.Duration(bound)*time.Millisecond {
			b = i
			break
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.slots[idx%statsSlots]
	if s.index != idx {
		*s = statsSlot{index: idx}
	}
	s.requests++
	if serverError {
		s.errors++
	}
	s.maxMs = max(s.maxMs, ms)
	s.hist[b]++
}

// requestSnapshot sums the window ending at now.
type requestSnapshot struct {
	requests, errors int64
	p50, p95, p99    int64 // milliseconds
}

func (r *requestStats) snapshot(now time.Time) requestSnapshot {
	idx := now.UnixNano() / int64(r.slot)
	var sum statsSlot
	r.mu.Lock()
	for _, s := range r.slots {
		if s.index > idx-statsSlots && s.index <= idx {
			sum.requests += s.requests
			sum.errors += s.errors
			sum.maxMs = max(sum.maxMs, s.maxMs)
			for i, n := range s.hist {
				sum.hist[i] += n
			}
		}
	}
	r.mu.Unlock()
	return requestSnapshot{requests: sum.requests, errors: sum.errors,
		p50: sum.percentile(0.50), p95: sum.percentile(0.95), p99: sum.percentile(0.99)}
}

// percentile returns the upper bound of the bucket holding the q-th
// quantile (the slowest request for the last bucket); 0 without requests.
func (s statsSlot) percentile(q float64) int64 {
	if s.requests == 0 {
		return 0
	}
	rank := int64(q*float64(s.requests) + 0.5)
	rank = min(max(rank, 1), s.requests)
	var seen int64
	for i, n := range s.hist {
		seen += n
		if seen >= rank {
			if i < len(latencyBoundsMs) {
				return min(latencyBoundsMs[i], s.maxMs)
			}
			return s.maxMs
		}
	}
	return s.maxMs
}

// MetricsPoint is one slot of the request statistics: the requests
// answered in [At, At+Slot), the 5xx among them and latency percentiles
// (milliseconds, upper bounds of histogram buckets).
type MetricsPoint struct {
	At                                       time.Time
	Requests, Errors                         int64
	LatencyP50Ms, LatencyP95Ms, LatencyP99Ms int64
}

// series returns every slot of the window ending at now, oldest first,
// empty slots included.
func (r *requestStats) series(now time.Time) []MetricsPoint {
	idx := now.UnixNano() / int64(r.slot)
	out := make([]MetricsPoint, statsSlots)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range out {
		want := idx - statsSlots + 1 + int64(i)
		p := MetricsPoint{At: time.Unix(0, want*int64(r.slot)).UTC()}
		if s := r.slots[want%statsSlots]; s.index == want {
			p.Requests, p.Errors = s.requests, s.errors
			p.LatencyP50Ms, p.LatencyP95Ms, p.LatencyP99Ms = s.percentile(0.50), s.percentile(0.95), s.percentile(0.99)
		}
		out[i] = p
	}
	return out
}

// MetricsSeries returns this instance's request statistics over
// Config.StatsWindow slot by slot (15 slots, oldest first): requests,
// server errors and latency percentiles, for charts.
func (s *Service) MetricsSeries() []MetricsPoint {
	return s.stats.series(s.cfg.Now())
}
