package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
)

var _ guardian.Store = (*Store)(nil)

// guardianData is the guardian's part of the store.
type guardianData struct {
	events      []guardian.Event
	eventIndex  map[string]int // event id -> index in events
	maintenance guardian.Maintenance
	counters    map[counterKey]int64
	rateTATs    map[string]int64 // bucket key -> theoretical arrival time, unix µs
}

type counterKey struct {
	name string
	hour int64 // unix seconds of the hour
}

func newGuardianData() guardianData {
	return guardianData{eventIndex: map[string]int{}, counters: map[counterKey]int64{}, rateTATs: map[string]int64{}}
}

// cloneEvent returns a copy of e that shares nothing with it, with its
// times in UTC as a database returns them.
func cloneEvent(e guardian.Event) guardian.Event {
	e.At, e.LastAt = e.At.UTC(), e.LastAt.UTC()
	if e.Details != nil {
		e.Details = append([]byte{}, e.Details...)
	}
	if e.AcknowledgedAt != nil {
		t := e.AcknowledgedAt.UTC()
		e.AcknowledgedAt = &t
	}
	return e
}

// AddEvents implements guardian.Store: all or nothing.
func (s *Store) AddEvents(ctx context.Context, events []guardian.Event) error {
	const op = "memstore.AddEvents"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, e := range events {
		if _, dup := s.guardian.eventIndex[e.ID]; dup || seen[e.ID] {
			return conflict(op, "event id "+e.ID+" already exists")
		}
		seen[e.ID] = true
	}
	for _, e := range events {
		s.guardian.eventIndex[e.ID] = len(s.guardian.events)
		s.guardian.events = append(s.guardian.events, cloneEvent(e))
	}
	return nil
}

// newerFirst orders events by time, then id, both descending.
func newerFirst(a, b guardian.Event) int {
	if c := b.At.Compare(a.At); c != 0 {
		return c
	}
	switch {
	case a.ID > b.ID:
		return -1
	case a.ID < b.ID:
		return 1
	}
	return 0
}

// ListEvents implements guardian.Store.
func (s *Store) ListEvents(ctx context.Context, q guardian.EventQuery) ([]guardian.Event, error) {
	if err := s.lock(ctx, "memstore.ListEvents"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []guardian.Event
	for _, e := range s.guardian.events {
		switch {
		case q.Category != "" && e.Category != q.Category,
			len(q.Severities) > 0 && !slices.Contains(q.Severities, e.Severity),
			q.Unacknowledged && e.AcknowledgedAt != nil,
			q.After != nil && newerFirst(e, guardian.Event{At: q.After.At, ID: q.After.ID}) <= 0:
			continue
		}
		out = append(out, cloneEvent(e))
	}
	slices.SortFunc(out, newerFirst)
	return out[:limitRows(len(out), q.Limit)], nil
}

// AcknowledgeEvent implements guardian.Store.
func (s *Store) AcknowledgeEvent(ctx context.Context, id string, at time.Time) (guardian.Event, error) {
	const op = "memstore.AcknowledgeEvent"
	if err := s.lock(ctx, op); err != nil {
		return guardian.Event{}, err
	}
	defer s.mu.Unlock()
	i, ok := s.guardian.eventIndex[id]
	if !ok {
		return guardian.Event{}, notFound(op)
	}
	e := &s.guardian.events[i]
	if e.AcknowledgedAt == nil {
		t := at.UTC()
		e.AcknowledgedAt = &t
	}
	return cloneEvent(*e), nil
}

// CountEvents implements guardian.Store.
func (s *Store) CountEvents(ctx context.Context) (int64, error) {
	if err := s.lock(ctx, "memstore.CountEvents"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	return int64(len(s.guardian.events)), nil
}

// SetMaintenance implements guardian.Store.
func (s *Store) SetMaintenance(ctx context.Context, m guardian.Maintenance) error {
	if err := s.lock(ctx, "memstore.SetMaintenance"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	m.ChangedAt = m.ChangedAt.UTC()
	s.guardian.maintenance = m
	return nil
}

// Maintenance implements guardian.Store.
func (s *Store) Maintenance(ctx context.Context) (guardian.Maintenance, error) {
	if err := s.lock(ctx, "memstore.Maintenance"); err != nil {
		return guardian.Maintenance{}, err
	}
	defer s.mu.Unlock()
	return s.guardian.maintenance, nil
}

// AddCounters implements guardian.Store.
func (s *Store) AddCounters(ctx context.Context, deltas []guardian.CounterDelta) error {
	if err := s.lock(ctx, "memstore.AddCounters"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, d := range deltas {
		s.guardian.counters[counterKey{name: d.Name, hour: d.Hour.UTC().Truncate(time.Hour).Unix()}] += d.Delta
	}
	return nil
}

// SumCounter implements guardian.Store.
func (s *Store) SumCounter(ctx context.Context, name string, since time.Time) (int64, error) {
	if err := s.lock(ctx, "memstore.SumCounter"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var sum int64
	for k, v := range s.guardian.counters {
		if k.name == name && !time.Unix(k.hour, 0).Before(since) {
			sum += v
		}
	}
	return sum, nil
}

// CountActiveAgents implements guardian.Store.
func (s *Store) CountActiveAgents(ctx context.Context) (int64, error) {
	if err := s.lock(ctx, "memstore.CountActiveAgents"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int64
	for _, r := range s.agents {
		if r.agent.Mode == agents.ModeSandbox || r.agent.Mode == agents.ModeLive {
			n++
		}
	}
	return n, nil
}

// TakeRateToken implements guardian.Store (GCRA, in microseconds like the
// SQL store).
func (s *Store) TakeRateToken(ctx context.Context, req guardian.RateRequest) (guardian.RateState, error) {
	if err := s.lock(ctx, "memstore.TakeRateToken"); err != nil {
		return guardian.RateState{}, err
	}
	defer s.mu.Unlock()
	now, interval, tolerance := req.Now.UnixMicro(), req.Interval.Microseconds(), req.Tolerance.Microseconds()
	tat, ok := s.guardian.rateTATs[req.Key]
	if !ok {
		tat = now // a new bucket is full: its first request is allowed, like the SQL insert
	}
	next := max(tat, now) + interval
	if ok && next-now > tolerance {
		return guardian.RateState{TAT: time.UnixMicro(tat).UTC()}, nil
	}
	s.guardian.rateTATs[req.Key] = next
	return guardian.RateState{Allowed: true, TAT: time.UnixMicro(next).UTC()}, nil
}

// RateBucket implements guardian.Store.
func (s *Store) RateBucket(ctx context.Context, key string) (time.Time, error) {
	if err := s.lock(ctx, "memstore.RateBucket"); err != nil {
		return time.Time{}, err
	}
	defer s.mu.Unlock()
	tat, ok := s.guardian.rateTATs[key]
	if !ok {
		return time.Time{}, nil
	}
	return time.UnixMicro(tat).UTC(), nil
}

// PruneRateBuckets implements guardian.Store.
func (s *Store) PruneRateBuckets(ctx context.Context, before time.Time) (int64, error) {
	if err := s.lock(ctx, "memstore.PruneRateBuckets"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int64
	for k, tat := range s.guardian.rateTATs {
		if tat < before.UnixMicro() {
			delete(s.guardian.rateTATs, k)
			n++
		}
	}
	return n, nil
}
