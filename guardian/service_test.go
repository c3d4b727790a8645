package guardian_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReportIsStoredAtOnce(t *testing.T) {
	f := newFixture(t)
	in := guardian.ReportInput{AgentID: "agt_a1b2c3d4", ReportType: "error", Description: "Division by zero",
		Details: []byte(`{"tool_name":"calculate_kelly","input_count":10}`)}
	r, err := f.svc.Report(guardian.WithSource(ctx, "192.0.2.9"), in)
	require.NoError(t, err)
	assert.Equal(t, "recorded", r.Status)
	got := f.events(t)
	require.Len(t, got, 1)
	e := got[0]
	assert.Equal(t, r.EventID, e.ID)
	assert.Equal(t, guardian.TypeAgentReport, e.Type)
	assert.Equal(t, guardian.SeverityWarning, e.Severity)
	assert.Equal(t, "agt_a1b2c3d4", e.AgentID)
	assert.Equal(t, "192.0.2.9", e.Source)
	assert.False(t, e.Verified)
	assert.Equal(t, "Agent reported error: Division by zero", e.Description)
	assert.JSONEq(t, string(in.Details), string(e.Details))
}

func TestOnlyAVerifiedSuspiciousReportIsAnAlert(t *testing.T) {
	f := newFixture(t)
	in := guardian.ReportInput{AgentID: "agt_x", ReportType: "suspicious_activity", Description: "odd calls"}
	_, err := f.svc.Report(ctx, in)
	require.NoError(t, err)
	in.Verified = true
	_, err = f.svc.Report(ctx, in)
	require.NoError(t, err)
	page, err := f.svc.Alerts(ctx, 0, "")
	require.NoError(t, err)
	require.Len(t, page.Events, 1)
	assert.True(t, page.Events[0].Verified)
	assert.Equal(t, guardian.SeverityCritical, page.Events[0].Severity)
}

func TestReportValidation(t *testing.T) {
	deep := `{"a":{"b":{"c":{"d":{"e":1}}}}}`
	many := "{" + strings.Repeat(`"k":1,`, 0) + `"a":[` + strings.Repeat("1,", 300) + `1]}`
	cases := []struct {
		name string
		in   guardian.ReportInput
		kind toolkit.Kind
		msg  string
	}{
		{"no agent", guardian.ReportInput{ReportType: "error", Description: "x"}, toolkit.Invalid, "agent_id:"},
		{"agent with spaces", guardian.ReportInput{AgentID: "agt x", ReportType: "error", Description: "x"}, toolkit.Invalid, "agent_id:"},
		{"agent too long", guardian.ReportInput{AgentID: strings.Repeat("a", 65), ReportType: "error", Description: "x"}, toolkit.Invalid, "agent_id:"},
		{"unknown type", guardian.ReportInput{AgentID: "agt_x", ReportType: "Error", Description: "x"}, toolkit.Invalid, "report_type: must be one of error, degradation, suspicious_activity"},
		{"empty description", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: " "}, toolkit.Invalid, "description:"},
		{"long description", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: strings.Repeat("é", 2001)}, toolkit.Invalid, "description:"},
		{"details not an object", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: "x", Details: []byte(`[1]`)}, toolkit.Invalid, "details"},
		{"details too deep", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: "x", Details: []byte(deep)}, toolkit.TooLarge, "details: "},
		{"details too many values", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: "x", Details: []byte(many)}, toolkit.TooLarge, "details: "},
		{"details too large", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: "x",
			Details: []byte(`{"a":"` + strings.Repeat("x", guardian.MaxDetailsBytes) + `"}`)}, toolkit.TooLarge, "details: at most 4096 bytes"},
		{"details broken", guardian.ReportInput{AgentID: "agt_x", ReportType: "error", Description: "x", Details: []byte(`{"a":`)}, toolkit.Invalid, "details: "},
	}
	f := newFixture(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Report(ctx, c.in)
			require.Error(t, err)
			assert.Equal(t, c.kind, toolkit.KindOf(err), "%v", err)
			assert.Contains(t, toolkit.MessageOf(err), c.msg)
		})
	}
	assert.Empty(t, f.events(t), "nothing written")
}

