package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guardianCases are the cases of guardian.Store.
func guardianCases() []Case {
	return []Case{
		{Name: "GuardianEventRoundTrip", Test: testGuardianEventRoundTrip},
		{Name: "GuardianEventFiltersAndKeyset", Test: testGuardianEventFiltersAndKeyset},
		{Name: "GuardianAcknowledge", Test: testGuardianAcknowledge},
		{Name: "GuardianMaintenance", Test: testGuardianMaintenance},
		{Name: "GuardianCounters", Test: testGuardianCounters},
		{Name: "GuardianActiveAgents", Test: testGuardianActiveAgents},
		{Name: "GuardianRateTokens", Test: testGuardianRateTokens},
		{Name: "GuardianSharedRateLimit", Test: testGuardianSharedRateLimit},
	}
}

var eventSeq atomic.Int64

// newEvent returns a stored-ready event at the given time.
func newEvent(at time.Time, typ guardian.Type, sev guardian.Severity) guardian.Event {
	n := eventSeq.Add(1)
	return guardian.Event{
		ID: fmt.Sprintf("evt_test%016d", n), Type: typ, Category: typ.Category(), Severity: sev,
		Description: "event " + fmt.Sprint(n), Count: 1, At: at, LastAt: at,
	}
}

// g0 is the base time of the guardian cases.
var g0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func testGuardianEventRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	e := newEvent(g0.Add(1500*time.Microsecond), guardian.TypeAgentReport, guardian.SeverityCritical)
	e.AgentID, e.Source, e.Count = "agt_x", "203.0.113.7", 3
	e.LastAt = e.At.Add(time.Minute)
	e.Details = []byte(`{"tool_name":"calculate_kelly","n":10}`)
	e.Verified = true
	other := newEvent(g0, guardian.TypeAuthFailure, guardian.SeverityWarning)
	require.NoError(t, s.AddEvents(ctx, []guardian.Event{other, e}))
	require.NoError(t, s.AddEvents(ctx, nil), "nothing to store is fine")

	got, err := s.ListEvents(ctx, guardian.EventQuery{Limit: 10})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, e, got[0], "every field survives, newest first")
	assert.Equal(t, other.ID, got[1].ID)
	assert.Nil(t, got[1].Details)
	assert.Equal(t, time.UTC, got[0].At.Location())
	n, err := s.CountEvents(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)

	err = s.AddEvents(ctx, []guardian.Event{newEvent(g0, guardian.TypeAuthFailure, guardian.SeverityInfo), e})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a duplicate id is a conflict")
	n, err = s.CountEvents(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n, "a failed batch writes nothing")
}

func testGuardianEventFiltersAndKeyset(t *testing.T, h Harness) {
	s := openOne(t, h)
	var all []guardian.Event
	for i := range 25 {
		// Groups of five share a timestamp, so the id breaks ties.
		at := g0.Add(time.Duration(i/5) * time.Second)
		typ, sev := guardian.TypeAuthFailure, guardian.SeverityWarning
		if i%3 == 0 {
			typ, sev = guardian.TypeCiphertextTampered, guardian.SeverityEmergency
		}
		if i%4 == 0 {
			sev = guardian.SeverityCritical
		}
		all = append(all, newEvent(at, typ, sev))
	}
	require.NoError(t, s.AddEvents(ctx, all))

	// Page through everything 7 at a time: newest first, nothing missed or repeated.
	var seen []string
	q := guardian.EventQuery{Limit: 7}
	for {
		page, err := s.ListEvents(ctx, q)
		require.NoError(t, err)
		for _, e := range page {
			seen = append(seen, e.ID)
		}
		if len(page) < q.Limit {
			break
		}
		last := page[len(page)-1]
		q.After = &toolkit.Cursor{At: last.At, ID: last.ID}
	}
	require.Len(t, seen, len(all))
	for i := 1; i < len(seen); i++ {
		a, b := byID(all, seen[i-1]), byID(all, seen[i])
		assert.True(t, a.At.After(b.At) || (a.At.Equal(b.At) && a.ID > b.ID), "order at %d", i)
	}

	count := func(q guardian.EventQuery, keep func(guardian.Event) bool) {
		t.Helper()
		q.Limit = 100
		got, err := s.ListEvents(ctx, q)
		require.NoError(t, err)
		want := 0
		for _, e := range all {
			if keep(e) {
				want++
			}
		}
		assert.Len(t, got, want)
		for _, e := range got {
			assert.True(t, keep(e), "%+v", e)
		}
	}
	count(guardian.EventQuery{Category: guardian.CategoryEncryption}, func(e guardian.Event) bool {
		return e.Category == guardian.CategoryEncryption
	})
	count(guardian.EventQuery{Severities: []guardian.Severity{guardian.SeverityCritical}}, func(e guardian.Event) bool {
		return e.Severity == guardian.SeverityCritical
	})
	count(guardian.EventQuery{Category: guardian.CategoryAuthentication, Severities: guardian.AlertSeverities}, func(e guardian.Event) bool {
		return e.Category == guardian.CategoryAuthentication && e.IsAlert()
	})
}

