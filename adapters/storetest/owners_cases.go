package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownerCases returns the cases of owner keys, API key times, ceilings and
// the owner's views (usage per day, the ledger across agents, the owner
// list).
func ownerCases() []Case {
	return []Case{
		{Name: "OwnerKeyHashRoundTrip", Test: testOwnerKeyHashRoundTrip},
		{Name: "OwnerKeyHashUniqueAndOptional", Test: testOwnerKeyHashUniqueAndOptional},
		{Name: "WalletOwnerGetsKeyHash", Test: testWalletOwnerGetsKeyHash},
		{Name: "ListOwnersPagesAndCounts", Test: testListOwnersPagesAndCounts},
		{Name: "APIKeyTimes", Test: testAPIKeyTimes},
		{Name: "CeilingsRoundTrip", Test: testCeilingsRoundTrip},
		{Name: "DailyUsageGroups", Test: testDailyUsageGroups},
		{Name: "TransactionsAcrossAgents", Test: testTransactionsAcrossAgents},
	}
}

// newOwnedAgent stores an agent of owner; with hash set it claims the
// owner with that owner key hash.
func newOwnedAgent(t *testing.T, s Store, owner string, newOwner bool, hash []byte) agents.Agent {
	t.Helper()
	n := seq.Add(1)
	a := agents.Agent{ID: fmt.Sprintf("agt_own%08d", n), OwnerID: owner, Name: "bot", Type: agents.TypeTrading,
		Mode: agents.ModeSandbox, CreatedAt: t0.Add(time.Duration(n) * time.Microsecond)}
	a.KeyCreatedAt = a.CreatedAt
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest(a.ID), NewOwner: newOwner, OwnerKeyHash: hash}))
	return a
}

func testOwnerKeyHashRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	owner := fmt.Sprintf("acme-%d", seq.Add(1))
	a := newOwnedAgent(t, s, owner, true, digest("owner-key-1"+owner))
	got, err := s.OwnerByKeyHash(ctx, digest("owner-key-1"+owner))
	require.NoError(t, err)
	assert.Equal(t, owner, got.ID)
	assert.True(t, got.CreatedAt.Equal(a.CreatedAt))
	require.NotNil(t, got.KeyCreatedAt)
	assert.True(t, got.KeyCreatedAt.Equal(a.CreatedAt), "the first key is as old as the owner")
	assert.Equal(t, time.UTC, got.KeyCreatedAt.Location())

	_, err = s.OwnerByKeyHash(ctx, digest("no such key"))
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)

	later := t0.Add(time.Hour)
	require.NoError(t, s.ReplaceOwnerKeyHash(ctx, owner, digest("owner-key-2"+owner), later))
	_, err = s.OwnerByKeyHash(ctx, digest("owner-key-1"+owner))
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "the old key stops working: %v", err)
	got, err = s.OwnerByKeyHash(ctx, digest("owner-key-2"+owner))
	require.NoError(t, err)
	assert.True(t, got.KeyCreatedAt.Equal(later))

	err = s.ReplaceOwnerKeyHash(ctx, "nobody-"+owner, digest("x"), later)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
}

func testOwnerKeyHashUniqueAndOptional(t *testing.T, h Harness) {
	s := openOne(t, h)
	n := seq.Add(1)
	first, second := fmt.Sprintf("first-%d", n), fmt.Sprintf("second-%d", n)
	newOwnedAgent(t, s, first, true, nil)
	newOwnedAgent(t, s, second, true, nil) // two owners without a key
	list, err := s.ListOwners(ctx, fmt.Sprintf("first-%d", n-1)+"~", 500)
	require.NoError(t, err)
	for _, o := range list {
		if o.ID == first || o.ID == second {
			assert.Nil(t, o.KeyCreatedAt, "an owner registered without a key has none")
		}
	}
	require.NoError(t, s.ReplaceOwnerKeyHash(ctx, first, digest("shared"+first), t0))
	err = s.ReplaceOwnerKeyHash(ctx, second, digest("shared"+first), t0)
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "one hash names one owner: %v", err)
	got, err := s.OwnerByKeyHash(ctx, digest("shared"+first))
	require.NoError(t, err)
	assert.Equal(t, first, got.ID)
	// A sibling registration leaves the owner's key alone.
	newOwnedAgent(t, s, first, false, nil)
	got, err = s.OwnerByKeyHash(ctx, digest("shared"+first))
	require.NoError(t, err)
	assert.Equal(t, first, got.ID)
}

