// Package guardian watches the platform: its status (operational,
// degraded, maintenance), reports filed by agents, security events that
// other packages record through the Recorder port, alerts, metrics, and
// the rate limiters that guard the API.
//
// Recording never fails and never waits for storage: Service.Record
// aggregates events in memory per (type, agent, source, description) and
// window, and Service.Flush (run periodically by Service.Run) stores each
// window as ONE event with a count, so an attacker cannot flood the event
// table.
//
// The package is pure: storage is the Store port, health is a Probe, time
// and randomness are injected through Config.
package guardian

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
)

// Severity ranks an event. Alerts are the critical and emergency events.
type Severity string

// The severities, in increasing order.
const (
	SeverityInfo      Severity = "info"
	SeverityWarning   Severity = "warning"
	SeverityCritical  Severity = "critical"
	SeverityEmergency Severity = "emergency"
)

// Severities lists every severity in increasing order.
var Severities = []Severity{SeverityInfo, SeverityWarning, SeverityCritical, SeverityEmergency}

// AlertSeverities are the severities listed as alerts.
var AlertSeverities = []Severity{SeverityCritical, SeverityEmergency}

// rank orders severities; an unknown one ranks lowest.
func (s Severity) rank() int { return slices.Index(Severities, s) }

// escalated is the next severity up (emergency stays emergency).
func (s Severity) escalated() Severity {
	if r := s.rank(); r >= 0 && r+1 < len(Severities) {
		return Severities[r+1]
	}
	return s
}

// IsAlert reports whether events of this severity are alerts.
func (s Severity) IsAlert() bool { return slices.Contains(AlertSeverities, s) }

// ParseSeverity reads a severity, in any letter case (the published
// service shows both "critical" and "CRITICAL").
func ParseSeverity(s string) (Severity, error) {
	v := Severity(strings.ToLower(s))
	if v.rank() < 0 {
		return "", toolkit.Errorf(toolkit.Invalid, "severity: must be one of %s (got %q)", join(Severities), clip(s))
	}
	return v, nil
}

// Category groups event types; the admin event list filters by it.
type Category string

// The categories.
const (
	CategoryAuthentication Category = "authentication" // failed API keys, admin-key failures
	CategoryBilling        Category = "billing"        // insufficient-credit bursts, uncharged writes kept
	CategoryDeposit        Category = "deposit"        // deposit replays and failed verifications
	CategoryWallet         Category = "wallet"         // wallet-challenge replays
	CategoryEncryption     Category = "encryption"     // ciphertexts failing their integrity check
	CategoryRateLimit      Category = "rate_limit"     // requests refused by a rate limit
	CategoryAgentMode      Category = "agent_mode"     // suspensions and terminations
	CategoryRegistration   Category = "registration"   // refused owner claims
	CategoryReport         Category = "report"         // reports filed by agents
	CategoryPlatform       Category = "platform"       // maintenance switched on or off; storage that cannot write
)

// Categories lists every category.
var Categories = []Category{CategoryAuthentication, CategoryBilling, CategoryDeposit, CategoryWallet,
	CategoryEncryption, CategoryRateLimit, CategoryAgentMode, CategoryRegistration, CategoryReport, CategoryPlatform}

// ParseCategory reads a category (exact match, lower case).
func ParseCategory(s string) (Category, error) {
	if !slices.Contains(Categories, Category(s)) {
		return "", toolkit.Errorf(toolkit.Invalid, "category: must be one of %s (got %q)", join(Categories), clip(s))
	}
	return Category(s), nil
}

// Type says what happened. Each type belongs to one category and has a
// default severity and description.
type Type string

