package httpapi

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/google/jsonschema-go/jsonschema"
)

// StatusResponse is the body of GET /v1/guardian/status.
type StatusResponse struct {
	Platform      string `json:"platform"`
	Status        string `json:"status"`
	UptimeSeconds int64  `json:"uptime_seconds"`
	LatencyMs     int64  `json:"latency_ms"`
	Version       string `json:"version"`
	// Message explains a maintenance (only then present).
	Message string `json:"message,omitempty"`
}

func statusResponse(s guardian.Status) StatusResponse {
	return StatusResponse{Platform: s.Platform, Status: string(s.Status), UptimeSeconds: int64(s.Uptime / time.Second),
		LatencyMs: s.Latency.Milliseconds(), Version: s.Version, Message: s.Message}
}

// ReportRequest is the body of POST /v1/guardian/report.
type ReportRequest struct {
	AgentID     string          `json:"agent_id"`
	ReportType  string          `json:"report_type"`
	Description string          `json:"description"`
	Details     json.RawMessage `json:"details,omitempty"`
}

func (ReportRequest) constrain(s *jsonschema.Schema) {
	text(s, "agent_id", 1, guardian.MaxAgentIDLen)
	enum(s, "report_type", guardian.ReportTypes)
	text(s, "description", 1, guardian.MaxReportDescriptionLen)
	s.Properties["details"].MaxProperties = ptr(guardian.MaxDetailsValues)
}

// ReportResponse is the receipt of a report.
type ReportResponse struct {
	EventID string `json:"event_id"`
	Status  string `json:"status"`
}

// EventResponse is one security event.
type EventResponse struct {
	EventID     string `json:"event_id"`
	Type        string `json:"type"`
	Category    string `json:"category"`
	Severity    string `json:"severity"`
	Description string `json:"description"`
	// AgentID is the agent concerned; null when unknown.
	AgentID *string `json:"agent_id"`
	// Source is the client address (IPv4, or IPv6 /64); null when unknown.
	Source *string `json:"source"`
	// Count is the number of occurrences aggregated in this event.
	Count int64 `json:"count"`
	// Timestamp is the first occurrence; LastSeen the last.
	Timestamp time.Time `json:"timestamp"`
	LastSeen  time.Time `json:"last_seen"`
	// Verified is true for a report sent with its agent's own API key.
	Verified       bool       `json:"verified"`
	AcknowledgedAt *time.Time `json:"acknowledged_at"`
	// Details are the details of a report.
	Details json.RawMessage `json:"details,omitempty"`
}

func eventResponse(e guardian.Event) EventResponse {
	out := EventResponse{
		EventID: e.ID, Type: string(e.Type), Category: string(e.Category), Severity: string(e.Severity),
		Description: e.Description, Count: e.Count, Timestamp: e.At.UTC(), LastSeen: e.LastAt.UTC(),
		Verified: e.Verified, AcknowledgedAt: e.AcknowledgedAt, Details: e.Details,
	}
	if e.AgentID != "" {
		out.AgentID = &e.AgentID
	}
	if e.Source != "" {
		out.Source = &e.Source
	}
	return out
}

func eventResponses(events []guardian.Event) []EventResponse {
	out := make([]EventResponse, len(events))
	for i, e := range events {
		out[i] = eventResponse(e)
	}
	return out
}

// EventFilters echoes the filters of an event listing.
type EventFilters struct {
	Category *string `json:"category"`
	Severity *string `json:"severity"`
	Limit    int     `json:"limit"`
}

// EventsResponse is the body of GET /v1/guardian/events.
type EventsResponse struct {
	Events     []EventResponse `json:"events"`
	Count      int             `json:"count"`
	Filters    EventFilters    `json:"filters"`
	HasMore    bool            `json:"has_more"`
	NextCursor *string         `json:"next_cursor"`
}

// AlertsResponse is the body of GET /v1/guardian/alerts.
type AlertsResponse struct {
	Alerts     []EventResponse `json:"alerts"`
	Count      int             `json:"count"`
	HasMore    bool            `json:"has_more"`
	NextCursor *string         `json:"next_cursor"`
}

// MetricsResponse is the body of GET /v1/guardian/metrics. The error rate
// and latencies cover the last minutes on the answering instance; the
// event, agent and tool-call counts cover every instance.
type MetricsResponse struct {
	UptimeSeconds int64 `json:"uptime_seconds"`
	TotalEvents   int64 `json:"total_events"`
	// ErrorRate is the share of 5xx answers, as a decimal string.
	ErrorRate         string `json:"error_rate"`
	LatencyP50Ms      int64  `json:"latency_p50_ms"`
	LatencyP95Ms      int64  `json:"latency_p95_ms"`
	LatencyP99Ms      int64  `json:"latency_p99_ms"`
	ActiveAgents      int64  `json:"active_agents"`
	TotalToolCalls24h int64  `json:"total_tool_calls_24h"`
	// RequestsInWindow is the number of requests the error rate and the
	// latencies are computed from.
	RequestsInWindow int64 `json:"requests_in_window"`
}

func metricsResponse(m guardian.Metrics) MetricsResponse {
	return MetricsResponse{
		UptimeSeconds: int64(m.Uptime / time.Second), TotalEvents: m.TotalEvents,
		ErrorRate:    strconv.FormatFloat(m.ErrorRate, 'f', 4, 64),
		LatencyP50Ms: m.LatencyP50Ms, LatencyP95Ms: m.LatencyP95Ms, LatencyP99Ms: m.LatencyP99Ms,
		ActiveAgents: m.ActiveAgents, TotalToolCalls24h: m.ToolCalls24h, RequestsInWindow: m.Requests,
	}
}

// MaintenanceRequest is the body of PUT /v1/guardian/maintenance.
type MaintenanceRequest struct {
	Maintenance bool    `json:"maintenance"`
	Message     *string `json:"message,omitempty"`
}

func (MaintenanceRequest) constrain(s *jsonschema.Schema) {
	text(s, "message", 0, guardian.MaxMaintenanceMessageLen)
}

// cursorOf is a page's next_cursor, null on the last page.
func cursorOf(p guardian.EventPage) *string {
	if p.NextCursor == "" {
		return nil
	}
	return &p.NextCursor
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (StatusResponse) Enums() map[string][]string {
	return map[string][]string{"status": stringsOf(guardian.PlatformStatuses)}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (EventResponse) Enums() map[string][]string {
	return map[string][]string{"category": stringsOf(guardian.Categories), "severity": stringsOf(guardian.Severities)}
}
