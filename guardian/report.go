package guardian

import (
	"context"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/internal/strictjson"
	"github.com/google/jsonschema-go/jsonschema"
)

// ReportType is the kind of an agent report.
type ReportType string

// The report types.
const (
	ReportError              ReportType = "error"               // a wrong or unexpected tool result
	ReportDegradation        ReportType = "degradation"         // slow responses
	ReportSuspiciousActivity ReportType = "suspicious_activity" // a possible security issue
)

// ReportTypes lists every report type.
var ReportTypes = []ReportType{ReportError, ReportDegradation, ReportSuspiciousActivity}

// Limits of a report.
const (
	// MaxReportDescriptionLen bounds a report description, in characters.
	MaxReportDescriptionLen = 2000
	// MaxDetailsBytes bounds the encoded details object.
	MaxDetailsBytes = 4096
	// MaxDetailsDepth bounds the nesting of the details object (the object
	// itself is depth 1).
	MaxDetailsDepth = 4
	// MaxDetailsValues bounds the values of all kinds in the details.
	MaxDetailsValues = 256
)

// ReportInput is a report filed by (or on behalf of) an agent.
type ReportInput struct {
	AgentID     string
	ReportType  string
	Description string
	// Details is an optional JSON object.
	Details []byte
	// Verified is set by the caller when the request carried the API key
	// of the agent AgentID names.
	Verified bool
}

// Receipt is the answer to a report.
type Receipt struct {
	EventID string
	Status  string // always "recorded"
}

// detailsValidator checks the details object: any object within the size,
// depth and count limits.
var detailsValidator = func() *strictjson.Validator {
	v, err := strictjson.Compile(&jsonschema.Schema{Type: "object"}, strictjson.Options{
		Limits:   strictjson.Limits{MaxDepth: MaxDetailsDepth, MaxValues: MaxDetailsValues, MaxStringBytes: MaxDetailsBytes},
		Document: "details",
	})
	if err != nil {
		panic(err) // a constant schema: a failure is a bug caught by every test
	}
	return v
}()

func (in ReportInput) validate() (ReportType, error) {
	if in.AgentID == "" || len(in.AgentID) > MaxAgentIDLen || strings.ContainsFunc(in.AgentID, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) {
		return "", toolkit.Errorf(toolkit.Invalid, "agent_id: must be 1 to %d letters, digits, '_' or '-'", MaxAgentIDLen)
	}
	rt := ReportType(in.ReportType)
	switch rt {
	case ReportError, ReportDegradation, ReportSuspiciousActivity:
	default:
		return "", toolkit.Errorf(toolkit.Invalid, "report_type: must be one of %s (got %q)", join(ReportTypes), clip(in.ReportType))
	}
	if n := len([]rune(in.Description)); n < 1 || n > MaxReportDescriptionLen || strings.TrimSpace(in.Description) == "" {
		return "", toolkit.Errorf(toolkit.Invalid, "description: must be 1 to %d characters, not only white space", MaxReportDescriptionLen)
	}
	if in.Details != nil {
		if len(in.Details) > MaxDetailsBytes {
			return "", toolkit.Errorf(toolkit.TooLarge, "details: at most %d bytes of JSON (got %d)", MaxDetailsBytes, len(in.Details))
		}
		if err := detailsValidator.Validate(in.Details, nil, nil); err != nil {
			return "", toolkit.Errorf(toolkit.KindOf(err), "details: %s", toolkit.MessageOf(err))
		}
	}
	return rt, nil
}

// Report stores an agent report as an event of type agent_report and
// returns its id. A report never changes an agent's state. Severity:
// warning, or critical for suspicious_activity sent with the agent's own
// key (an unverified report cannot raise an alert).
func (s *Service) Report(ctx context.Context, in ReportInput) (Receipt, error) {
	rt, err := in.validate()
	if err != nil {
		return Receipt{}, err
	}
	id, err := s.newID()
	if err != nil {
		return Receipt{}, err
	}
	e := Event{
		ID: id, Type: TypeAgentReport, AgentID: in.AgentID, Source: SourceFrom(ctx), Verified: in.Verified,
		Description: "Agent reported " + strings.ReplaceAll(string(rt), "_", " ") + ": " + in.Description,
		Severity:    SeverityWarning,
	}
	if rt == ReportSuspiciousActivity && in.Verified {
		e.Severity = SeverityCritical
	}
	if len(in.Details) > 0 {
		e.Details = append([]byte(nil), in.Details...)
	}
	e = e.normalize(s.cfg.Now())
	e.At = s.cfg.Now().UTC().Truncate(time.Microsecond)
	e.LastAt = e.At
	if err := s.store.AddEvents(ctx, []Event{e}); err != nil {
		return Receipt{}, toolkit.WithOp("guardian.Report", err)
	}
	return Receipt{EventID: id, Status: "recorded"}, nil
}
