package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardianStatusAndMaintenance(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	c.Advance(90 * time.Second)
	status, m := e.do("GET", "/v1/guardian/status", nil, "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, map[string]any{"platform": "Agent Finance Toolkit", "status": "operational",
		"uptime_seconds": 90.0, "latency_ms": 0.0, "version": platform.Version()}, m, "the published shape, public")

	status, _ = e.do("PUT", "/v1/guardian/maintenance", nil, `{"maintenance":true}`)
	assert.Equal(t, http.StatusUnauthorized, status, "switching maintenance is for admins")
	status, m = e.do("PUT", "/v1/guardian/maintenance", admin(), `{"maintenance":true,"message":"Database upgrade until 14:00 UTC"}`)
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, "maintenance", m["status"])
	_, m = e.do("GET", "/v1/guardian/status", nil, "")
	assert.Equal(t, "maintenance", m["status"])
	assert.Equal(t, "Database upgrade until 14:00 UTC", m["message"])

	status, m = e.do("PUT", "/v1/guardian/maintenance", admin(), `{"maintenance":false,"message":"x"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "message:")
	status, m = e.do("PUT", "/v1/guardian/maintenance", admin(), `{"maintenance":"yes"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "maintenance:")
	_, m = e.do("PUT", "/v1/guardian/maintenance", admin(), `{"maintenance":false}`)
	assert.Equal(t, "operational", m["status"])
	assert.NotContains(t, m, "message")
}

func TestGuardianReportVerifiedOnlyWithTheAgentsOwnKey(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	idA, keyA := e.register("acme")
	_, keyB := e.register("other")
	body := `{"agent_id":"` + idA + `","report_type":"suspicious_activity","description":"Calls I did not make",
		"details":{"tool_name":"calculate_kelly","input_count":10,"nested":{"a":[1,2,{"b":null}]}}}`
	for _, h := range []map[string]string{key(keyA), key(keyB), key("aft_agent_" + strings.Repeat("x", 40)), nil} {
		status, m := e.do("POST", "/v1/guardian/report", h, body)
		require.Equal(t, http.StatusOK, status, m)
		assert.Equal(t, "recorded", m["status"])
		assert.Regexp(t, `^evt_[a-z0-9]{16}$`, m["event_id"])
		assert.Len(t, m, 2, "the receipt is the published shape and tells nothing about the key")
	}
	reports := e.eventsOf(guardian.TypeAgentReport)
	require.Len(t, reports, 4)
	verified := 0
	for _, r := range reports {
		assert.Equal(t, idA, r["agent_id"])
		assert.Equal(t, "report", r["category"])
		assert.Equal(t, map[string]any{"tool_name": "calculate_kelly", "input_count": 10.0, "nested": map[string]any{"a": []any{1.0, 2.0, map[string]any{"b": nil}}}}, r["details"])
		if r["verified"] == true {
			verified++
			assert.Equal(t, "critical", r["severity"], "verified suspicious activity is an alert")
		} else {
			assert.Equal(t, "warning", r["severity"])
		}
	}
	assert.Equal(t, 1, verified, "only the agent's own key verifies; a foreign, invalid or missing key does not")

	status, m := e.do("GET", "/v1/agents/me", key(keyA), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "sandbox", m["mode"], "a report never changes the agent's state")
	assert.Empty(t, e.eventsOf(guardian.TypeAuthFailure), "a report's key is no failed authentication")
}

