package support_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ctx = context.Background()

// desk is a Service over memstore with an injected clock and real Tink
// keys in a development key file (so rotation works).
type desk struct {
	svc     *support.Service
	store   *memstore.Store
	keys    *tinkkeys.KeyManager
	now     time.Time
	tampers []string
}

func newDesk(t *testing.T, wrap ...func(support.Store) support.Store) *desk {
	t.Helper()
	d := &desk{store: memstore.New(), now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	var err error
	d.keys, err = tinkkeys.LoadOrCreateDevKeys(t.TempDir() + "/keys.json")
	require.NoError(t, err)
	vault := cryptovault.New(d.keys, cryptovault.WithTamperObserver(func(_ context.Context, agentID, field string) {
		d.tampers = append(d.tampers, agentID+" "+field)
	}))
	var store support.Store = d.store
	for _, w := range wrap {
		store = w(store)
	}
	d.svc, err = support.NewService(store, support.Config{Vault: vault, Now: func() time.Time {
		d.now = d.now.Add(time.Second)
		return d.now
	}})
	require.NoError(t, err)
	return d
}

// agent stores an agent and returns its id.
func (d *desk) agent(t *testing.T, id string) string {
	t.Helper()
	digest := sha256.Sum256([]byte(id))
	require.NoError(t, d.store.CreateAgent(ctx, agents.Registration{Agent: agents.Agent{ID: id, OwnerID: "owner-" + id, Name: id, Type: agents.TypeRisk,
		Mode: agents.ModeSandbox, CreatedAt: d.now}, KeyDigest: digest[:], NewOwner: true}))
	return id
}

func ticketInput(subject string) support.TicketInput {
	return support.TicketInput{Subject: subject, Description: "Details of " + subject + "\nsecond line", Priority: "high", Category: "billing"}
}

func TestNewServiceNeedsAStoreAndAVault(t *testing.T) {
	_, err := support.NewService(memstore.New(), support.Config{})
	assert.ErrorContains(t, err, "Vault")
	_, err = support.NewService(nil, support.Config{Vault: cryptovault.New(nil)})
	assert.ErrorContains(t, err, "Store")
}

func TestCreateTicketAndReadItBack(t *testing.T) {
	d := newDesk(t)
	a := d.agent(t, "agt_a")
	tk, err := d.svc.CreateTicket(ctx, a, ticketInput("Charged twice"))
	require.NoError(t, err)
	assert.Regexp(t, `^sup_[a-z0-9]{16}$`, tk.ID)
	assert.Equal(t, "SR-000001", tk.Ref, "the first ticket of a fresh store")
	assert.Equal(t, support.StatusOpen, tk.Status)
	assert.Equal(t, d.now, tk.CreatedAt)
	assert.Equal(t, tk.CreatedAt, tk.UpdatedAt)
	assert.Equal(t, "Charged twice", tk.Subject)

	got, err := d.svc.Ticket(ctx, a, tk.Ref)
	require.NoError(t, err)
	assert.Equal(t, tk, got)

	rec, err := d.store.TicketByNumber(ctx, 1)
	require.NoError(t, err)
	for _, plain := range []string{"Charged twice", "Details of Charged twice"} {
		assert.False(t, bytes.Contains(rec.Subject, []byte(plain)) || bytes.Contains(rec.Description, []byte(plain)),
			"the store holds ciphertexts only")
	}
	second, err := d.svc.CreateTicket(ctx, a, ticketInput("Another"))
	require.NoError(t, err)
	assert.Equal(t, "SR-000002", second.Ref)
}

func TestAnotherAgentsTicketIsNotFound(t *testing.T) {
	d := newDesk(t)
	a, b := d.agent(t, "agt_a"), d.agent(t, "agt_b")
	tk, err := d.svc.CreateTicket(ctx, a, ticketInput("Mine"))
	require.NoError(t, err)

	_, errOther := d.svc.Ticket(ctx, b, tk.Ref)
	_, errMissing := d.svc.Ticket(ctx, b, "SR-000099")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(errOther))
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(errMissing))
	assert.Equal(t, toolkit.MessageOf(errMissing), strings.Replace(toolkit.MessageOf(errOther), tk.Ref, "SR-000099", 1),
		"no existence leak")
	assert.Empty(t, d.tampers, "nothing of the other agent was opened")

	list, err := d.svc.Tickets(ctx, b, "", toolkit.PageInput{})
	require.NoError(t, err)
	assert.Empty(t, list.Tickets)
	got, err := d.svc.AdminTicket(ctx, tk.Ref)
	require.NoError(t, err, "administrators read any ticket")
	assert.Equal(t, "Details of Mine\nsecond line", got.Description)
}

