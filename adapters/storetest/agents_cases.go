package storetest

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agentCases returns the cases of agents.Store: round trips, lookups,
// owner claims, key digests, listing and modes.
func agentCases() []Case {
	return []Case{
		{Name: "AgentRoundTrip", Test: testAgentRoundTrip},
		{Name: "AgentNotFound", Test: testAgentNotFound},
		{Name: "OwnerClaims", Test: testOwnerClaims},
		{Name: "DuplicateKeyDigest", Test: testDuplicateKeyDigest},
		{Name: "ListOrderingAndLimit", Test: testListOrderingAndLimit},
		{Name: "ModesAndTermination", Test: testModesAndTermination},
		{Name: "ReplaceKeyDigest", Test: testReplaceKeyDigest},
		{Name: "ReplaceKeyDigestTaken", Test: testReplaceKeyDigestTaken},
		{Name: "AgentCopiesInAndOut", Test: testAgentCopiesInAndOut},
		{Name: "SiblingInheritsSpendLimits", Test: testSiblingInheritsSpendLimits},
	}
}

func testAgentRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	desc := "Sizes trades — ünïcode ok"
	pct, dl := toolkit.MustParseAmount("5.5"), toolkit.MustParseAmount("2")
	local := time.FixedZone("UTC+5", 5*3600)
	a := agents.Agent{
		ID: "agt_roundtrip", OwnerID: "owner-rt", Name: "RiskBot", Type: agents.TypeRisk, Description: &desc,
		Mode: agents.ModeSandbox, CreatedAt: time.Date(2026, 3, 25, 17, 0, 0, 123456000, local),
		AuthorizedInstruments: []string{"AAPL", "MSFT"}, AuthorizedActions: []string{"risk_check"},
		MaxPositionSizePct: &pct, MaxDailyLossPct: &dl,
	}
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest("k-1"), NewOwner: true}))

	for _, get := range []func() (agents.Agent, error){
		func() (agents.Agent, error) { return s.AgentByID(ctx, a.ID) },
		func() (agents.Agent, error) { return s.AgentByKeyDigest(ctx, digest("k-1")) },
	} {
		got, err := get()
		require.NoError(t, err)
		assert.Equal(t, time.UTC, got.CreatedAt.Location(), "times come back in UTC")
		assert.True(t, got.CreatedAt.Equal(a.CreatedAt))
		assert.Equal(t, a.ID, got.ID)
		assert.Equal(t, a.OwnerID, got.OwnerID)
		assert.Equal(t, a.Name, got.Name)
		assert.Equal(t, a.Type, got.Type)
		assert.Equal(t, desc, *got.Description)
		assert.Equal(t, a.Mode, got.Mode)
		assert.Equal(t, a.AuthorizedInstruments, got.AuthorizedInstruments)
		assert.Equal(t, a.AuthorizedActions, got.AuthorizedActions)
		assert.Equal(t, "5.5", got.MaxPositionSizePct.String())
		assert.Equal(t, "2", got.MaxDailyLossPct.String())
	}

	plain := newAgent(t, s)
	got, err := s.AgentByID(ctx, plain.ID)
	require.NoError(t, err)
	assert.Nil(t, got.Description)
	assert.Nil(t, got.MaxPositionSizePct)
	assert.Empty(t, got.AuthorizedInstruments)
}

func testAgentNotFound(t *testing.T, h Harness) {
	s := openOne(t, h)
	_, err := s.AgentByID(ctx, "agt_missing")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = s.AgentByKeyDigest(ctx, digest("k-99"))
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = s.SetMode(ctx, "agt_missing", agents.ModeLive)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(s.ReplaceKeyDigest(ctx, "agt_missing", digest("k-98"), time.Now())))
	_, err = s.Balance(ctx, "agt_missing")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testOwnerClaims(t *testing.T, h Harness) {
	s := openOne(t, h)
	first := newAgent(t, s)
	second := agents.Agent{ID: "agt_second", OwnerID: first.OwnerID, Name: "b", Type: agents.TypeAnalysis,
		Mode: agents.ModeSandbox, CreatedAt: first.CreatedAt.Add(time.Second)}

	err := s.CreateAgent(ctx, agents.Registration{Agent: second, KeyDigest: digest("k-2"), NewOwner: true})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "claiming an existing owner as new is a conflict")
	_, err = s.AgentByID(ctx, second.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "nothing written on conflict")

	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: second, KeyDigest: digest("k-2"), NewOwner: false}), "joining an existing owner")

	orphan := agents.Agent{ID: "agt_orphan", OwnerID: "nobody", Name: "c", Type: agents.TypeRisk,
		Mode: agents.ModeSandbox, CreatedAt: first.CreatedAt}
	err = s.CreateAgent(ctx, agents.Registration{Agent: orphan, KeyDigest: digest("k-3"), NewOwner: false})
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "joining a missing owner")
}

