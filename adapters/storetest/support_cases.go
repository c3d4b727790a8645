package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// supportCases returns the cases of support.Store: ticket round trips,
// numbering (also under concurrency), keyset paging and filters, the
// conditional status change (also raced), submissions, and cancellation.
func supportCases() []Case {
	return []Case{
		{Name: "SupportTicketRoundTrip", Test: testSupportTicketRoundTrip},
		{Name: "SupportTicketNumbersAndDuplicates", Test: testSupportTicketNumbersAndDuplicates},
		{Name: "SupportConcurrentTicketNumbers", Test: testSupportConcurrentTicketNumbers},
		{Name: "SupportTicketListOrderAndFilters", Test: testSupportTicketListOrderAndFilters},
		{Name: "SupportTicketStatusChange", Test: testSupportTicketStatusChange},
		{Name: "SupportConcurrentStatusChange", Test: testSupportConcurrentStatusChange},
		{Name: "SupportSubmissions", Test: testSupportSubmissions},
		{Name: "SupportCancelledContextWritesNothing", Test: testSupportCancelledContextWritesNothing},
	}
}

// supportBase is the creation time of the support fixtures.
var supportBase = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// newTicket returns an open ticket record of agentID with distinct
// ciphertext-like bytes.
func newTicket(agentID, id string, at time.Time) support.TicketRecord {
	return support.TicketRecord{
		ID: id, AgentID: agentID, Subject: []byte("\x01sealed-subject-" + id), Description: []byte("\x01sealed-description-" + id),
		Priority: "high", Category: "billing", Status: support.StatusOpen, CreatedAt: at, UpdatedAt: at,
	}
}

func testSupportTicketRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	local := time.FixedZone("UTC-3", -3*3600)
	in := newTicket(a.ID, "sup_roundtrip0000001", time.Date(2026, 11, 24, 6, 0, 0, 123456000, local))
	in.Subject = []byte{0x00, 0xff, 0x10, 'a'} // arbitrary bytes survive
	created, err := s.CreateTicket(ctx, in)
	require.NoError(t, err)
	assert.Positive(t, created.Number, "the store assigns a positive number")

	got, err := s.TicketByNumber(ctx, created.Number)
	require.NoError(t, err)
	assert.Equal(t, in.ID, got.ID)
	assert.Equal(t, created.Number, got.Number)
	assert.Equal(t, a.ID, got.AgentID)
	assert.Equal(t, in.Subject, got.Subject)
	assert.Equal(t, in.Description, got.Description)
	assert.Equal(t, "high", got.Priority)
	assert.Equal(t, "billing", got.Category)
	assert.Equal(t, support.StatusOpen, got.Status)
	assert.Equal(t, time.UTC, got.CreatedAt.Location(), "times come back in UTC")
	assert.True(t, got.CreatedAt.Equal(in.CreatedAt))
	assert.True(t, got.UpdatedAt.Equal(in.UpdatedAt))

	list, err := s.Tickets(ctx, support.TicketQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Nil(t, list[0].Description, "lists leave the description out")
	assert.Equal(t, in.Subject, list[0].Subject)
	assert.Equal(t, created.Number, list[0].Number)

	_, err = s.TicketByNumber(ctx, created.Number+1000)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testSupportTicketNumbersAndDuplicates(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	first, err := s.CreateTicket(ctx, newTicket(a.ID, "sup_numbers000000001", supportBase))
	require.NoError(t, err)
	second, err := s.CreateTicket(ctx, newTicket(a.ID, "sup_numbers000000002", supportBase))
	require.NoError(t, err)
	assert.Greater(t, second.Number, first.Number, "numbers increase")

	_, err = s.CreateTicket(ctx, newTicket(a.ID, "sup_numbers000000001", supportBase.Add(time.Hour)))
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "duplicate ticket id")
	list, err := s.Tickets(ctx, support.TicketQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 2, "nothing written on conflict")
}

func testSupportConcurrentTicketNumbers(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	a := newAgent(t, stores[0])
	const n = 40
	numbers := make([]int64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			rec, err := stores[i%2].CreateTicket(ctx, newTicket(a.ID, fmt.Sprintf("sup_concurrent%06d", i), supportBase))
			numbers[i], errs[i] = rec.Number, err
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for i := range n {
		require.NoError(t, errs[i])
		assert.False(t, seen[numbers[i]], "number %d assigned twice", numbers[i])
		seen[numbers[i]] = true
		got, err := stores[0].TicketByNumber(ctx, numbers[i])
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("sup_concurrent%06d", i), got.ID, "each number names its own ticket")
	}
}