func TestTicketListsPageNewestFirst(t *testing.T) {
	d := newDesk(t)
	a, b := d.agent(t, "agt_a"), d.agent(t, "agt_b")
	var refs []string
	for _, s := range []string{"one", "two", "three", "four", "five"} {
		tk, err := d.svc.CreateTicket(ctx, a, ticketInput(s))
		require.NoError(t, err)
		refs = append(refs, tk.Ref)
	}
	_, err := d.svc.CreateTicket(ctx, b, ticketInput("theirs"))
	require.NoError(t, err)

	var walked []string
	page := toolkit.PageInput{Limit: 2}
	for i := 0; ; i++ {
		require.Less(t, i, 5, "paging ends")
		l, err := d.svc.Tickets(ctx, a, "", page)
		require.NoError(t, err)
		for _, tk := range l.Tickets {
			walked = append(walked, tk.Ref)
			assert.Empty(t, tk.Description, "lists carry no description")
			assert.NotEmpty(t, tk.Subject, "subjects are opened")
		}
		if !l.HasMore {
			assert.Empty(t, l.NextCursor)
			break
		}
		page.Cursor = l.NextCursor
	}
	assert.Equal(t, []string{refs[4], refs[3], refs[2], refs[1], refs[0]}, walked)

	all, err := d.svc.AdminTickets(ctx, support.TicketFilter{}, toolkit.PageInput{})
	require.NoError(t, err)
	assert.Len(t, all.Tickets, 6)
	assert.Equal(t, "theirs", all.Tickets[0].Subject)
	onlyB, err := d.svc.AdminTickets(ctx, support.TicketFilter{AgentID: b}, toolkit.PageInput{})
	require.NoError(t, err)
	assert.Len(t, onlyB.Tickets, 1)

	_, err = d.svc.SetTicketStatus(ctx, refs[1], "resolved")
	require.NoError(t, err)
	resolved, err := d.svc.Tickets(ctx, a, "resolved", toolkit.PageInput{})
	require.NoError(t, err)
	require.Len(t, resolved.Tickets, 1)
	assert.Equal(t, refs[1], resolved.Tickets[0].Ref)

	for _, c := range []struct {
		status string
		page   toolkit.PageInput
		want   string
	}{
		{"", toolkit.PageInput{Limit: -1}, "limit: must be an integer between 1 and 1000"},
		{"", toolkit.PageInput{Limit: 1001}, "limit: must be an integer between 1 and 1000"},
		{"", toolkit.PageInput{Cursor: "garbage"}, "cursor: must be the next_cursor of a previous answer"},
		{"pending", toolkit.PageInput{}, "status: must be one of"},
	} {
		_, err := d.svc.Tickets(ctx, a, c.status, c.page)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), c.want)
		assert.Contains(t, toolkit.MessageOf(err), c.want)
	}
	_, err = d.svc.AdminTickets(ctx, support.TicketFilter{AgentID: strings.Repeat("a", 101)}, toolkit.PageInput{})
	assert.Contains(t, toolkit.MessageOf(err), "agent_id: must be 1 to 100 characters")
}

func TestSetTicketStatusFollowsTheStateMachine(t *testing.T) {
	d := newDesk(t)
	a := d.agent(t, "agt_a")
	tk, err := d.svc.CreateTicket(ctx, a, ticketInput("Stuck"))
	require.NoError(t, err)

	moved, err := d.svc.SetTicketStatus(ctx, tk.Ref, "in_progress")
	require.NoError(t, err)
	assert.Equal(t, support.StatusInProgress, moved.Status)
	assert.True(t, moved.UpdatedAt.After(moved.CreatedAt))
	assert.Equal(t, "Details of Stuck\nsecond line", moved.Description, "the answer is the full ticket")

	same, err := d.svc.SetTicketStatus(ctx, tk.Ref, "in_progress")
	require.NoError(t, err, "the current status is a no-op")
	assert.Equal(t, moved.UpdatedAt, same.UpdatedAt, "a no-op changes nothing")

	_, err = d.svc.SetTicketStatus(ctx, tk.Ref, "closed")
	require.NoError(t, err)
	_, err = d.svc.SetTicketStatus(ctx, tk.Ref, "open")
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	assert.Equal(t, "status: a closed ticket is final and cannot move to open", toolkit.MessageOf(err))

	_, err = d.svc.SetTicketStatus(ctx, "SR-000404", "open")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = d.svc.SetTicketStatus(ctx, "404", "open")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "a text that is no reference names no ticket")
	_, err = d.svc.SetTicketStatus(ctx, tk.Ref, "reopened")
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
}

