package support_test

import (
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTicketStateMachine pins every pair of states: the documented
// transitions are allowed and nothing else is.
func TestTicketStateMachine(t *testing.T) {
	allowed := map[[2]support.Status]bool{
		{support.StatusOpen, support.StatusInProgress}:     true,
		{support.StatusOpen, support.StatusResolved}:       true,
		{support.StatusOpen, support.StatusClosed}:         true,
		{support.StatusInProgress, support.StatusOpen}:     true,
		{support.StatusInProgress, support.StatusResolved}: true,
		{support.StatusInProgress, support.StatusClosed}:   true,
		{support.StatusResolved, support.StatusOpen}:       true,
		{support.StatusResolved, support.StatusClosed}:     true,
	}
	for _, from := range support.Statuses {
		for _, to := range support.Statuses {
			assert.Equal(t, allowed[[2]support.Status{from, to}], support.CanMove(from, to), "%s -> %s", from, to)
		}
	}
	assert.Empty(t, support.Next(support.StatusClosed), "closed is final")
	assert.Equal(t, []support.Status{support.StatusOpen, support.StatusClosed}, support.Next(support.StatusResolved))
}

func TestParseStatus(t *testing.T) {
	for _, s := range support.Statuses {
		got, err := support.ParseStatus("status", string(s))
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	for _, bad := range []string{"", "Open", "done", "open "} {
		_, err := support.ParseStatus("status", bad)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
		assert.Contains(t, toolkit.MessageOf(err), "status: must be one of open, in_progress, resolved, closed", bad)
	}
}

func TestTicketRefs(t *testing.T) {
	for n, ref := range map[int64]string{1: "SR-000001", 142: "SR-000142", 999999: "SR-999999", 1000000: "SR-1000000",
		9223372036854775807: "SR-9223372036854775807"} {
		assert.Equal(t, ref, support.TicketRef(n))
		got, err := support.ParseTicketRef(ref)
		require.NoError(t, err, ref)
		assert.Equal(t, n, got)
	}
	for _, bad := range []string{"", "SR-", "SR-42", "SR-0000142", "sr-000142", "SR-000000", "SR--00001", "SR-+00001",
		"SR-00001a", " SR-000001", "SR-000001 ", "SR-9223372036854775808", "SR-01000000", "sup_abc", "142"} {
		_, err := support.ParseTicketRef(bad)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
		assert.Contains(t, toolkit.MessageOf(err), "ticket_id: must be a ticket reference like SR-000142", bad)
	}
}