func testDuplicateKeyDigest(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	dup := agents.Agent{ID: "agt_dupkey", OwnerID: "owner-dupkey", Name: "d", Type: agents.TypeRisk,
		Mode: agents.ModeSandbox, CreatedAt: a.CreatedAt}
	err := s.CreateAgent(ctx, agents.Registration{Agent: dup, KeyDigest: digest(a.ID), NewOwner: true})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	dup.ID = a.ID
	dup.OwnerID = "owner-dupid"
	err = s.CreateAgent(ctx, agents.Registration{Agent: dup, KeyDigest: digest("k-4"), NewOwner: true})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "duplicate agent id")
	_, err = s.AgentByID(ctx, "agt_dupkey")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testListOrderingAndLimit(t *testing.T, h Harness) {
	s := openOne(t, h)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := []string{"agt_c", "agt_a", "agt_b", "agt_d"}
	times := []time.Time{base.Add(2 * time.Hour), base, base, base.Add(time.Hour)}
	for i, id := range ids {
		a := agents.Agent{ID: id, OwnerID: "owner-list", Name: id, Type: agents.TypeTrading,
			Mode: agents.ModeSandbox, CreatedAt: times[i]}
		require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest(id), NewOwner: i == 0}))
	}
	newAgent(t, s) // another owner's agent never appears

	list, err := s.ListAgentsByOwner(ctx, "owner-list", 100)
	require.NoError(t, err)
	var got []string
	for _, a := range list {
		got = append(got, a.ID)
	}
	assert.Equal(t, []string{"agt_a", "agt_b", "agt_d", "agt_c"}, got, "oldest first, ties by id")

	list, err = s.ListAgentsByOwner(ctx, "owner-list", 2)
	require.NoError(t, err)
	assert.Len(t, list, 2)
	list, err = s.ListAgentsByOwner(ctx, "owner-none", 10)
	require.NoError(t, err)
	assert.Empty(t, list)
}

func testModesAndTermination(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	for _, m := range []agents.Mode{agents.ModeLive, agents.ModeSuspended, agents.ModeSandbox, agents.ModeTerminated} {
		got, err := s.SetMode(ctx, a.ID, m)
		require.NoError(t, err)
		assert.Equal(t, m, got.Mode)
	}
	_, err := s.SetMode(ctx, a.ID, agents.ModeLive)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "terminated is final")
	got, err := s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, agents.ModeTerminated, got.Mode)
}

func testReplaceKeyDigest(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	old := digest(a.ID)
	require.NoError(t, s.ReplaceKeyDigest(ctx, a.ID, digest("k-7"), time.Now()))
	_, err := s.AgentByKeyDigest(ctx, old)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "old key stops working")
	got, err := s.AgentByKeyDigest(ctx, digest("k-7"))
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
}

func testReplaceKeyDigestTaken(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	err := s.ReplaceKeyDigest(ctx, b.ID, digest(a.ID), time.Now())
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a digest belongs to one agent")
	for _, want := range []agents.Agent{a, b} {
		got, err := s.AgentByKeyDigest(ctx, digest(want.ID))
		require.NoError(t, err)
		assert.Equal(t, want.ID, got.ID, "both keys unchanged after the refused swap")
	}
	require.NoError(t, s.ReplaceKeyDigest(ctx, a.ID, digest(a.ID), time.Now()), "re-storing the own digest is no clash")
	got, err := s.AgentByKeyDigest(ctx, digest(a.ID))
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
}

// testAgentCopiesInAndOut: the store keeps no reference to what the caller
// passed in or got back.
func testAgentCopiesInAndOut(t *testing.T, h Harness) {
	s := openOne(t, h)
	desc, pct := "original", toolkit.MustParseAmount("5")
	a := agents.Agent{ID: "agt_copies", OwnerID: "owner-copies", Name: "c", Type: agents.TypeRisk, Description: &desc,
		Mode: agents.ModeSandbox, CreatedAt: t0, AuthorizedInstruments: []string{"AAPL"},
		AuthorizedActions: []string{"risk_check"}, MaxPositionSizePct: &pct}
	key := digest("k-copies")
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: key, NewOwner: true}))
	desc, a.AuthorizedInstruments[0], a.AuthorizedActions[0], key[0] = "changed", "MSFT", "x", key[0]^0xff
	pct = toolkit.MustParseAmount("50")

	got, err := s.AgentByKeyDigest(ctx, digest("k-copies"))
	require.NoError(t, err, "the stored digest is a copy")
	assert.Equal(t, "original", *got.Description)
	assert.Equal(t, []string{"AAPL"}, got.AuthorizedInstruments)
	assert.Equal(t, []string{"risk_check"}, got.AuthorizedActions)
	assert.Equal(t, "5", got.MaxPositionSizePct.String())

	*got.Description, got.AuthorizedInstruments[0], got.AuthorizedActions[0] = "mutated", "TSLA", "y"
	*got.MaxPositionSizePct = toolkit.MustParseAmount("60")
	list, err := s.ListAgentsByOwner(ctx, "owner-copies", 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	list[0].AuthorizedInstruments[0] = "NVDA"
	again, err := s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, "original", *again.Description)
	assert.Equal(t, []string{"AAPL"}, again.AuthorizedInstruments)
	assert.Equal(t, []string{"risk_check"}, again.AuthorizedActions)
	assert.Equal(t, "5", again.MaxPositionSizePct.String())
}

// testSiblingInheritsSpendLimits: an agent registered with another agent's
// key starts with a copy of that agent's spend limits, written with it.
func testSiblingInheritsSpendLimits(t *testing.T, h Harness) {
	s := openOne(t, h)
	parent := newAgent(t, s)
	daily := int64(40_000)
	require.NoError(t, s.SetSpendLimits(ctx, parent.ID, billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"}}))
	child := parent
	child.ID, child.CreatedAt = parent.ID+"c", parent.CreatedAt.Add(time.Second)
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: child, KeyDigest: digest(child.ID), LimitsFrom: parent.ID}))
	l, err := s.SpendLimits(ctx, child.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"}, Version: 1}, l)

	free := parent
	free.ID, free.CreatedAt = parent.ID+"f", parent.CreatedAt.Add(2*time.Second)
	other := newAgent(t, s)
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: free, KeyDigest: digest(free.ID), LimitsFrom: other.ID}))
	l, err = s.SpendLimits(ctx, free.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{}, l, "a registrar without limits passes none on")
}