func TestSubmissionsAreSealedAndOpenedForAdministrators(t *testing.T) {
	d := newDesk(t)
	a, b := d.agent(t, "agt_a"), d.agent(t, "agt_b")
	budget, tool := "50-100k", "calculate_kelly"
	fb, err := d.svc.CreateFeedback(ctx, a, support.FeedbackInput{Rating: 5, Message: "Great", Category: "tools"})
	require.NoError(t, err)
	assert.Regexp(t, `^fb_[a-z0-9]{16}$`, fb.ID)
	assert.Equal(t, support.StatusReceived, fb.Status)
	sg, err := d.svc.CreateSuggestion(ctx, a, support.SuggestionInput{Title: "Sortino", Description: "Add it", UseCase: "Compare", PriorityForAgent: "critical"})
	require.NoError(t, err)
	en, err := d.svc.CreateInquiry(ctx, b, support.InquiryInput{OrganizationName: "Acme", ContactEmail: "cto@acme.example",
		Description: "Desk", Requirements: []string{"SSO"}, Timeline: "Q3", BudgetRange: &budget})
	require.NoError(t, err)
	bug, err := d.svc.CreateBugReport(ctx, b, support.BugReportInput{Title: "NaN", Description: "d", StepsToReproduce: "s",
		ExpectedBehavior: "e", ActualBehavior: "a", ToolName: &tool})
	require.NoError(t, err)

	recs, err := d.store.Submissions(ctx, support.SubmissionQuery{})
	require.NoError(t, err)
	require.Len(t, recs, 4)
	for _, r := range recs {
		for _, plain := range []string{"Great", "cto@acme.example", "Sortino", "calculate_kelly"} {
			assert.False(t, bytes.Contains(r.Content, []byte(plain)), "%s holds %q", r.ID, plain)
		}
	}

	l, err := d.svc.AdminSubmissions(ctx, support.SubmissionFilter{}, toolkit.PageInput{})
	require.NoError(t, err)
	require.Len(t, l.Submissions, 4)
	assert.Equal(t, []string{bug.ID, en.ID, sg.ID, fb.ID}, []string{l.Submissions[0].ID, l.Submissions[1].ID, l.Submissions[2].ID, l.Submissions[3].ID})
	assert.Equal(t, "calculate_kelly", *l.Submissions[0].BugReport.ToolName)
	assert.Nil(t, l.Submissions[0].BugReport.ErrorMessage)
	assert.Equal(t, "cto@acme.example", l.Submissions[1].Inquiry.ContactEmail)
	assert.Equal(t, "50-100k", *l.Submissions[1].Inquiry.BudgetRange)
	assert.Equal(t, "critical", l.Submissions[2].Suggestion.PriorityForAgent)
	assert.Equal(t, 5, l.Submissions[3].Feedback.Rating)

	only, err := d.svc.AdminSubmissions(ctx, support.SubmissionFilter{Kind: "feedback", AgentID: a}, toolkit.PageInput{})
	require.NoError(t, err)
	require.Len(t, only.Submissions, 1)
	assert.Equal(t, support.KindFeedback, only.Submissions[0].Kind)
	_, err = d.svc.AdminSubmissions(ctx, support.SubmissionFilter{Kind: "ticket"}, toolkit.PageInput{})
	assert.Contains(t, toolkit.MessageOf(err), "type: must be one of feedback, suggestion, enterprise, bug")
}