func TestGuardianReportBadInput(t *testing.T) {
	e := newEnv(t)
	deep := `{"a":{"b":{"c":{"d":{"e":1}}}}}`
	cases := []struct {
		body, want string
		status     int
	}{
		{`{"report_type":"error","description":"x"}`, "agent_id", 400},
		{`{"agent_id":"","report_type":"error","description":"x"}`, "agent_id", 400},
		{`{"agent_id":"agt x","report_type":"error","description":"x"}`, "agent_id: must be 1 to 64 letters", 400},
		{`{"agent_id":"` + strings.Repeat("a", 65) + `","report_type":"error","description":"x"}`, "agent_id", 400},
		{`{"agent_id":"agt_x","report_type":"bug","description":"x"}`, "report_type: must be one of", 400},
		{`{"agent_id":"agt_x","report_type":"error"}`, "description", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"   "}`, "description: must be 1 to 2000 characters, not only white space", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"` + strings.Repeat("d", 2001) + `"}`, "description", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":[1]}`, "details", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":"text"}`, "details", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":null}`, "details", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":` + deep + `}`, "details: ", 413},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":{"a":"` + strings.Repeat("x", 5000) + `"}}`, "details: at most 4096 bytes", 413},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","severity":"critical"}`, "Unknown field: severity", 400},
		{`{"agent_id":"agt_x","report_type":"error","description":"x","details":{"a":"` + strings.Repeat("y", 70<<10) + `"}}`, "too large", 413},
	}
	for _, c := range cases {
		status, m := e.do("POST", "/v1/guardian/report", nil, c.body)
		assert.Equal(t, c.status, status, c.body[:min(len(c.body), 90)])
		assert.Contains(t, m["detail"], c.want, c.body[:min(len(c.body), 90)])
	}
	n, err := e.store.CountEvents(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "nothing written")
}

func TestGuardianEventsListing(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	for i := range 5 {
		status, _ := e.do("POST", "/v1/guardian/report", nil, `{"agent_id":"agt_`+string(rune('a'+i))+`","report_type":"error","description":"wrong result"}`)
		require.Equal(t, http.StatusOK, status)
		c.Advance(time.Second)
	}
	e.do("GET", "/v1/agents/me", key("bad"), "")
	c.Advance(time.Minute)

	status, m := e.do("GET", "/v1/guardian/events", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, 6.0, m["count"])
	assert.Equal(t, map[string]any{"category": nil, "severity": nil, "limit": 100.0}, m["filters"])
	assert.Equal(t, false, m["has_more"])
	assert.Nil(t, m["next_cursor"])
	first := m["events"].([]any)[0].(map[string]any)
	assert.Equal(t, "auth_failure", first["type"], "newest first")
	assert.Equal(t, "127.0.0.1", first["source"])
	assert.Nil(t, first["agent_id"])
	assert.Equal(t, 1.0, first["count"])

	status, m = e.do("GET", "/v1/guardian/events?category=report&severity=WARNING&limit=2", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, map[string]any{"category": "report", "severity": "warning", "limit": 2.0}, m["filters"], "filters are echoed as applied")
	seen := map[any]bool{}
	for {
		for _, ev := range m["events"].([]any) {
			ev := ev.(map[string]any)
			assert.Equal(t, "agent_report", ev["type"])
			seen[ev["event_id"]] = true
		}
		if m["has_more"] != true {
			break
		}
		status, m = e.do("GET", "/v1/guardian/events?category=report&limit=2&cursor="+m["next_cursor"].(string), admin(), "")
		require.Equal(t, http.StatusOK, status, m)
	}
	assert.Len(t, seen, 5, "the cursor walks every report once")

	bad := []struct{ query, want string }{
		{"?limit=0", "limit: must be an integer between 1 and 1000"},
		{"?limit=1001", "limit: must be an integer between 1 and 1000"},
		{"?limit=ten", "limit: must be an integer"},
		{"?category=Report", "category: must be one of"},
		{"?severity=high", "severity: must be one of info, warning, critical, emergency"},
		{"?cursor=abc", "cursor:"},
		{"?type=agent_report", `Unknown query parameter: "type" (allowed: limit, category, severity, cursor)`},
		{"?limit=1&limit=2", "limit: appears twice in the query"},
	}
	for _, b := range bad {
		status, m := e.do("GET", "/v1/guardian/events"+b.query, admin(), "")
		assert.Equal(t, http.StatusBadRequest, status, b.query)
		assert.Contains(t, m["detail"], b.want, b.query)
	}
	status, _ = e.do("GET", "/v1/guardian/events", nil, "")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = e.do("GET", "/v1/guardian/events", key("x"), "")
	assert.Equal(t, http.StatusUnauthorized, status, "an agent key is no admin key")
}

