package guardian_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBurstOfFailedAuthIsOneEventWithItsCount(t *testing.T) {
	f := newFixture(t)
	attacker := guardian.WithSource(ctx, "203.0.113.7")
	start := f.clock.Now()
	for range 30 {
		f.svc.Record(attacker, guardian.Event{Type: guardian.TypeAuthFailure})
		f.clock.Advance(time.Second)
	}
	f.svc.Record(guardian.WithSource(ctx, "198.51.100.2"), guardian.Event{Type: guardian.TypeAuthFailure})

	f.svc.Flush(ctx)
	assert.Empty(t, f.events(t), "nothing is stored before the window closes")

	f.clock.Advance(time.Minute)
	f.svc.Flush(ctx)
	got := f.events(t)
	require.Len(t, got, 2, "one event per source and window")
	bySource := map[string]guardian.Event{got[0].Source: got[0], got[1].Source: got[1]}
	burst := bySource["203.0.113.7"]
	assert.Equal(t, int64(30), burst.Count)
	assert.Equal(t, guardian.TypeAuthFailure, burst.Type)
	assert.Equal(t, guardian.CategoryAuthentication, burst.Category)
	assert.Equal(t, guardian.SeverityWarning, burst.Severity)
	assert.True(t, burst.At.Equal(start), "at is the first occurrence")
	assert.True(t, burst.LastAt.Equal(start.Add(29*time.Second)), "last_at is the last occurrence")
	assert.Regexp(t, `^evt_[a-z0-9]{16}$`, burst.ID)
	assert.Equal(t, int64(1), bySource["198.51.100.2"].Count)

	f.svc.Record(attacker, guardian.Event{Type: guardian.TypeAuthFailure})
	f.clock.Advance(time.Minute)
	f.svc.Flush(ctx)
	assert.Len(t, f.events(t), 3, "a later failure opens a new window")
}

func TestLargeBurstEscalatesOneLevel(t *testing.T) {
	f := newFixture(t)
	for range 100 {
		f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAuthFailure, Source: "203.0.113.7"})
	}
	for range 4 {
		f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAdminKeyFailure, Source: "203.0.113.7"})
	}
	f.clock.Advance(time.Minute)
	f.svc.Flush(ctx)
	got := f.events(t)
	require.Len(t, got, 2)
	for _, e := range got {
		switch e.Type {
		case guardian.TypeAuthFailure:
			assert.Equal(t, guardian.SeverityCritical, e.Severity, "100 failures raise warning to critical")
		case guardian.TypeAdminKeyFailure:
			assert.Equal(t, guardian.SeverityWarning, e.Severity, "4 admin-key failures stay below the threshold of 5")
		}
	}
}

func TestWindowsAreKeyedByTypeAgentAndSource(t *testing.T) {
	f := newFixture(t)
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeInsufficientCredits, AgentID: "agt_a"})
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeInsufficientCredits, AgentID: "agt_a"})
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeInsufficientCredits, AgentID: "agt_b"})
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeRateLimited, AgentID: "agt_a"})
	f.svc.Close(ctx) // stores open windows too
	got := f.events(t)
	require.Len(t, got, 3)
	counts := map[string]int64{}
	for _, e := range got {
		counts[string(e.Type)+"/"+e.AgentID] = e.Count
	}
	assert.Equal(t, map[string]int64{"insufficient_credits/agt_a": 2, "insufficient_credits/agt_b": 1, "rate_limited/agt_a": 1}, counts)
}

func TestPendingWindowsAreBounded(t *testing.T) {
	f := newFixture(t, func(c *guardian.Config) { c.MaxPending = 3 })
	for i := range 50 {
		f.svc.Record(ctx, guardian.Event{Type: guardian.TypeRateLimited, Source: fmt.Sprintf("10.0.0.%d", i)})
	}
	f.svc.Close(ctx)
	got := f.events(t)
	require.Len(t, got, 4, "three windows, then one shared overflow window")
	var total int64
	overflow := 0
	for _, e := range got {
		total += e.Count
		if e.Source == "*" {
			overflow++
			assert.Equal(t, int64(47), e.Count)
			assert.Contains(t, e.Description, "many sources")
		}
	}
	assert.Equal(t, 1, overflow)
	assert.Equal(t, int64(50), total, "no occurrence is lost")
}