// TestRejectedInputWritesNothing: the domain checks every rule itself,
// whatever the transport checked before.
func TestRejectedInputWritesNothing(t *testing.T) {
	d := newDesk(t)
	a := d.agent(t, "agt_a")
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"empty subject", func() error {
			_, err := d.svc.CreateTicket(ctx, a, support.TicketInput{Description: "d", Priority: "low", Category: "other"})
			return err
		}, "subject: must be 1 to 200 characters (got 0)"},
		{"long subject", func() error { in := ticketInput(long(201)); _, err := d.svc.CreateTicket(ctx, a, in); return err }, "subject: must be 1 to 200 characters (got 201)"},
		{"blank description", func() error {
			_, err := d.svc.CreateTicket(ctx, a, support.TicketInput{Subject: "s", Description: " \n ", Priority: "low", Category: "other"})
			return err
		}, "description: must not be blank"},
		{"control in subject", func() error { _, err := d.svc.CreateTicket(ctx, a, ticketInput("a\x07b")); return err }, "subject: must not contain control characters"},
		{"bad UTF-8", func() error { _, err := d.svc.CreateTicket(ctx, a, ticketInput("a\xffb")); return err }, "subject: must be valid UTF-8"},
		{"priority", func() error {
			_, err := d.svc.CreateTicket(ctx, a, support.TicketInput{Subject: "s", Description: "d", Priority: "asap", Category: "other"})
			return err
		}, `priority: must be one of low, medium, high, urgent (got "asap")`},
		{"rating", func() error {
			_, err := d.svc.CreateFeedback(ctx, a, support.FeedbackInput{Rating: 0, Message: "m", Category: "tools"})
			return err
		}, "rating: must be an integer from 1 to 5 (got 0)"},
		{"feedback category", func() error {
			_, err := d.svc.CreateFeedback(ctx, a, support.FeedbackInput{Rating: 3, Message: "m", Category: "misc"})
			return err
		}, "category: must be one of tools, billing, performance, documentation, other"},
		{"email with a name", func() error {
			_, err := d.svc.CreateInquiry(ctx, a, support.InquiryInput{OrganizationName: "o", ContactEmail: "Bob <b@x.example>",
				Description: "d", Requirements: []string{"r"}, Timeline: "t"})
			return err
		}, "contact_email: must be an email address"},
		{"too many requirements", func() error {
			_, err := d.svc.CreateInquiry(ctx, a, support.InquiryInput{OrganizationName: "o", ContactEmail: "b@x.example",
				Description: "d", Requirements: make([]string, 51), Timeline: "t"})
			return err
		}, "requirements: must have 1 to 50 items (got 51)"},
		{"empty requirement", func() error {
			_, err := d.svc.CreateInquiry(ctx, a, support.InquiryInput{OrganizationName: "o", ContactEmail: "b@x.example",
				Description: "d", Requirements: []string{"ok", ""}, Timeline: "t"})
			return err
		}, "requirements[1]: must be 1 to 500 characters (got 0)"},
		{"empty tool name", func() error {
			empty := ""
			_, err := d.svc.CreateBugReport(ctx, a, support.BugReportInput{Title: "t", Description: "d", StepsToReproduce: "s",
				ExpectedBehavior: "e", ActualBehavior: "a", ToolName: &empty})
			return err
		}, "tool_name: must be 1 to 64 characters (got 0)"},
		{"long error message", func() error {
			msg := long(5001)
			_, err := d.svc.CreateBugReport(ctx, a, support.BugReportInput{Title: "t", Description: "d", StepsToReproduce: "s",
				ExpectedBehavior: "e", ActualBehavior: "a", ErrorMessage: &msg})
			return err
		}, "error_message: must be 0 to 5000 characters (got 5001)"},
		{"suggestion priority", func() error {
			_, err := d.svc.CreateSuggestion(ctx, a, support.SuggestionInput{Title: "t", Description: "d", UseCase: "u", PriorityForAgent: "low"})
			return err
		}, "priority_for_agent: must be one of nice_to_have, important, critical"},
	}
	for _, c := range cases {
		err := c.call()
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), c.name)
		assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), c.want), "%s: %s", c.name, toolkit.MessageOf(err))
	}
	tickets, err := d.store.Tickets(ctx, support.TicketQuery{})
	require.NoError(t, err)
	assert.Empty(t, tickets)
	subs, err := d.store.Submissions(ctx, support.SubmissionQuery{})
	require.NoError(t, err)
	assert.Empty(t, subs)
}

// failingReader is a randomness source that fails.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("entropy exhausted") }

func TestRandomnessFailureIsInternalAndWritesNothing(t *testing.T) {
	store := memstore.New()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	km, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	svc, err := support.NewService(store, support.Config{Vault: cryptovault.New(km), Random: failingReader{}})
	require.NoError(t, err)
	_, err = svc.CreateTicket(ctx, "agt_a", ticketInput("s"))
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
	_, err = svc.CreateFeedback(ctx, "agt_a", support.FeedbackInput{Rating: 1, Message: "m", Category: "other"})
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}
