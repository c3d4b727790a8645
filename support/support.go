// Package support is the support desk: feedback, tickets, feature
// suggestions, enterprise inquiries and bug reports filed by agents.
//
// # Tickets
//
// A ticket has a human-readable reference ("SR-000142") made from a number
// the store assigns from a database sequence, so references are unique
// across concurrent writers and servers. An agent sees only its own
// tickets: another agent's ticket, even of the same owner, is NotFound
// (nothing tells it the ticket exists). Administrators list every ticket
// and move it through the states of the ticket state machine (see Status).
//
// # Encryption at rest
//
// Everything an agent writes in free text is sealed with the agent's own
// key (cryptovault.Vault) before it reaches the Store, and opened only on
// the way out:
//
//   - tickets: subject and description, each in its own column;
//   - feedback, suggestions, enterprise inquiries and bug reports: all of
//     their fields (messages, titles, descriptions, the enterprise contact
//     email, requirements, steps, error messages, ...) as one sealed JSON
//     document per record.
//
// Each ciphertext is bound to its agent, its field and its record id, so
// moving it to another row, column or agent makes it fail to open. Only
// identifiers, enums (priority, category, kind), statuses and timestamps
// are stored in the clear; lists filter and page on those alone.
package support

import "strings"

// Statuses of feedback, suggestions, inquiries and bug reports: a new
// record is received (the spec names no other value yet).
const StatusReceived = "received"

// The closed sets of values of the support requests.
var (
	// FeedbackCategories are the values of a feedback's category.
	FeedbackCategories = []string{"tools", "billing", "performance", "documentation", "other"}
	// Priorities are the values of a ticket's priority.
	Priorities = []string{"low", "medium", "high", "urgent"}
	// TicketCategories are the values of a ticket's category.
	TicketCategories = []string{"billing", "connectivity", "tool_error", "broker", "account", "other"}
	// SuggestionPriorities are the values of a suggestion's
	// priority_for_agent.
	SuggestionPriorities = []string{"nice_to_have", "important", "critical"}
)

// Kind names the type of a submission (everything filed except tickets).
type Kind string

// The kinds of submission. The values are the "type" of the records as
// clients see them.
const (
	KindFeedback   Kind = "feedback"
	KindSuggestion Kind = "suggestion"
	KindEnterprise Kind = "enterprise"
	KindBug        Kind = "bug"
)

// Kinds lists every kind of submission.
var Kinds = []Kind{KindFeedback, KindSuggestion, KindEnterprise, KindBug}

// ParseKind parses a submission kind, naming the allowed values on error.
func ParseKind(field, s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", invalid("%s: must be one of %s (got %q)", field, joinKinds(), s)
}

func joinKinds() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// idPrefixes are the prefixes of record ids by kind (tickets: "sup_").
var idPrefixes = map[Kind]string{KindFeedback: "fb_", KindSuggestion: "sug_", KindEnterprise: "ent_", KindBug: "bug_"}

// ticketIDPrefix starts the id (not the reference) of every ticket.
const ticketIDPrefix = "sup_"

// Sealed field names. Each is bound to one record id (see sealedField), so
// a ciphertext opens only in the row it was written for.
const (
	fieldTicketSubject     = "support.ticket.subject"
	fieldTicketDescription = "support.ticket.description"
	fieldSubmissionPrefix  = "support."
)

// sealedField names a sealed field of one record.
func sealedField(name, recordID string) string {
	return name + ":" + recordID
}

// submissionField is the sealed field of a submission's content.
func submissionField(k Kind, id string) string {
	return sealedField(fieldSubmissionPrefix+string(k), id)
}

// oneOf checks s against a closed set of values.
func oneOf(field, s string, values []string) error {
	for _, v := range values {
		if v == s {
			return nil
		}
	}
	return invalid("%s: must be one of %s (got %q)", field, strings.Join(values, ", "), s)
}
