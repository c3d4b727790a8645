package guardian

import (
	"context"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
)

// Listing limits.
const (
	DefaultEventsLimit = 100
	MaxEventsLimit     = 1000
	DefaultAlertsLimit = 50
	MaxAlertsLimit     = 500
	// MaxEventIDLen bounds an event id in a request.
	MaxEventIDLen = 64
)

// EventFilter selects a page of events. Zero fields do not filter; a zero
// Limit takes the default.
type EventFilter struct {
	Category string
	Severity string
	Limit    int
	// Cursor continues a listing from the NextCursor of the previous page.
	Cursor string
}

// EventPage is one page of events, newest first.
type EventPage struct {
	Events []Event
	// Category, Severity and Limit echo the filter as applied.
	Category   Category
	Severity   Severity
	Limit      int
	HasMore    bool
	NextCursor string // "" on the last page
}

// Events lists stored events, newest first. The closed aggregation windows
// of this instance are stored first, so they are listed.
func (s *Service) Events(ctx context.Context, f EventFilter) (EventPage, error) {
	page := EventPage{}
	q := EventQuery{}
	var err error
	if f.Category != "" {
		if page.Category, err = ParseCategory(f.Category); err != nil {
			return EventPage{}, err
		}
		q.Category = page.Category
	}
	if f.Severity != "" {
		if page.Severity, err = ParseSeverity(f.Severity); err != nil {
			return EventPage{}, err
		}
		q.Severities = []Severity{page.Severity}
	}
	if page.Limit, err = toolkit.PageLimit(f.Limit, DefaultEventsLimit, MaxEventsLimit); err != nil {
		return EventPage{}, err
	}
	return s.list(ctx, q, page, f.Cursor)
}

// Alerts lists the active alerts: critical and emergency events no admin
// has acknowledged, newest first.
func (s *Service) Alerts(ctx context.Context, limit int, cursor string) (EventPage, error) {
	page := EventPage{}
	var err error
	if page.Limit, err = toolkit.PageLimit(limit, DefaultAlertsLimit, MaxAlertsLimit); err != nil {
		return EventPage{}, err
	}
	return s.list(ctx, EventQuery{Severities: AlertSeverities, Unacknowledged: true}, page, cursor)
}

func (s *Service) list(ctx context.Context, q EventQuery, page EventPage, cursor string) (EventPage, error) {
	var err error
	if page.Limit, q.After, err = eventKeyset.Parse(toolkit.PageInput{Limit: page.Limit, Cursor: cursor}); err != nil {
		return EventPage{}, err
	}
	s.Flush(ctx)
	q.Limit = page.Limit + 1
	events, err := s.store.ListEvents(ctx, q)
	if err != nil {
		return EventPage{}, toolkit.WithOp("guardian.Events", err)
	}
	var p toolkit.Page
	page.Events, p = toolkit.PageOf(eventKeyset, events, page.Limit, func(e Event) toolkit.Cursor { return toolkit.Cursor{At: e.At, ID: e.ID} })
	page.HasMore, page.NextCursor = p.HasMore, p.NextCursor
	return page, nil
}

// Acknowledge marks an event (normally an alert) as seen by an admin: it
// leaves the active alerts. Acknowledging twice keeps the first time.
func (s *Service) Acknowledge(ctx context.Context, id string) (Event, error) {
	if !strings.HasPrefix(id, "evt_") || len(id) > MaxEventIDLen {
		return Event{}, toolkit.Errorf(toolkit.Invalid, "event_id: must start with evt_ and have at most %d characters", MaxEventIDLen)
	}
	e, err := s.store.AcknowledgeEvent(ctx, id, s.cfg.Now().UTC().Truncate(time.Microsecond))
	if toolkit.IsKind(err, toolkit.NotFound) {
		return Event{}, &toolkit.Error{Kind: toolkit.NotFound, Op: "guardian.Acknowledge", Err: err, Msg: "No event with this event_id"}
	}
	return e, toolkit.WithOp("guardian.Acknowledge", err)
}

// eventKeyset pages the event lists (the limits are applied before, by
// Events and Alerts, so MaxLimit only bounds what they passed).
var eventKeyset = toolkit.Keyset{Tag: "e1", DefaultLimit: DefaultEventsLimit, MaxLimit: MaxEventsLimit,
	ValidID: func(id string) bool { return strings.HasPrefix(id, "evt_") && len(id) <= MaxEventIDLen }}

// Metrics is the admin metrics snapshot.
type Metrics struct {
	// Uptime is the time since this instance started.
	Uptime time.Duration
	// TotalEvents is the number of stored events.
	TotalEvents int64
	// Requests and ErrorRate (share of 5xx answers) cover Config.StatsWindow
	// on this instance.
	Requests  int64
	ErrorRate float64
	// LatencyP50/P95/P99 are request latency percentiles over
	// Config.StatsWindow on this instance, from a histogram: the upper
	// bound of the bucket holding the percentile, in milliseconds.
	LatencyP50Ms, LatencyP95Ms, LatencyP99Ms int64
	// ActiveAgents is the number of agents in sandbox or live mode.
	ActiveAgents int64
	// ToolCalls24h is the number of tool calls over the last 24 hours on
	// every instance (hourly counters: the current hour and the 23 before).
	ToolCalls24h int64
}

// Metrics returns the admin metrics.
func (s *Service) Metrics(ctx context.Context) (Metrics, error) {
	const op = "guardian.Metrics"
	s.Flush(ctx)
	now := s.cfg.Now()
	snap := s.stats.snapshot(now)
	m := Metrics{Uptime: now.Sub(s.started), Requests: snap.requests,
		LatencyP50Ms: snap.p50, LatencyP95Ms: snap.p95, LatencyP99Ms: snap.p99}
	if snap.requests > 0 {
		m.ErrorRate = float64(snap.errors) / float64(snap.requests)
	}
	var err error
	if m.TotalEvents, err = s.store.CountEvents(ctx); err != nil {
		return Metrics{}, toolkit.WithOp(op, err)
	}
	if m.ActiveAgents, err = s.store.CountActiveAgents(ctx); err != nil {
		return Metrics{}, toolkit.WithOp(op, err)
	}
	since := now.UTC().Truncate(time.Hour).Add(-23 * time.Hour)
	if m.ToolCalls24h, err = s.store.SumCounter(ctx, CounterToolCalls, since); err != nil {
		return Metrics{}, toolkit.WithOp(op, err)
	}
	return m, nil
}