func byID(events []guardian.Event, id string) guardian.Event {
	for _, e := range events {
		if e.ID == id {
			return e
		}
	}
	return guardian.Event{}
}

func testGuardianAcknowledge(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newEvent(g0, guardian.TypeCiphertextTampered, guardian.SeverityEmergency)
	b := newEvent(g0.Add(time.Second), guardian.TypeDepositReplay, guardian.SeverityCritical)
	require.NoError(t, s.AddEvents(ctx, []guardian.Event{a, b}))
	ackAt := g0.Add(time.Hour)
	got, err := s.AcknowledgeEvent(ctx, a.ID, ackAt)
	require.NoError(t, err)
	require.NotNil(t, got.AcknowledgedAt)
	assert.True(t, got.AcknowledgedAt.Equal(ackAt))
	again, err := s.AcknowledgeEvent(ctx, a.ID, ackAt.Add(time.Hour))
	require.NoError(t, err)
	assert.True(t, again.AcknowledgedAt.Equal(ackAt), "the first acknowledgement is kept")

	active, err := s.ListEvents(ctx, guardian.EventQuery{Severities: guardian.AlertSeverities, Unacknowledged: true, Limit: 10})
	require.NoError(t, err)
	require.Len(t, active, 1)
	assert.Equal(t, b.ID, active[0].ID)

	_, err = s.AcknowledgeEvent(ctx, "evt_missing", ackAt)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testGuardianMaintenance(t *testing.T, h Harness) {
	s := openOne(t, h)
	m, err := s.Maintenance(ctx)
	require.NoError(t, err)
	assert.False(t, m.On, "off until set")
	on := guardian.Maintenance{On: true, Message: "database upgrade until 14:00 UTC", ChangedAt: g0}
	require.NoError(t, s.SetMaintenance(ctx, on))
	m, err = s.Maintenance(ctx)
	require.NoError(t, err)
	assert.Equal(t, on, m)
	off := guardian.Maintenance{ChangedAt: g0.Add(time.Hour)}
	require.NoError(t, s.SetMaintenance(ctx, off))
	m, err = s.Maintenance(ctx)
	require.NoError(t, err)
	assert.Equal(t, off, m)
}

func testGuardianCounters(t *testing.T, h Harness) {
	s := openOne(t, h)
	h0 := g0.Add(-23 * time.Hour)
	require.NoError(t, s.AddCounters(ctx, []guardian.CounterDelta{
		{Name: "tool_calls", Hour: h0.Add(-time.Hour), Delta: 1000}, // too old
		{Name: "tool_calls", Hour: h0, Delta: 5},
		{Name: "tool_calls", Hour: g0, Delta: 2},
		{Name: "other", Hour: g0, Delta: 50},
	}))
	require.NoError(t, s.AddCounters(ctx, []guardian.CounterDelta{{Name: "tool_calls", Hour: g0, Delta: 3}}))
	sum, err := s.SumCounter(ctx, "tool_calls", h0)
	require.NoError(t, err)
	assert.Equal(t, int64(10), sum, "deltas of one hour add up; older hours and other names are left out")
	sum, err = s.SumCounter(ctx, "missing", h0)
	require.NoError(t, err)
	assert.Zero(t, sum)
}

func testGuardianActiveAgents(t *testing.T, h Harness) {
	s := openOne(t, h)
	for range 4 {
		newAgent(t, s)
	}
	suspended, terminated := newAgent(t, s), newAgent(t, s)
	_, err := s.SetMode(ctx, suspended.ID, agents.ModeSuspended)
	require.NoError(t, err)
	_, err = s.SetMode(ctx, terminated.ID, agents.ModeTerminated)
	require.NoError(t, err)
	n, err := s.CountActiveAgents(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
}

func testGuardianRateTokens(t *testing.T, h Harness) {
	s := openOne(t, h)
	req := guardian.RateRequest{Key: "ip:203.0.113.7", Now: g0, Interval: time.Second, Tolerance: 3 * time.Second}
	for i := range 3 {
		st, err := s.TakeRateToken(ctx, req)
		require.NoError(t, err)
		assert.True(t, st.Allowed, "token %d of the burst", i+1)
		assert.True(t, st.TAT.Equal(g0.Add(time.Duration(i+1)*time.Second)), "tat %v", st.TAT)
	}
	st, err := s.TakeRateToken(ctx, req)
	require.NoError(t, err)
	assert.False(t, st.Allowed, "the bucket is empty")
	assert.True(t, st.TAT.Equal(g0.Add(3*time.Second)), "a refusal changes nothing")

	other := req
	other.Key = "ip:203.0.113.8"
	st, err = s.TakeRateToken(ctx, other)
	require.NoError(t, err)
	assert.True(t, st.Allowed, "keys are independent")

	req.Now = g0.Add(time.Second)
	st, err = s.TakeRateToken(ctx, req)
	require.NoError(t, err)
	assert.True(t, st.Allowed, "one token is back after one interval")
	st, err = s.TakeRateToken(ctx, req)
	require.NoError(t, err)
	assert.False(t, st.Allowed)

	tat, err := s.RateBucket(ctx, req.Key)
	require.NoError(t, err)
	assert.True(t, tat.Equal(g0.Add(4*time.Second)))
	tat, err = s.RateBucket(ctx, "ip:unknown")
	require.NoError(t, err)
	assert.True(t, tat.IsZero())

	n, err := s.PruneRateBuckets(ctx, g0.Add(2*time.Second))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "only the full bucket of the other key goes")
	tat, err = s.RateBucket(ctx, req.Key)
	require.NoError(t, err)
	assert.False(t, tat.IsZero())
}

// testGuardianSharedRateLimit takes tokens from one bucket through two
// store handles at once: exactly the burst is allowed across both.
func testGuardianSharedRateLimit(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	const burst, workers, each = 10, 8, 5
	limiters := []*guardian.StoreLimiter{
		guardian.NewStoreLimiter(stores[0], func() time.Time { return g0 }),
		guardian.NewStoreLimiter(stores[1], func() time.Time { return g0 }),
	}
	limit := guardian.NewLimit(burst, time.Hour)
	var allowed, refused atomic.Int64
	parallel(workers, func(i int) {
		for range each {
			d, err := limiters[i%2].Take(ctx, "register:ip:198.51.100.1", limit)
			if !assert.NoError(t, err) {
				return
			}
			if d.Allowed {
				allowed.Add(1)
			} else {
				refused.Add(1)
				assert.Positive(t, d.RetryAfter)
			}
		}
	})
	assert.Equal(t, int64(burst), allowed.Load(), "two instances share one limit")
	assert.Equal(t, int64(workers*each-burst), refused.Load())
}