// The event types.
const (
	// TypeAuthFailure: requests with a missing, malformed or unknown API key.
	TypeAuthFailure Type = "auth_failure"
	// TypeAdminKeyFailure: requests to admin endpoints with a wrong X-Admin-Key.
	TypeAdminKeyFailure Type = "admin_key_failure"
	// TypeOwnerKeyFailure: owner API requests or portal sign-ins with a
	// missing, malformed or unknown owner key.
	TypeOwnerKeyFailure Type = "owner_key_failure"
	// TypeOwnerKeyIssued: an owner key was rotated by its owner or issued
	// by an admin (the old one stopped working).
	TypeOwnerKeyIssued Type = "owner_key_issued"
	// TypeInsufficientCredits: tool calls refused with 402.
	TypeInsufficientCredits Type = "insufficient_credits"
	// TypeUnchargedWriteKept: a tool call that was not charged could not
	// undo its write (a memory or journal trade stays without payment).
	TypeUnchargedWriteKept Type = "uncharged_write_kept"
	// TypeDepositReplay: a payment submitted again after it was credited.
	TypeDepositReplay Type = "deposit_replay"
	// TypeDepositVerificationFailed: a deposit whose on-chain or provider
	// verification failed.
	TypeDepositVerificationFailed Type = "deposit_verification_failed"
	// TypeWalletChallengeReplay: a signed wallet challenge used twice or
	// outside its time window.
	TypeWalletChallengeReplay Type = "wallet_challenge_replay"
	// TypeCiphertextTampered: a sealed field failed its integrity check.
	TypeCiphertextTampered Type = "ciphertext_tampered"
	// TypeRateLimited: requests refused with 429.
	TypeRateLimited Type = "rate_limited"
	// TypeAgentSuspended: an agent was put in suspended mode.
	TypeAgentSuspended Type = "agent_suspended"
	// TypeAgentTerminated: an agent was terminated.
	TypeAgentTerminated Type = "agent_terminated"
	// TypeOwnerClaimRefused: a registration claimed an owner_id that belongs
	// to someone else.
	TypeOwnerClaimRefused Type = "owner_claim_refused"
	// TypeAgentReport: a report filed through POST /v1/guardian/report.
	TypeAgentReport Type = "agent_report"
	// TypeMaintenanceChanged: an admin switched maintenance on or off.
	TypeMaintenanceChanged Type = "maintenance_changed"
	// TypeDiskFull: writes refused because the database's disk (or its
	// size limit) is full (503).
	TypeDiskFull Type = "disk_full"
	// TypeDatabaseReadOnly: writes refused because the database is
	// read-only (503).
	TypeDatabaseReadOnly Type = "database_read_only"
)

// typeInfo is what the package knows about a type.
type typeInfo struct {
	category Category
	severity Severity
	// escalateAt raises the severity one level for a window with at least
	// this many occurrences (0: never).
	escalateAt  int64
	description string
}

var types = map[Type]typeInfo{
	TypeAuthFailure:               {CategoryAuthentication, SeverityWarning, 100, "Requests with an invalid or missing API key"},
	TypeAdminKeyFailure:           {CategoryAuthentication, SeverityWarning, 5, "Requests to admin endpoints with a wrong X-Admin-Key"},
	TypeOwnerKeyFailure:           {CategoryAuthentication, SeverityWarning, 20, "Owner API requests or portal sign-ins with an invalid or missing owner key"},
	TypeOwnerKeyIssued:            {CategoryAuthentication, SeverityInfo, 0, "An owner key was replaced"},
	TypeInsufficientCredits:       {CategoryBilling, SeverityInfo, 50, "Tool calls refused for insufficient balance (402)"},
	TypeUnchargedWriteKept:        {CategoryBilling, SeverityCritical, 0, "A tool call that was not charged could not undo its write"},
	TypeDepositReplay:             {CategoryDeposit, SeverityWarning, 5, "A payment already credited was submitted again"},
	TypeDepositVerificationFailed: {CategoryDeposit, SeverityWarning, 10, "A deposit failed its verification; nothing was credited"},
	TypeWalletChallengeReplay:     {CategoryWallet, SeverityWarning, 5, "A wallet challenge was replayed or expired"},
	TypeCiphertextTampered:        {CategoryEncryption, SeverityEmergency, 0, "Stored sealed data failed its integrity check"},
	TypeRateLimited:               {CategoryRateLimit, SeverityInfo, 100, "Requests refused by a rate limit (429)"},
	TypeAgentSuspended:            {CategoryAgentMode, SeverityWarning, 0, "Agent suspended"},
	TypeAgentTerminated:           {CategoryAgentMode, SeverityWarning, 0, "Agent terminated"},
	TypeOwnerClaimRefused:         {CategoryRegistration, SeverityWarning, 10, "Registration refused: the owner_id belongs to another owner"},
	TypeAgentReport:               {CategoryReport, SeverityWarning, 0, "Agent report"},
	TypeMaintenanceChanged:        {CategoryPlatform, SeverityInfo, 0, "Maintenance mode changed"},
	TypeDiskFull:                  {CategoryPlatform, SeverityCritical, 0, "Writes refused: the database's disk is full"},
	TypeDatabaseReadOnly:          {CategoryPlatform, SeverityCritical, 0, "Writes refused: the database is read-only"},
}

