package support

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// TicketRecord is a ticket as stored: its text fields are sealed.
type TicketRecord struct {
	// ID is the ticket's id ("sup_..."), chosen by the Service.
	ID string
	// Number is assigned by the store on creation from a sequence: unique,
	// positive and increasing, never reused (gaps are allowed). The
	// reference clients see is "SR-" and Number in at least six digits.
	Number  int64
	AgentID string
	// Subject and Description are ciphertexts. Description is nil in the
	// records of a list.
	Subject     []byte
	Description []byte
	Priority    string
	Category    string
	Status      Status
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SubmissionRecord is a feedback, suggestion, enterprise inquiry or bug
// report as stored: Content is the sealed JSON of every field the agent
// wrote.
type SubmissionRecord struct {
	ID        string
	Kind      Kind
	AgentID   string
	Status    string
	Content   []byte
	CreatedAt time.Time
}

// TicketQuery selects tickets, newest first (CreatedAt descending, then ID
// descending).
type TicketQuery struct {
	AgentID string          // "" = every agent
	Status  Status          // "" = every status
	After   *toolkit.Cursor // (CreatedAt, ID) to continue after; nil = from the newest
	Limit   int             // <= 0 = every match
}

// SubmissionQuery selects submissions, newest first (CreatedAt
// descending, then ID descending).
type SubmissionQuery struct {
	Kind    Kind            // "" = every kind
	AgentID string          // "" = every agent
	After   *toolkit.Cursor // (CreatedAt, ID) to continue after; nil = from the newest
	Limit   int             // <= 0 = every match
}

// StatusChange moves one ticket to a new status if it is in one of the
// states From.
type StatusChange struct {
	Number int64
	To     Status
	From   []Status
	At     time.Time
}

// Store persists the support desk. Every method is one transaction.
// Implementations live in adapters and must pass adapters/storetest.
// Errors are *toolkit.Error values: toolkit.NotFound for a missing ticket,
// toolkit.Conflict for a duplicate id.
type Store interface {
	// CreateTicket stores a new ticket, assigning its Number, and returns
	// the stored record.
	CreateTicket(ctx context.Context, t TicketRecord) (TicketRecord, error)
	// TicketByNumber returns one ticket with its description.
	TicketByNumber(ctx context.Context, number int64) (TicketRecord, error)
	// Tickets returns up to q.Limit tickets matching q, newest first,
	// without their descriptions.
	Tickets(ctx context.Context, q TicketQuery) ([]TicketRecord, error)
	// SetTicketStatus sets the ticket's status and UpdatedAt when its
	// current status is one of c.From, in one conditional update, and
	// returns the ticket with changed true. Otherwise it changes nothing
	// and returns the ticket as it is with changed false.
	SetTicketStatus(ctx context.Context, c StatusChange) (t TicketRecord, changed bool, err error)
	// CreateSubmission stores a new submission.
	CreateSubmission(ctx context.Context, s SubmissionRecord) error
	// Submissions returns up to q.Limit submissions matching q, newest
	// first.
	Submissions(ctx context.Context, q SubmissionQuery) ([]SubmissionRecord, error)
}
