package guardian

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/agentfinance/toolkit"
)

// Probe checks a dependency (the store: reachable, migrations applied);
// nil means healthy.
type Probe func(ctx context.Context) error

// Config configures a Service. Zero fields take defaults.
type Config struct {
	// Platform names the platform in the status (default "Agent Finance
	// Toolkit").
	Platform string
	// Version is the version reported by the status.
	Version string
	// Probe checks the store for readiness and status (default: none,
	// always healthy).
	Probe Probe
	// Window is the aggregation window of recorded events (default 1 min).
	Window time.Duration
	// MaxPending bounds the open aggregation windows kept in memory
	// (default 10,000); past it, events of one type share a window.
	MaxPending int
	// FlushInterval is how often Run stores closed windows (default 5 s).
	FlushInterval time.Duration
	// StatsWindow is the period over which the error rate and the latency
	// percentiles are computed (default 15 min).
	StatsWindow time.Duration
	// DegradedErrorRate is the share of 5xx answers over StatsWindow from
	// which the status is degraded (default 0.05), once at least
	// DegradedMinRequests requests were served (default 20).
	DegradedErrorRate   float64
	DegradedMinRequests int64
	// DegradedLatency is the probe round trip from which the status is
	// degraded (default 1 s).
	DegradedLatency time.Duration
	// Logger receives recording and flushing errors (default slog.Default()).
	Logger *slog.Logger
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of event ids (default crypto/rand).
	Random io.Reader
}

// Service is the guardian: status, reports, security events, alerts and
// metrics. It implements Recorder. Call Run in a goroutine to store
// recorded events as their windows close (the admin listings also store
// the closed windows of this instance before reading).
type Service struct {
	store   Store
	cfg     Config
	started time.Time
	stats   *requestStats

	mu      sync.Mutex // guards pending, closed, dropped, counters
	pending map[bucketKey]*pendingBucket
	closed  []Event
	dropped int64
	counts  map[counterKey]int64

	flushMu sync.Mutex // one flush at a time
}

// counterKey is one hourly activity counter not yet stored.
type counterKey struct {
	name string
	hour time.Time
}

// CounterToolCalls counts tool calls, by hour.
const CounterToolCalls = "tool_calls"

// New returns a Service over store.
func New(store Store, cfg Config) (*Service, error) {
	if store == nil {
		return nil, fmt.Errorf("guardian: a store is required")
	}
	if cfg.Platform == "" {
		cfg.Platform = "Agent Finance Toolkit"
	}
	if cfg.Window <= 0 {
		cfg.Window = time.Minute
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 10_000
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = 5 * time.Second
	}
	if cfg.StatsWindow <= 0 {
		cfg.StatsWindow = 15 * time.Minute
	}
	if cfg.DegradedErrorRate <= 0 {
		cfg.DegradedErrorRate = 0.05
	}
	if cfg.DegradedMinRequests <= 0 {
		cfg.DegradedMinRequests = 20
	}
	if cfg.DegradedLatency <= 0 {
		cfg.DegradedLatency = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	return &Service{
		store: store, cfg: cfg, started: cfg.Now(), stats: newRequestStats(cfg.StatsWindow),
		pending: map[bucketKey]*pendingBucket{}, counts: map[counterKey]int64{},
	}, nil
}

// CountToolCall counts one tool call for the 24-hour metric. It never
// blocks on storage; Flush adds the counts to the store.
func (s *Service) CountToolCall() {
	if s == nil {
		return
	}
	k := counterKey{name: CounterToolCalls, hour: s.cfg.Now().UTC().Truncate(time.Hour)}
	s.mu.Lock()
	s.counts[k]++
	s.mu.Unlock()
}

// ObserveRequest records one answered request for the error rate and the
// latency percentiles.
func (s *Service) ObserveRequest(d time.Duration, status int) {
	if s == nil {
		return
	}
	s.stats.observe(s.cfg.Now(), d, status >= 500)
}

// Flush stores the closed aggregation windows and the activity counts.
// Errors are logged, never returned: recording is best effort, and a
// window that cannot be stored is dropped rather than retried forever.
func (s *Service) Flush(ctx context.Context) { s.flush(ctx, false) }

func (s *Service) flush(ctx context.Context, final bool) {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	events, dropped := s.takeDue(s.cfg.Now(), final)
	if dropped > 0 {
		s.cfg.Logger.WarnContext(ctx, "guardian: events dropped: too many pending windows", "count", dropped)
	}
	if len(events) > 0 {
		for i := range events {
			id, err := s.newID()
			if err != nil {
				s.cfg.Logger.ErrorContext(ctx, "guardian: events dropped", "count", len(events), "error", err)
				return
			}
			events[i].ID = id
			events[i] = escalate(events[i])
		}
		if err := s.store.AddEvents(ctx, events); err != nil {
			s.cfg.Logger.ErrorContext(ctx, "guardian: events dropped", "count", len(events), "error", err)
		}
	}
	s.flushCounters(ctx)
}

// flushCounters adds the pending counts to the store; on failure they are
// kept for the next flush.
func (s *Service) flushCounters(ctx context.Context) {
	s.mu.Lock()
	deltas := make([]CounterDelta, 0, len(s.counts))
	for k, n := range s.counts {
		deltas = append(deltas, CounterDelta{Name: k.name, Hour: k.hour, Delta: n})
	}
	clear(s.counts)
	s.mu.Unlock()
	if len(deltas) == 0 {
		return
	}
	if err := s.store.AddCounters(ctx, deltas); err != nil {
		s.cfg.Logger.ErrorContext(ctx, "guardian: storing counters failed; kept for the next flush", "error", err)
		s.mu.Lock()
		for _, d := range deltas {
			s.counts[counterKey{name: d.Name, hour: d.Hour}] += d.Delta
		}
		s.mu.Unlock()
	}
}

// Run stores closed windows every FlushInterval (and deletes the full
// buckets of the store-backed rate limiter every 60 rounds) until ctx
// ends, then stores every open window. A panic in one round is logged and
// the loop goes on.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.FlushInterval)
	defer t.Stop()
	rounds := 0
	for {
		select {
		case <-ctx.Done():
			s.round(context.WithoutCancel(ctx), true, false)
			return
		case <-t.C:
			rounds++
			s.round(ctx, false, rounds%60 == 0)
		}
	}
}

// round is one protected iteration of Run.
func (s *Service) round(ctx context.Context, final, prune bool) {
	defer func() {
		if p := recover(); p != nil {
			s.cfg.Logger.ErrorContext(ctx, "guardian: flush panicked", "panic", fmt.Sprint(p))
		}
	}()
	s.flush(ctx, final)
	if prune {
		if _, err := s.store.PruneRateBuckets(ctx, s.cfg.Now().UTC()); err != nil {
			s.cfg.Logger.ErrorContext(ctx, "guardian: pruning rate buckets failed", "error", err)
		}
	}
}

// Close stores every open window (call it at shutdown when Run is not
// used).
func (s *Service) Close(ctx context.Context) { s.flush(ctx, true) }

// newID returns an event id (toolkit.NewID).
func (s *Service) newID() (string, error) {
	id, err := toolkit.NewID(s.cfg.Random, "evt_")
	return id, toolkit.AsInternal("guardian.newID", err)
}