func TestGuardianAlertsAndAcknowledge(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	id, k := e.register("acme")
	e.do("POST", "/v1/guardian/report", key(k), `{"agent_id":"`+id+`","report_type":"suspicious_activity","description":"not me"}`)
	e.do("POST", "/v1/guardian/report", nil, `{"agent_id":"`+id+`","report_type":"suspicious_activity","description":"anyone"}`)
	for range 5 {
		e.do("GET", "/v1/guardian/metrics", map[string]string{"X-Admin-Key": "wrong"}, "")
	}
	c.Advance(time.Minute)

	status, m := e.do("GET", "/v1/guardian/alerts", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	require.Equal(t, 2.0, m["count"], "the verified report and the burst of admin-key failures: %v", m)
	types := map[any]any{}
	for _, a := range m["alerts"].([]any) {
		a := a.(map[string]any)
		types[a["type"]] = a["severity"]
		if a["type"] == "admin_key_failure" {
			assert.Equal(t, 5.0, a["count"], "5 failures are one event")
		}
	}
	assert.Equal(t, map[any]any{"agent_report": "critical", "admin_key_failure": "critical"}, types)

	alertID := m["alerts"].([]any)[0].(map[string]any)["event_id"].(string)
	status, ack := e.do("POST", "/v1/guardian/alerts/"+alertID+"/acknowledge", admin(), "")
	require.Equal(t, http.StatusOK, status, ack)
	assert.NotNil(t, ack["acknowledged_at"])
	_, m = e.do("GET", "/v1/guardian/alerts?limit=500", admin(), "")
	assert.Equal(t, 1.0, m["count"], "an acknowledged alert is no longer active")

	status, _ = e.do("POST", "/v1/guardian/alerts/evt_doesnotexist/acknowledge", admin(), "")
	assert.Equal(t, http.StatusNotFound, status)
	status, m = e.do("POST", "/v1/guardian/alerts/nope/acknowledge", admin(), "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "event_id")
	status, _ = e.do("GET", "/v1/guardian/alerts?limit=501", admin(), "")
	assert.Equal(t, http.StatusBadRequest, status)
}

func TestGuardianMetricsAfterScenario(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c))
	_, k := e.register("acme")
	_, k2 := e.register("beta")
	id3, k3 := e.register("gamma")
	e.fund(k, "1")
	for range 3 {
		status, _ := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"2"}}`)
		require.Equal(t, http.StatusOK, status)
	}
	status, _ := e.do("POST", "/v1/tools/call", key(k2), `{"tool_name":"demo_double","arguments":{"value":"2"}}`)
	require.Equal(t, http.StatusPaymentRequired, status)
	status, _ = e.do("PUT", "/v1/admin/agents/"+id3+"/mode", admin(), `{"mode":"suspended"}`)
	require.Equal(t, http.StatusOK, status)
	_ = k3
	c.Advance(2 * time.Minute)

	status, m := e.do("GET", "/v1/guardian/metrics", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	assert.Equal(t, 120.0, m["uptime_seconds"])
	assert.Equal(t, 2.0, m["active_agents"], "the suspended agent is not active")
	assert.Equal(t, 4.0, m["total_tool_calls_24h"], "refused calls count too")
	assert.Equal(t, 2.0, m["total_events"], "a 402 and a suspension")
	assert.Equal(t, "0.0000", m["error_rate"])
	assert.Positive(t, m["requests_in_window"])
	for _, f := range []string{"latency_p50_ms", "latency_p95_ms", "latency_p99_ms"} {
		assert.Contains(t, m, f)
	}
	assert.Len(t, e.eventsOf(guardian.TypeInsufficientCredits), 1)
	suspended := e.eventsOf(guardian.TypeAgentSuspended)
	require.Len(t, suspended, 1)
	assert.Equal(t, id3, suspended[0]["agent_id"])
	assert.Equal(t, "Agent suspended by an admin", suspended[0]["description"])
}