func testWalletOwnerGetsKeyHash(t *testing.T, h Harness) {
	s := openOne(t, h)
	wallet := fmt.Sprintf("W%d", seq.Add(1))
	in := signIn(wallet)
	in.OwnerKeyHash = digest("owner-key:" + wallet)
	a, created, err := s.RegisterWallet(ctx, in)
	require.NoError(t, err)
	require.True(t, created)
	o, err := s.OwnerByKeyHash(ctx, in.OwnerKeyHash)
	require.NoError(t, err)
	assert.Equal(t, a.OwnerID, o.ID)
	assert.True(t, a.KeyCreatedAt.Equal(in.NewAgent.CreatedAt))

	again := signIn(wallet)
	again.NewAgent.CreatedAt = t0.Add(time.Minute)
	again.OwnerKeyHash = digest("another owner key:" + wallet)
	a2, created, err := s.RegisterWallet(ctx, again)
	require.NoError(t, err)
	assert.False(t, created)
	assert.True(t, a2.KeyCreatedAt.Equal(again.NewAgent.CreatedAt), "a sign-in that rotates the key dates the new key")
	_, err = s.OwnerByKeyHash(ctx, again.OwnerKeyHash)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "a rotation creates no owner key: %v", err)
}

func testListOwnersPagesAndCounts(t *testing.T, h Harness) {
	s := openOne(t, h)
	base := fmt.Sprintf("list-%06d-", seq.Add(1))
	for _, o := range []string{"b", "a", "c"} {
		newOwnedAgent(t, s, base+o, true, digest(base+o))
	}
	newOwnedAgent(t, s, base+"a", false, nil)
	suspended := newOwnedAgent(t, s, base+"a", false, nil)
	_, err := s.SetMode(ctx, suspended.ID, agents.ModeSuspended)
	require.NoError(t, err)

	page, err := s.ListOwners(ctx, base, 2)
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.Equal(t, base+"a", page[0].ID)
	assert.Equal(t, 3, page[0].Agents)
	assert.Equal(t, 2, page[0].Active)
	require.NotNil(t, page[0].KeyCreatedAt)
	assert.Equal(t, base+"b", page[1].ID)
	assert.Equal(t, 1, page[1].Agents)
	next, err := s.ListOwners(ctx, page[1].ID, 2)
	require.NoError(t, err)
	require.NotEmpty(t, next)
	assert.Equal(t, base+"c", next[0].ID, "the next page starts after the last id")
}

func testAPIKeyTimes(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newOwnedAgent(t, s, fmt.Sprintf("keys-%d", seq.Add(1)), true, nil)
	got, err := s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.True(t, got.KeyCreatedAt.Equal(a.CreatedAt))
	assert.Nil(t, got.KeyUsedAt, "a new key was never used")

	used := t0.Add(10 * time.Minute)
	require.NoError(t, s.TouchKey(ctx, a.ID, used, used.Add(-time.Minute)))
	require.NoError(t, s.TouchKey(ctx, a.ID, used.Add(30*time.Second), used.Add(-30*time.Second)),
		"a use within the resolution is not written")
	got, err = s.AgentByKeyDigest(ctx, digest(a.ID))
	require.NoError(t, err)
	require.NotNil(t, got.KeyUsedAt)
	assert.True(t, got.KeyUsedAt.Equal(used), "got %v", got.KeyUsedAt)
	later := used.Add(5 * time.Minute)
	require.NoError(t, s.TouchKey(ctx, a.ID, later, later.Add(-time.Minute)))
	got, err = s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.True(t, got.KeyUsedAt.Equal(later))

	rotated := t0.Add(time.Hour)
	require.NoError(t, s.ReplaceKeyDigest(ctx, a.ID, digest("rotated"+a.ID), rotated))
	got, err = s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.True(t, got.KeyCreatedAt.Equal(rotated))
	assert.Nil(t, got.KeyUsedAt, "a rotated key starts unused")
	assert.NoError(t, s.TouchKey(ctx, "agt_unknown_touch", rotated, rotated), "an unknown agent is not an error")
}

func testCeilingsRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	daily, ceiling, monthCeiling := int64(5_000_000), int64(8_000_000), int64(90_000_000)
	in := billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"},
		Ceilings: billing.Ceilings{DailyMicros: &ceiling, MonthlyMicros: &monthCeiling, AllowedOperations: []string{"position_sizing", "risk_check"}}}
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, in))
	got, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1), got.Version)
	assert.Equal(t, daily, *got.DailyMicros)
	require.NotNil(t, got.Ceilings.DailyMicros)
	assert.Equal(t, ceiling, *got.Ceilings.DailyMicros)
	assert.Equal(t, monthCeiling, *got.Ceilings.MonthlyMicros)
	assert.Equal(t, []string{"position_sizing", "risk_check"}, got.Ceilings.AllowedOperations)

	got.Ceilings = billing.Ceilings{}
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, got))
	again, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Nil(t, again.Ceilings.DailyMicros, "ceilings can be removed")
	assert.Empty(t, again.Ceilings.AllowedOperations)
	assert.Equal(t, daily, *again.DailyMicros)
	err = s.SetSpendLimits(ctx, a.ID, in) // version 0 is stale now
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "the compare-and-swap covers ceilings: %v", err)
}

func testDailyUsageGroups(t *testing.T, h Harness) {
	s := openOne(t, h)
	owner := fmt.Sprintf("usage-%d", seq.Add(1))
	a := newOwnedAgent(t, s, owner, true, nil)
	b := newOwnedAgent(t, s, owner, false, nil)
	for _, id := range []string{a.ID, b.ID} {
		credit(t, s, id, 100_000_000, nil)
	}
	day1, day2 := time.Date(2026, 11, 20, 23, 59, 0, 0, time.UTC), time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC)
	for _, c := range []struct {
		agent, op string
		micros    int64
		at        time.Time
	}{
		{a.ID, "risk_check", 10_000, day1}, {a.ID, "risk_check", 10_000, day1}, {a.ID, "position_sizing", 5_000, day1},
		{b.ID, "risk_check", 10_000, day1}, {a.ID, "risk_check", 20_000, day2},
		{a.ID, "risk_check", 1, day2.AddDate(0, 0, 5)}, // outside the range
	} {
		req := chargeReq(c.agent, c.op, c.micros)
		req.At, req.DayStart = c.at, c.at.Truncate(24*time.Hour)
		req.MonthStart = time.Date(c.at.Year(), c.at.Month(), 1, 0, 0, 0, 0, time.UTC)
		_, err := s.Charge(ctx, req)
		require.NoError(t, err)
	}
	rows, err := s.DailyUsage(ctx, billing.UsageQuery{AgentIDs: []string{a.ID, b.ID},
		From: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	d1, d2 := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	want := []billing.DailyUsage{
		{Day: d1, AgentID: a.ID, Operation: "position_sizing", Count: 1, TotalMicros: 5_000},
		{Day: d1, AgentID: a.ID, Operation: "risk_check", Count: 2, TotalMicros: 20_000},
		{Day: d1, AgentID: b.ID, Operation: "risk_check", Count: 1, TotalMicros: 10_000},
		{Day: d2, AgentID: a.ID, Operation: "risk_check", Count: 1, TotalMicros: 20_000},
	}
	require.Len(t, rows, len(want), "%+v", rows)
	for i := range want {
		assert.True(t, want[i].Day.Equal(rows[i].Day), "row %d day %v", i, rows[i].Day)
		rows[i].Day = want[i].Day
	}
	assert.Equal(t, want, rows, "deposits and rows outside the range are not usage")

	only, err := s.DailyUsage(ctx, billing.UsageQuery{AgentIDs: []string{b.ID}, From: d1, To: d2})
	require.NoError(t, err)
	require.Len(t, only, 1)
	assert.Equal(t, b.ID, only[0].AgentID)
}

func testTransactionsAcrossAgents(t *testing.T, h Harness) {
	s := openOne(t, h)
	owner := fmt.Sprintf("ledger-%d", seq.Add(1))
	a := newOwnedAgent(t, s, owner, true, nil)
	b := newOwnedAgent(t, s, owner, false, nil)
	other := newAgent(t, s)
	var want []string
	for i, id := range []string{a.ID, b.ID, other.ID, a.ID, b.ID} {
		tx := credit(t, s, id, int64(1000+i), nil)
		if id != other.ID {
			want = append([]string{tx.TxID}, want...)
		}
	}
	first, err := s.Transactions(ctx, billing.TransactionQuery{AgentIDs: []string{a.ID, b.ID}, Limit: 3})
	require.NoError(t, err)
	require.Len(t, first, 3)
	rest, err := s.Transactions(ctx, billing.TransactionQuery{AgentIDs: []string{a.ID, b.ID}, Limit: 3, BeforeSeq: first[2].Seq})
	require.NoError(t, err)
	var got []string
	for _, tx := range append(first, rest...) {
		got = append(got, tx.TxID)
	}
	assert.Equal(t, want, got, "both agents' rows, newest first, none of another owner's")
}
