package support

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// Ticket is a support ticket as clients see it.
type Ticket struct {
	ID string
	// Ref is the human-readable reference, e.g. "SR-000142" (the API's
	// ticket_id).
	Ref     string
	AgentID string
	Subject string
	// Description is empty in lists.
	Description string
	Priority    string
	Category    string
	Status      Status
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TicketList is one page of tickets, newest first.
type TicketList struct {
	Tickets []Ticket
	toolkit.Page
}

// TicketFilter narrows the administrators' ticket list. Empty fields do
// not filter.
type TicketFilter struct {
	AgentID string
	Status  string
}

// CreateTicket opens a ticket for agentID. Subject and description are
// sealed before they are stored.
func (s *Service) CreateTicket(ctx context.Context, agentID string, in TicketInput) (Ticket, error) {
	const op = "support.CreateTicket"
	if err := in.validate(); err != nil {
		return Ticket{}, err
	}
	id, err := s.newID(ticketIDPrefix)
	if err != nil {
		return Ticket{}, toolkit.WithOp(op, err)
	}
	subject, err := s.vault.SealString(ctx, agentID, sealedField(fieldTicketSubject, id), in.Subject)
	if err != nil {
		return Ticket{}, toolkit.WithOp(op, err)
	}
	description, err := s.vault.SealString(ctx, agentID, sealedField(fieldTicketDescription, id), in.Description)
	if err != nil {
		return Ticket{}, toolkit.WithOp(op, err)
	}
	now := s.timestamp()
	rec, err := s.store.CreateTicket(ctx, TicketRecord{
		ID: id, AgentID: agentID, Subject: subject, Description: description,
		Priority: in.Priority, Category: in.Category, Status: StatusOpen, CreatedAt: now, UpdatedAt: now,
	})
	if err != nil {
		return Ticket{}, toolkit.WithOp(op, err)
	}
	t := ticketOf(rec)
	t.Subject, t.Description = in.Subject, in.Description
	return t, nil
}

// Ticket returns one of agentID's tickets by reference, with its
// description. A ticket of another agent, even of the same owner, is
// toolkit.NotFound exactly like a missing one.
func (s *Service) Ticket(ctx context.Context, agentID, ref string) (Ticket, error) {
	const op = "support.Ticket"
	number, err := ticketNumber(op, ref)
	if err != nil {
		return Ticket{}, err
	}
	rec, err := s.store.TicketByNumber(ctx, number)
	if err == nil && rec.AgentID != agentID {
		err = toolkit.Errorf(toolkit.NotFound, "not found")
	}
	if err != nil {
		return Ticket{}, ticketNotFound(op, ref, err)
	}
	return s.openTicket(ctx, op, rec)
}

// AdminTicket returns any ticket by reference, with its description.
func (s *Service) AdminTicket(ctx context.Context, ref string) (Ticket, error) {
	const op = "support.AdminTicket"
	number, err := ticketNumber(op, ref)
	if err != nil {
		return Ticket{}, err
	}
	rec, err := s.store.TicketByNumber(ctx, number)
	if err != nil {
		return Ticket{}, ticketNotFound(op, ref, err)
	}
	return s.openTicket(ctx, op, rec)
}

// Tickets lists agentID's tickets, newest first, without descriptions.
// status, when not empty, keeps the tickets in that state.
func (s *Service) Tickets(ctx context.Context, agentID, status string, page toolkit.PageInput) (TicketList, error) {
	return s.listTickets(ctx, "support.Tickets", TicketFilter{AgentID: agentID, Status: status}, page)
}

// AdminTickets lists every agent's tickets, newest first, without
// descriptions.
func (s *Service) AdminTickets(ctx context.Context, f TicketFilter, page toolkit.PageInput) (TicketList, error) {
	if f.AgentID != "" {
		if err := lineText("agent_id", f.AgentID, 1, MaxAgentIDLen); err != nil {
			return TicketList{}, err
		}
	}
	return s.listTickets(ctx, "support.AdminTickets", f, page)
}

func (s *Service) listTickets(ctx context.Context, op string, f TicketFilter, page toolkit.PageInput) (TicketList, error) {
	q := TicketQuery{AgentID: f.AgentID}
	if f.Status != "" {
		st, err := ParseStatus("status", f.Status)
		if err != nil {
			return TicketList{}, err
		}
		q.Status = st
	}
	limit, after, err := listKeyset.Parse(page)
	if err != nil {
		return TicketList{}, err
	}
	q.After, q.Limit = after, limit+1
	recs, err := s.store.Tickets(ctx, q)
	if err != nil {
		return TicketList{}, toolkit.WithOp(op, err)
	}
	recs, p := toolkit.PageOf(listKeyset, recs, limit, func(r TicketRecord) toolkit.Cursor { return toolkit.Cursor{At: r.CreatedAt, ID: r.ID} })
	out := TicketList{Tickets: make([]Ticket, len(recs)), Page: p}
	for i, r := range recs {
		t := ticketOf(r)
		if t.Subject, err = s.vault.OpenString(ctx, r.AgentID, sealedField(fieldTicketSubject, r.ID), r.Subject); err != nil {
			return TicketList{}, toolkit.WithOp(op, err)
		}
		out.Tickets[i] = t
	}
	return out, nil
}

// SetTicketStatus moves a ticket to status on an administrator's behalf,
// following the state machine documented on Status. Setting the current
// status changes nothing; a move the state machine does not allow is
// toolkit.Conflict.
func (s *Service) SetTicketStatus(ctx context.Context, ref, status string) (Ticket, error) {
	const op = "support.SetTicketStatus"
	number, err := ticketNumber(op, ref)
	if err != nil {
		return Ticket{}, err
	}
	to, err := ParseStatus("status", status)
	if err != nil {
		return Ticket{}, err
	}
	rec, changed, err := s.store.SetTicketStatus(ctx, StatusChange{Number: number, To: to, From: sourcesOf(to), At: s.timestamp()})
	if err != nil {
		return Ticket{}, ticketNotFound(op, ref, err)
	}
	if !changed && rec.Status != to {
		msg := "status: a closed ticket is final and cannot move to " + string(to)
		if rec.Status != StatusClosed {
			msg = "status: ticket " + ref + " is " + string(rec.Status) + " and cannot move to " + string(to) +
				" (allowed: " + joinStatuses(Next(rec.Status)) + ")"
		}
		return Ticket{}, &toolkit.Error{Kind: toolkit.Conflict, Op: op, Msg: msg}
	}
	return s.openTicket(ctx, op, rec)
}

// openTicket opens the sealed fields of a stored ticket.
func (s *Service) openTicket(ctx context.Context, op string, rec TicketRecord) (Ticket, error) {
	t := ticketOf(rec)
	var err error
	if t.Subject, err = s.vault.OpenString(ctx, rec.AgentID, sealedField(fieldTicketSubject, rec.ID), rec.Subject); err != nil {
		return Ticket{}, toolkit.WithOp(op, err)
	}
	if rec.Description != nil {
		if t.Description, err = s.vault.OpenString(ctx, rec.AgentID, sealedField(fieldTicketDescription, rec.ID), rec.Description); err != nil {
			return Ticket{}, toolkit.WithOp(op, err)
		}
	}
	return t, nil
}

// ticketOf copies a record's clear fields.
func ticketOf(r TicketRecord) Ticket {
	return Ticket{
		ID: r.ID, Ref: TicketRef(r.Number), AgentID: r.AgentID, Priority: r.Priority, Category: r.Category,
		Status: r.Status, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

// ticketNumber parses the reference of a ticket look-up. A text that is
// not one of our references names no ticket: toolkit.NotFound (the spec:
// 404 when the ticket is not found), saying what references look like.
func ticketNumber(op, ref string) (int64, error) {
	n, err := ParseTicketRef(ref)
	if err != nil {
		return 0, &toolkit.Error{Kind: toolkit.NotFound, Op: op,
			Msg: "ticket_id: no ticket " + quoteShort(ref) + " (ticket references look like SR-000142)"}
	}
	return n, nil
}

// ticketNotFound gives a store's NotFound the same client message whether
// the ticket is missing or belongs to someone else; other errors keep
// their kind.
func ticketNotFound(op, ref string, err error) error {
	if toolkit.IsKind(err, toolkit.NotFound) {
		return &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "ticket_id: no ticket " + ref}
	}
	return toolkit.WithOp(op, err)
}
