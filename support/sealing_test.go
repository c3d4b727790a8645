package support_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tamperingStore hands out stored records after editing them, the way
// someone with write access to the database could.
type tamperingStore struct {
	support.Store
	ticket     func(*support.TicketRecord)
	submission func(*support.SubmissionRecord)
}

func (s *tamperingStore) TicketByNumber(ctx context.Context, n int64) (support.TicketRecord, error) {
	r, err := s.Store.TicketByNumber(ctx, n)
	if err == nil && s.ticket != nil {
		s.ticket(&r)
	}
	return r, err
}

func (s *tamperingStore) Tickets(ctx context.Context, q support.TicketQuery) ([]support.TicketRecord, error) {
	rs, err := s.Store.Tickets(ctx, q)
	for i := range rs {
		if s.ticket != nil {
			s.ticket(&rs[i])
		}
	}
	return rs, err
}

func (s *tamperingStore) Submissions(ctx context.Context, q support.SubmissionQuery) ([]support.SubmissionRecord, error) {
	rs, err := s.Store.Submissions(ctx, q)
	for i := range rs {
		if s.submission != nil {
			s.submission(&rs[i])
		}
	}
	return rs, err
}

// requireTampered checks err is the vault's integrity failure, surfaced
// as an internal error whose client message reveals nothing.
func requireTampered(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
	assert.True(t, errors.Is(err, cryptovault.ErrTampered), "%v", err)
	assert.Equal(t, "internal error", toolkit.MessageOf(err))
}

// TestSealedFieldsRefuseTampering: a ciphertext moved to another ticket,
// another column or another agent, or altered, fails to open, and the
// tamper observer hears of it.
func TestSealedFieldsRefuseTampering(t *testing.T) {
	ts := &tamperingStore{}
	d := newDesk(t, func(s support.Store) support.Store { ts.Store = s; return ts })
	a, b := d.agent(t, "agt_a"), d.agent(t, "agt_b")
	one, err := d.svc.CreateTicket(ctx, a, ticketInput("One"))
	require.NoError(t, err)
	two, err := d.svc.CreateTicket(ctx, a, ticketInput("Two"))
	require.NoError(t, err)
	theirs, err := d.svc.CreateTicket(ctx, b, ticketInput("Theirs"))
	require.NoError(t, err)
	stored := func(n int64) support.TicketRecord {
		r, err := d.store.TicketByNumber(ctx, n)
		require.NoError(t, err)
		return r
	}
	recOne, recTwo := stored(1), stored(2)

	cases := []struct {
		name   string
		reader string // agent reading
		ref    string
		edit   func(*support.TicketRecord)
	}{
		{"another ticket's description, same agent", a, one.Ref, func(r *support.TicketRecord) {
			if r.Number == 1 {
				r.Description = recTwo.Description
			}
		}},
		{"the subject in the description column", a, one.Ref, func(r *support.TicketRecord) {
			if r.Number == 1 {
				r.Description = recOne.Subject
			}
		}},
		{"one flipped bit", a, two.Ref, func(r *support.TicketRecord) {
			if r.Number == 2 {
				r.Subject = bytes.Clone(r.Subject)
				r.Subject[len(r.Subject)-1] ^= 1
			}
		}},
		{"truncated", a, two.Ref, func(r *support.TicketRecord) {
			if r.Number == 2 {
				r.Description = r.Description[:len(r.Description)-1]
			}
		}},
		{"another agent's ciphertext", b, theirs.Ref, func(r *support.TicketRecord) {
			if r.Number == 3 {
				r.Subject = recOne.Subject
			}
		}},
		{"moved to another agent with the record", b, theirs.Ref, func(r *support.TicketRecord) {
			if r.Number == 3 {
				r.ID, r.Subject, r.Description = recOne.ID, recOne.Subject, recOne.Description
			}
		}},
	}
	for _, c := range cases {
		ts.ticket = c.edit
		before := len(d.tampers)
		_, err := d.svc.Ticket(ctx, c.reader, c.ref)
		requireTampered(t, err)
		assert.Greater(t, len(d.tampers), before, "%s: the observer is told", c.name)
	}
	ts.ticket = cases[0].edit
	_, err = d.svc.AdminTickets(ctx, support.TicketFilter{}, toolkit.PageInput{})
	assert.NoError(t, err, "lists open subjects only; this description is never read")
	ts.ticket = cases[2].edit
	_, err = d.svc.Tickets(ctx, a, "", toolkit.PageInput{})
	requireTampered(t, err)

	ts.ticket = nil
	got, err := d.svc.Ticket(ctx, a, one.Ref)
	require.NoError(t, err, "untouched data opens")
	assert.Equal(t, "Details of One\nsecond line", got.Description)

	_, err = d.svc.CreateFeedback(ctx, a, support.FeedbackInput{Rating: 2, Message: "meh", Category: "tools"})
	require.NoError(t, err)
	_, err = d.svc.CreateBugReport(ctx, a, support.BugReportInput{Title: "t", Description: "d", StepsToReproduce: "s", ExpectedBehavior: "e", ActualBehavior: "a"})
	require.NoError(t, err)
	subs, err := d.store.Submissions(ctx, support.SubmissionQuery{})
	require.NoError(t, err)
	ts.submission = func(r *support.SubmissionRecord) {
		if r.Kind == support.KindBug {
			r.Content = subs[1].Content // the feedback's content under the bug's id
		}
	}
	_, err = d.svc.AdminSubmissions(ctx, support.SubmissionFilter{}, toolkit.PageInput{})
	requireTampered(t, err)
	ts.submission = func(r *support.SubmissionRecord) { r.Kind = support.KindSuggestion }
	_, err = d.svc.AdminSubmissions(ctx, support.SubmissionFilter{}, toolkit.PageInput{})
	requireTampered(t, err) // the kind is part of the sealed field name
}

// TestRotationKeepsOldTicketsReadable: after a master-key rotation, old
// ciphertexts open under the old key and new ones use the new key.
func TestRotationKeepsOldTicketsReadable(t *testing.T) {
	d := newDesk(t)
	a := d.agent(t, "agt_a")
	old, err := d.svc.CreateTicket(ctx, a, ticketInput("Before"))
	require.NoError(t, err)
	keyID := func(n int64) uint32 {
		r, err := d.store.TicketByNumber(ctx, n)
		require.NoError(t, err)
		require.Equal(t, byte(1), r.Description[0], "Tink output prefix")
		return binary.BigEndian.Uint32(r.Description[1:5])
	}
	oldKey := keyID(1)
	newKey, err := d.keys.Rotate()
	require.NoError(t, err)
	require.NotEqual(t, oldKey, newKey)

	got, err := d.svc.Ticket(ctx, a, old.Ref)
	require.NoError(t, err)
	assert.Equal(t, "Details of Before\nsecond line", got.Description)
	fresh, err := d.svc.CreateTicket(ctx, a, ticketInput("After"))
	require.NoError(t, err)
	assert.Equal(t, newKey, keyID(2), "new data is sealed under the new primary key")
	got, err = d.svc.Ticket(ctx, a, fresh.Ref)
	require.NoError(t, err)
	assert.Equal(t, "Details of After\nsecond line", got.Description)
	assert.Equal(t, oldKey, keyID(1), "old data is not rewritten")
}