func TestEventsFiltersLimitsAndCursor(t *testing.T) {
	f := newFixture(t)
	for i := range 7 {
		f.svc.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, AgentID: "agt_" + string(rune('a'+i))})
		f.clock.Advance(time.Second)
	}
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeCiphertextTampered, AgentID: "agt_z"})
	f.clock.Advance(time.Minute)

	page, err := f.svc.Events(ctx, guardian.EventFilter{Category: "deposit", Severity: "WARNING", Limit: 3})
	require.NoError(t, err, "closed windows of this instance are stored before listing")
	assert.Equal(t, guardian.CategoryDeposit, page.Category)
	assert.Equal(t, guardian.SeverityWarning, page.Severity, "severity is matched in any case and echoed lower case")
	assert.Equal(t, 3, page.Limit)
	require.Len(t, page.Events, 3)
	assert.True(t, page.HasMore)
	ids := map[string]bool{}
	for cursor := page.NextCursor; ; {
		for _, e := range page.Events {
			assert.Equal(t, guardian.TypeDepositReplay, e.Type)
			assert.False(t, ids[e.ID], "no event twice")
			ids[e.ID] = true
		}
		if !page.HasMore {
			assert.Empty(t, page.NextCursor)
			break
		}
		page, err = f.svc.Events(ctx, guardian.EventFilter{Category: "deposit", Limit: 3, Cursor: cursor})
		require.NoError(t, err)
		cursor = page.NextCursor
	}
	assert.Len(t, ids, 7)

	all, err := f.svc.Events(ctx, guardian.EventFilter{})
	require.NoError(t, err)
	assert.Equal(t, guardian.DefaultEventsLimit, all.Limit)
	assert.Len(t, all.Events, 8)
	assert.Equal(t, guardian.TypeCiphertextTampered, all.Events[0].Type, "newest first")

	bad := []struct {
		filter guardian.EventFilter
		msg    string
	}{
		{guardian.EventFilter{Category: "Deposit"}, "category: must be one of authentication"},
		{guardian.EventFilter{Severity: "high"}, "severity: must be one of info, warning, critical, emergency"},
		{guardian.EventFilter{Limit: 1001}, "limit: must be an integer between 1 and 1000"},
		{guardian.EventFilter{Limit: -1}, "limit:"},
		{guardian.EventFilter{Cursor: "bm90IGEgY3Vyc29y"}, "cursor:"},
		{guardian.EventFilter{Cursor: "%%%"}, "cursor:"},
		{guardian.EventFilter{Cursor: strings.Repeat("A", 200)}, "cursor:"},
	}
	for _, b := range bad {
		_, err := f.svc.Events(ctx, b.filter)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%+v", b.filter)
		assert.Contains(t, toolkit.MessageOf(err), b.msg)
	}
}

func TestAlertsAreActiveCriticalAndEmergencyEvents(t *testing.T) {
	f := newFixture(t)
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAuthFailure, Source: "192.0.2.1"})         // warning
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeRateLimited, Source: "192.0.2.1"})         // info
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeCiphertextTampered, AgentID: "agt_a"})     // emergency
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, Severity: "critical"})      // critical
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAgentSuspended, Severity: "emergency"})    // emergency
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeOwnerClaimRefused, Severity: "info"})      // info
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAgentTerminated, Severity: "not a level"}) // default warning
	f.clock.Advance(time.Minute)

	page, err := f.svc.Alerts(ctx, 0, "")
	require.NoError(t, err)
	assert.Equal(t, guardian.DefaultAlertsLimit, page.Limit)
	require.Len(t, page.Events, 3)
	for _, e := range page.Events {
		assert.True(t, e.IsAlert(), "%s is %s", e.Type, e.Severity)
	}

	acked, err := f.svc.Acknowledge(ctx, page.Events[0].ID)
	require.NoError(t, err)
	require.NotNil(t, acked.AcknowledgedAt)
	page, err = f.svc.Alerts(ctx, 1, "")
	require.NoError(t, err)
	require.Len(t, page.Events, 1)
	assert.True(t, page.HasMore, "two active alerts left, one per page")
	assert.NotEqual(t, acked.ID, page.Events[0].ID)

	_, err = f.svc.Acknowledge(ctx, "evt_nosuchevent")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = f.svc.Acknowledge(ctx, "nosuchevent")
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	_, err = f.svc.Alerts(ctx, 501, "")
	assert.Contains(t, toolkit.MessageOf(err), "between 1 and 500")
}