func TestRecordDefaultsAndBounds(t *testing.T) {
	f := newFixture(t)
	long := make([]rune, guardian.MaxDescriptionLen+10)
	for i := range long {
		long[i] = 'é'
	}
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, AgentID: "agt_x", Description: string(long),
		Severity: guardian.SeverityCritical})
	f.svc.Record(ctx, guardian.Event{Type: "no_such_type"})
	var nilService *guardian.Service
	nilService.Record(ctx, guardian.Event{Type: guardian.TypeAuthFailure}) // a nil service discards
	guardian.Discard.Record(ctx, guardian.Event{Type: guardian.TypeAuthFailure})
	assert.Equal(t, guardian.Discard, guardian.OrDiscard(nil))
	f.svc.Close(ctx)
	got := f.events(t)
	require.Len(t, got, 1, "an unknown type is dropped")
	assert.Contains(t, f.logs.String(), "no_such_type")
	assert.Equal(t, guardian.SeverityCritical, got[0].Severity, "an explicit severity is kept")
	assert.Equal(t, guardian.CategoryDeposit, got[0].Category)
	assert.Len(t, []rune(got[0].Description), guardian.MaxDescriptionLen)
}

func TestTamperObserverRecordsAnEmergency(t *testing.T) {
	f := newFixture(t)
	var observe cryptovault.TamperObserver = guardian.TamperObserver(f.svc) // plugs into cryptovault.WithTamperObserver
	observe(guardian.WithSource(ctx, "192.0.2.1"), "agt_x", "ticket_description")
	f.svc.Close(ctx)
	got := f.events(t)
	require.Len(t, got, 1)
	assert.Equal(t, guardian.TypeCiphertextTampered, got[0].Type)
	assert.Equal(t, guardian.SeverityEmergency, got[0].Severity)
	assert.True(t, got[0].IsAlert())
	assert.Equal(t, "agt_x", got[0].AgentID)
	assert.Equal(t, "192.0.2.1", got[0].Source)
	assert.Contains(t, got[0].Description, "ticket_description")
}

func TestRunStoresOpenWindowsWhenStopped(t *testing.T) {
	f := newFixture(t, func(c *guardian.Config) { c.FlushInterval = time.Hour })
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { f.svc.Run(runCtx); close(done) }()
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAgentSuspended, AgentID: "agt_x"})
	f.svc.CountToolCall()
	cancel()
	<-done
	require.Len(t, f.events(t), 1)
	n, err := f.store.SumCounter(ctx, guardian.CounterToolCalls, f.clock.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

func TestFlushLogsAndDropsWhatCannotBeStored(t *testing.T) {
	logs := &syncBuffer{}
	svc, err := guardian.New(failingStore{}, guardian.Config{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	require.NoError(t, err)
	svc.Record(ctx, guardian.Event{Type: guardian.TypeAgentTerminated, AgentID: "agt_x"})
	svc.CountToolCall()
	svc.Close(ctx) // must not panic or block
	assert.Contains(t, logs.String(), "guardian: events dropped")
	assert.Contains(t, logs.String(), "kept for the next flush")
}

// BenchmarkRecord measures the cost recording adds to a request: a burst
// from many goroutines into a few windows.
func BenchmarkRecord(b *testing.B) {
	svc, err := guardian.New(nopStore{}, guardian.Config{})
	require.NoError(b, err)
	sources := []string{"192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			svc.Record(ctx, guardian.Event{Type: guardian.TypeAuthFailure, Source: sources[i%len(sources)]})
			i++
		}
	})
}

// BenchmarkObserveRequest measures the per-request statistics.
func BenchmarkObserveRequest(b *testing.B) {
	svc, err := guardian.New(nopStore{}, guardian.Config{})
	require.NoError(b, err)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			svc.ObserveRequest(3*time.Millisecond, 200)
		}
	})
}

// nopStore is a guardian.Store that stores nothing (benchmarks only).
type nopStore struct{ guardian.Store }

func TestRunDeletesFullRateBuckets(t *testing.T) {
	f := newFixture(t, func(c *guardian.Config) { c.FlushInterval = time.Millisecond })
	_, err := f.store.TakeRateToken(ctx, guardian.RateRequest{Key: "ip:old", Now: f.clock.Now().Add(-time.Hour),
		Interval: time.Second, Tolerance: time.Second})
	require.NoError(t, err)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { f.svc.Run(runCtx); close(done) }()
	require.Eventually(t, func() bool {
		tat, err := f.store.RateBucket(ctx, "ip:old")
		return err == nil && tat.IsZero()
	}, 10*time.Second, time.Millisecond, "the full bucket is deleted after 60 rounds")
	cancel()
	<-done
}
