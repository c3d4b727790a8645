package memstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
)

var _ support.Store = (*Store)(nil)

// supportTables hold the support desk: tickets by number (numbers come
// from a counter, like a database sequence: never reused), and
// submissions by id.
type supportTables struct {
	tickets     map[int64]support.TicketRecord
	ticketIDs   map[string]int64
	lastTicket  int64
	submissions map[string]support.SubmissionRecord
}

func newSupportTables() supportTables {
	return supportTables{
		tickets:     map[int64]support.TicketRecord{},
		ticketIDs:   map[string]int64{},
		submissions: map[string]support.SubmissionRecord{},
	}
}

// storedTime is a time as the databases keep it: UTC, microseconds.
func storedTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// cloneTicket copies a ticket so that it shares no byte slice.
func cloneTicket(t support.TicketRecord) support.TicketRecord {
	t.Subject, t.Description = bytes.Clone(t.Subject), bytes.Clone(t.Description)
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return t
}

func cloneSubmission(r support.SubmissionRecord) support.SubmissionRecord {
	r.Content = bytes.Clone(r.Content)
	r.CreatedAt = r.CreatedAt.UTC()
	return r
}

// missingAgent is what a database's foreign key reports: a bug, not a
// client error.
func (s *Store) missingAgent(op, agentID string) error {
	if _, ok := s.agents[agentID]; ok {
		return nil
	}
	return toolkit.AsInternal(op, errors.New("agent "+agentID+" does not exist"))
}

// CreateTicket implements support.Store.
func (s *Store) CreateTicket(ctx context.Context, t support.TicketRecord) (support.TicketRecord, error) {
	const op = "memstore.CreateTicket"
	if err := s.lock(ctx, op); err != nil {
		return support.TicketRecord{}, err
	}
	defer s.mu.Unlock()
	if err := s.missingAgent(op, t.AgentID); err != nil {
		return support.TicketRecord{}, err
	}
	if _, dup := s.support.ticketIDs[t.ID]; dup {
		return support.TicketRecord{}, conflict(op, "ticket id "+t.ID+" already exists")
	}
	s.support.lastTicket++
	t = cloneTicket(t)
	t.Number = s.support.lastTicket
	t.CreatedAt, t.UpdatedAt = storedTime(t.CreatedAt), storedTime(t.UpdatedAt)
	s.support.tickets[t.Number] = t
	s.support.ticketIDs[t.ID] = t.Number
	return cloneTicket(t), nil
}

// TicketByNumber implements support.Store.
func (s *Store) TicketByNumber(ctx context.Context, number int64) (support.TicketRecord, error) {
	const op = "memstore.TicketByNumber"
	if err := s.lock(ctx, op); err != nil {
		return support.TicketRecord{}, err
	}
	defer s.mu.Unlock()
	t, ok := s.support.tickets[number]
	if !ok {
		return support.TicketRecord{}, notFound(op)
	}
	return cloneTicket(t), nil
}

// Tickets implements support.Store: newest first, ties by id descending,
// without descriptions. A limit <= 0 lists every match, as bunstore does.
func (s *Store) Tickets(ctx context.Context, q support.TicketQuery) ([]support.TicketRecord, error) {
	const op = "memstore.Tickets"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []support.TicketRecord{}
	for _, t := range s.support.tickets {
		if (q.AgentID == "" || t.AgentID == q.AgentID) && (q.Status == "" || t.Status == q.Status) &&
			continuesAfter(t.CreatedAt, t.ID, q.After) {
			t = cloneTicket(t)
			t.Description = nil
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(x, y support.TicketRecord) int { return newestFirst(x.CreatedAt, x.ID, y.CreatedAt, y.ID) })
	return out[:limitRows(len(out), q.Limit)], nil
}

// SetTicketStatus implements support.Store.
func (s *Store) SetTicketStatus(ctx context.Context, c support.StatusChange) (support.TicketRecord, bool, error) {
	const op = "memstore.SetTicketStatus"
	if err := s.lock(ctx, op); err != nil {
		return support.TicketRecord{}, false, err
	}
	defer s.mu.Unlock()
	t, ok := s.support.tickets[c.Number]
	if !ok {
		return support.TicketRecord{}, false, notFound(op)
	}
	if !slices.Contains(c.From, t.Status) {
		return cloneTicket(t), false, nil
	}
	t.Status, t.UpdatedAt = c.To, storedTime(c.At)
	s.support.tickets[c.Number] = t
	return cloneTicket(t), true, nil
}

// CreateSubmission implements support.Store.
func (s *Store) CreateSubmission(ctx context.Context, r support.SubmissionRecord) error {
	const op = "memstore.CreateSubmission"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := s.missingAgent(op, r.AgentID); err != nil {
		return err
	}
	if _, dup := s.support.submissions[r.ID]; dup {
		return conflict(op, "submission id "+r.ID+" already exists")
	}
	r = cloneSubmission(r)
	r.CreatedAt = storedTime(r.CreatedAt)
	s.support.submissions[r.ID] = r
	return nil
}

// Submissions implements support.Store: newest first, ties by id
// descending.
func (s *Store) Submissions(ctx context.Context, q support.SubmissionQuery) ([]support.SubmissionRecord, error) {
	const op = "memstore.Submissions"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []support.SubmissionRecord{}
	for _, r := range s.support.submissions {
		if (q.Kind == "" || r.Kind == q.Kind) && (q.AgentID == "" || r.AgentID == q.AgentID) &&
			continuesAfter(r.CreatedAt, r.ID, q.After) {
			out = append(out, cloneSubmission(r))
		}
	}
	slices.SortFunc(out, func(x, y support.SubmissionRecord) int { return newestFirst(x.CreatedAt, x.ID, y.CreatedAt, y.ID) })
	return out[:limitRows(len(out), q.Limit)], nil
}

// newestFirst orders by creation time, then id, both descending.
func newestFirst(xAt time.Time, xID string, yAt time.Time, yID string) int {
	return cmp.Or(yAt.Compare(xAt), cmp.Compare(yID, xID))
}

// continuesAfter reports whether an item comes strictly after the
// position in newest-first order (every item does without a position).
func continuesAfter(at time.Time, id string, after *toolkit.Cursor) bool {
	if after == nil {
		return true
	}
	pos := storedTime(after.At)
	return at.Before(pos) || (at.Equal(pos) && id < after.ID)
}