func TestStatusDerivation(t *testing.T) {
	var probeErr error
	var probeTakes time.Duration
	var f *fixture
	f = newFixture(t, func(c *guardian.Config) {
		c.Platform = "Test Platform"
		c.Probe = func(context.Context) error { f.clock.Advance(probeTakes); return probeErr }
	})
	f.clock.Advance(90 * time.Second)
	st := f.svc.Status(ctx)
	assert.Equal(t, guardian.Status{Platform: "Test Platform", Status: guardian.StatusOperational, Uptime: 90 * time.Second,
		Version: "1.2.3"}, st)

	probeTakes = 12 * time.Millisecond
	st = f.svc.Status(ctx)
	assert.Equal(t, guardian.StatusOperational, st.Status)
	assert.Equal(t, 12*time.Millisecond, st.Latency, "latency is the probe's round trip")

	probeTakes = 2 * time.Second
	assert.Equal(t, guardian.StatusDegraded, f.svc.Status(ctx).Status, "a slow store degrades")
	probeTakes = 0

	probeErr = errors.New("connection refused")
	assert.Equal(t, guardian.StatusDegraded, f.svc.Status(ctx).Status, "an unreachable store degrades")
	assert.Error(t, f.svc.Ready(ctx))
	probeErr = nil
	assert.NoError(t, f.svc.Ready(ctx))

	for range 19 {
		f.svc.ObserveRequest(time.Millisecond, 200)
	}
	f.svc.ObserveRequest(time.Millisecond, 503)
	assert.Equal(t, guardian.StatusDegraded, f.svc.Status(ctx).Status, "1 in 20 answers failing reaches 5 %")
	f.svc.ObserveRequest(time.Millisecond, 404)
	assert.Equal(t, guardian.StatusOperational, f.svc.Status(ctx).Status, "4xx are not server errors; 1 in 21 is below 5 %")
	f.clock.Advance(16 * time.Minute)
	for range 5 {
		f.svc.ObserveRequest(time.Millisecond, 500)
	}
	assert.Equal(t, guardian.StatusOperational, f.svc.Status(ctx).Status, "old answers left the window; 5 requests are too few to judge")

	st, err := f.svc.SetMaintenance(ctx, true, "database upgrade")
	require.NoError(t, err)
	assert.Equal(t, guardian.StatusMaintenance, st.Status)
	assert.Equal(t, "database upgrade", st.Message)
	st, err = f.svc.SetMaintenance(ctx, false, "")
	require.NoError(t, err)
	assert.Equal(t, guardian.StatusOperational, st.Status)
	_, err = f.svc.SetMaintenance(ctx, false, "why")
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	_, err = f.svc.SetMaintenance(ctx, true, strings.Repeat("m", 501))
	assert.Contains(t, toolkit.MessageOf(err), "message: at most 500")
	f.svc.Close(ctx)
	got := f.events(t)
	require.Len(t, got, 2, "each switch is an event")
	assert.Equal(t, guardian.TypeMaintenanceChanged, got[0].Type)
}

func TestMetricsSnapshot(t *testing.T) {
	f := newFixture(t)
	for _, ms := range []int{1, 3, 3, 8, 8, 8, 40, 40, 90, 700} {
		f.svc.ObserveRequest(time.Duration(ms)*time.Millisecond, 200)
	}
	f.svc.ObserveRequest(45*time.Second, 500)
	for range 4 {
		f.svc.CountToolCall()
	}
	f.clock.Advance(2 * time.Hour)
	f.svc.CountToolCall()
	f.svc.Record(ctx, guardian.Event{Type: guardian.TypeAgentSuspended})
	_, err := f.svc.Report(ctx, guardian.ReportInput{AgentID: "agt_x", ReportType: "degradation", Description: "slow"})
	require.NoError(t, err)

	m, err := f.svc.Metrics(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2*time.Hour, m.Uptime)
	assert.Equal(t, int64(1), m.TotalEvents, "the open window is not stored yet; the report is")
	assert.Equal(t, int64(5), m.ToolCalls24h, "counts are stored by the metrics call")
	assert.Zero(t, m.Requests, "requests older than the stats window are left out")

	f = newFixture(t)
	for _, ms := range []int{1, 3, 3, 8, 8, 8, 40, 40, 90, 700} {
		f.svc.ObserveRequest(time.Duration(ms)*time.Millisecond, 200)
	}
	f.svc.ObserveRequest(45*time.Second, 500)
	m, err = f.svc.Metrics(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(11), m.Requests)
	assert.InDelta(t, 1.0/11, m.ErrorRate, 1e-12)
	assert.Equal(t, int64(10), m.LatencyP50Ms, "the 6th of 11 is 8 ms, in the bucket up to 10 ms")
	assert.Equal(t, int64(1000), m.LatencyP95Ms, "the 10th of 11 is 700 ms, in the bucket up to 1 s")
	assert.Equal(t, int64(45000), m.LatencyP99Ms, "the slowest bucket reports the slowest request")
	assert.Zero(t, m.ActiveAgents)
}

func TestMetricsSeriesSlotsTheWindow(t *testing.T) {
	c := newClock()
	c.Advance(30 * time.Second)
	svc, err := guardian.New(memstore.New(), guardian.Config{Now: c.Now, StatsWindow: 15 * time.Minute})
	require.NoError(t, err)
	svc.ObserveRequest(3*time.Millisecond, 200)
	svc.ObserveRequest(40*time.Millisecond, 500)
	c.Advance(2 * time.Minute)
	svc.ObserveRequest(700*time.Millisecond, 200)
	series := svc.MetricsSeries()
	require.Len(t, series, 15)
	last, earlier := series[14], series[12]
	assert.Equal(t, time.Date(2026, 11, 24, 12, 2, 0, 0, time.UTC), last.At)
	assert.Equal(t, int64(1), last.Requests)
	assert.Equal(t, int64(700), last.LatencyP99Ms, "the bucket bound, capped at the slowest request")
	assert.Equal(t, int64(2), earlier.Requests)
	assert.Equal(t, int64(1), earlier.Errors)
	assert.Equal(t, int64(40), earlier.LatencyP99Ms)
	assert.Zero(t, series[13].Requests, "an idle minute is an empty slot")
	assert.True(t, series[0].At.Before(series[1].At))
}