func testSupportTicketListOrderAndFilters(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	// Ties on created_at are broken by id; sub-second and microsecond
	// differences order correctly on every engine.
	fixtures := []struct {
		id    string
		at    time.Time
		agent string
	}{
		{"sup_list000000000001", supportBase, a.ID},
		{"sup_list000000000002", supportBase, a.ID},
		{"sup_list000000000003", supportBase.Add(time.Microsecond), a.ID},
		{"sup_list000000000004", supportBase.Add(500 * time.Millisecond), a.ID},
		{"sup_list000000000005", supportBase.Add(time.Second), a.ID},
		{"sup_list000000000006", supportBase.Add(120 * time.Millisecond), b.ID},
	}
	numbers := map[string]int64{}
	for _, f := range fixtures {
		rec, err := s.CreateTicket(ctx, newTicket(f.agent, f.id, f.at))
		require.NoError(t, err)
		numbers[f.id] = rec.Number
	}
	ids := func(recs []support.TicketRecord) []string {
		out := []string{}
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	newestA := []string{"sup_list000000000005", "sup_list000000000004", "sup_list000000000003", "sup_list000000000002", "sup_list000000000001"}

	list, err := s.Tickets(ctx, support.TicketQuery{AgentID: a.ID, Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, newestA, ids(list), "newest first, ties by id descending")

	list, err = s.Tickets(ctx, support.TicketQuery{Limit: 100})
	require.NoError(t, err)
	assert.Len(t, list, 6, "every agent's tickets without an agent filter")
	assert.Equal(t, "sup_list000000000006", list[2].ID)

	// Walk the pages: each continues strictly after the last item.
	var walked []string
	var after *toolkit.Cursor
	for range 10 {
		page, err := s.Tickets(ctx, support.TicketQuery{AgentID: a.ID, After: after, Limit: 2})
		require.NoError(t, err)
		if len(page) == 0 {
			break
		}
		assert.LessOrEqual(t, len(page), 2)
		walked = append(walked, ids(page)...)
		last := page[len(page)-1]
		after = &toolkit.Cursor{At: last.CreatedAt, ID: last.ID}
	}
	assert.Equal(t, newestA, walked, "pages cover the list once, in order")

	_, changed, err := s.SetTicketStatus(ctx, support.StatusChange{Number: numbers["sup_list000000000003"],
		To: support.StatusResolved, From: []support.Status{support.StatusOpen}, At: supportBase.Add(time.Hour)})
	require.NoError(t, err)
	require.True(t, changed)
	list, err = s.Tickets(ctx, support.TicketQuery{AgentID: a.ID, Status: support.StatusResolved, Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []string{"sup_list000000000003"}, ids(list))
	list, err = s.Tickets(ctx, support.TicketQuery{AgentID: b.ID, Status: support.StatusResolved, Limit: 100})
	require.NoError(t, err)
	assert.Empty(t, list)
	list, err = s.Tickets(ctx, support.TicketQuery{Status: support.StatusOpen, Limit: 100})
	require.NoError(t, err)
	assert.Len(t, list, 5)
}

func testSupportTicketStatusChange(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	rec, err := s.CreateTicket(ctx, newTicket(a.ID, "sup_status0000000001", supportBase))
	require.NoError(t, err)
	later := supportBase.Add(90 * time.Minute)

	got, changed, err := s.SetTicketStatus(ctx, support.StatusChange{Number: rec.Number, To: support.StatusInProgress,
		From: []support.Status{support.StatusOpen}, At: later})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, support.StatusInProgress, got.Status)
	assert.True(t, got.UpdatedAt.Equal(later), "updated_at moves")
	assert.True(t, got.CreatedAt.Equal(supportBase), "created_at stays")
	assert.Equal(t, rec.Description, got.Description, "the answer is the full ticket")

	got, changed, err = s.SetTicketStatus(ctx, support.StatusChange{Number: rec.Number, To: support.StatusClosed,
		From: []support.Status{support.StatusResolved}, At: later.Add(time.Hour)})
	require.NoError(t, err)
	assert.False(t, changed, "not in an allowed source state")
	assert.Equal(t, support.StatusInProgress, got.Status, "the current state is returned unchanged")
	assert.True(t, got.UpdatedAt.Equal(later))

	_, _, err = s.SetTicketStatus(ctx, support.StatusChange{Number: rec.Number + 1000, To: support.StatusClosed,
		From: []support.Status{support.StatusOpen}, At: later})
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testSupportConcurrentStatusChange(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	a := newAgent(t, stores[0])
	rec, err := stores[0].CreateTicket(ctx, newTicket(a.ID, "sup_race000000000001", supportBase))
	require.NoError(t, err)
	const n = 20
	changed := make([]bool, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		to := support.StatusResolved
		if i%2 == 1 {
			to = support.StatusInProgress
		}
		wg.Go(func() {
			_, changed[i], errs[i] = stores[i%2].SetTicketStatus(ctx, support.StatusChange{Number: rec.Number, To: to,
				From: []support.Status{support.StatusOpen}, At: supportBase.Add(time.Duration(i+1) * time.Second)})
		})
	}
	wg.Wait()
	wins := 0
	for i := range n {
		require.NoError(t, errs[i])
		if changed[i] {
			wins++
		}
	}
	assert.Equal(t, 1, wins, "exactly one move out of open applies")
}

func testSupportSubmissions(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	kinds := []support.Kind{support.KindFeedback, support.KindSuggestion, support.KindEnterprise, support.KindBug, support.KindFeedback}
	for i, k := range kinds {
		agent := a.ID
		if i == 4 {
			agent = b.ID
		}
		require.NoError(t, s.CreateSubmission(ctx, support.SubmissionRecord{
			ID: fmt.Sprintf("sub_%016d", i), Kind: k, AgentID: agent, Status: support.StatusReceived,
			Content: []byte{0x01, byte(i), 0x00, 0xfe}, CreatedAt: supportBase.Add(time.Duration(i) * time.Millisecond),
		}))
	}
	dup := support.SubmissionRecord{ID: "sub_0000000000000000", Kind: support.KindBug, AgentID: a.ID,
		Status: support.StatusReceived, Content: []byte{1}, CreatedAt: supportBase}
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(s.CreateSubmission(ctx, dup)), "duplicate id")

	all, err := s.Submissions(ctx, support.SubmissionQuery{Limit: 100})
	require.NoError(t, err)
	require.Len(t, all, 5, "nothing written on conflict")
	assert.Equal(t, "sub_0000000000000004", all[0].ID, "newest first")
	assert.Equal(t, b.ID, all[0].AgentID)
	assert.Equal(t, []byte{0x01, 4, 0x00, 0xfe}, all[0].Content, "content bytes round-trip")
	assert.Equal(t, support.StatusReceived, all[0].Status)
	assert.Equal(t, time.UTC, all[0].CreatedAt.Location())
	assert.True(t, all[0].CreatedAt.Equal(supportBase.Add(4*time.Millisecond)))

	fb, err := s.Submissions(ctx, support.SubmissionQuery{Kind: support.KindFeedback, Limit: 100})
	require.NoError(t, err)
	require.Len(t, fb, 2)
	assert.Equal(t, support.KindFeedback, fb[1].Kind)
	mine, err := s.Submissions(ctx, support.SubmissionQuery{Kind: support.KindFeedback, AgentID: a.ID, Limit: 100})
	require.NoError(t, err)
	require.Len(t, mine, 1)
	assert.Equal(t, "sub_0000000000000000", mine[0].ID)

	page, err := s.Submissions(ctx, support.SubmissionQuery{AgentID: a.ID, Limit: 2,
		After: &toolkit.Cursor{At: all[2].CreatedAt, ID: all[2].ID}})
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.Equal(t, "sub_0000000000000001", page[0].ID)
	assert.Equal(t, "sub_0000000000000000", page[1].ID)
}

func testSupportCancelledContextWritesNothing(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	rec, err := s.CreateTicket(ctx, newTicket(a.ID, "sup_cancel0000000001", supportBase))
	require.NoError(t, err)
	done, cancel := context.WithCancel(ctx)
	cancel()

	writes := map[string]func() error{
		"CreateTicket": func() error {
			_, err := s.CreateTicket(done, newTicket(a.ID, "sup_cancel0000000002", supportBase))
			return err
		},
		"SetTicketStatus": func() error {
			_, _, err := s.SetTicketStatus(done, support.StatusChange{Number: rec.Number, To: support.StatusClosed,
				From: []support.Status{support.StatusOpen}, At: supportBase.Add(time.Hour)})
			return err
		},
		"CreateSubmission": func() error {
			return s.CreateSubmission(done, support.SubmissionRecord{ID: "fb_cancel000000000001", Kind: support.KindFeedback,
				AgentID: a.ID, Status: support.StatusReceived, Content: []byte{1}, CreatedAt: supportBase})
		},
	}
	for name, write := range writes {
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(write()), name)
	}
	list, err := s.Tickets(ctx, support.TicketQuery{Limit: 10})
	require.NoError(t, err)
	require.Len(t, list, 1, "no ticket created")
	assert.Equal(t, support.StatusOpen, list[0].Status, "status unchanged")
	subs, err := s.Submissions(ctx, support.SubmissionQuery{Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, subs, "no submission created")
}