// Category returns the type's category ("" for an unknown type).
func (t Type) Category() Category { return types[t].category }

// Limits of the stored text of an event.
const (
	// MaxDescriptionLen bounds a description, in characters (a report's
	// own description and its prefix fit).
	MaxDescriptionLen = 2200
	// MaxAgentIDLen bounds an agent id.
	MaxAgentIDLen = 64
	// MaxSourceLen bounds a source (a client address or network).
	MaxSourceLen = 64
)

// Event is one stored security event: one occurrence, or a window of
// Count occurrences of the same type from the same agent and source.
type Event struct {
	// ID is assigned when the event is stored ("evt_...").
	ID       string
	Type     Type
	Category Category // the type's category, set by the service
	// Severity; zero takes the type's default (raised one level for a
	// large burst).
	Severity Severity
	// Description; zero takes the type's default. Never holds secrets.
	Description string
	// AgentID is the agent concerned, when known.
	AgentID string
	// Source is the client address (an IP, or an IPv6 /64), when known;
	// zero takes the one of the request context (see WithSource).
	Source string
	// Count is the number of occurrences aggregated (at least 1).
	Count int64
	// At is the first occurrence; LastAt the last.
	At     time.Time
	LastAt time.Time
	// Details is a JSON object (agent reports only).
	Details []byte
	// Verified is true for a report sent with the API key of its agent.
	Verified bool
	// AcknowledgedAt is when an admin acknowledged the event.
	AcknowledgedAt *time.Time
}

// IsAlert reports whether the event is an alert: critical or emergency.
func (e Event) IsAlert() bool { return e.Severity.IsAlert() }

// normalize fills the defaults of a recorded event and bounds its text.
func (e Event) normalize(now time.Time) Event {
	info := types[e.Type]
	e.Category = info.category
	if e.Severity.rank() < 0 {
		e.Severity = info.severity
	}
	if e.Description == "" {
		e.Description = info.description
	}
	e.Description = truncate(e.Description, MaxDescriptionLen)
	e.AgentID = truncate(e.AgentID, MaxAgentIDLen)
	e.Source = truncate(e.Source, MaxSourceLen)
	if e.Count < 1 {
		e.Count = 1
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.UTC().Truncate(time.Microsecond)
	if e.LastAt.Before(e.At) {
		e.LastAt = e.At
	}
	e.LastAt = e.LastAt.UTC().Truncate(time.Microsecond)
	return e
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// clip bounds a client-supplied value quoted in an error message.
func clip(s string) string { return truncate(s, 40) }

func join[T ~string](values []T) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = string(v)
	}
	return strings.Join(parts, ", ")
}

// validType refuses a type the package does not know (a programming error
// of the caller).
func validType(t Type) error {
	if _, ok := types[t]; !ok {
		return fmt.Errorf("guardian: unknown event type %q", t)
	}
	return nil
}
