package storetest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spendCases returns the cases of the spend-cap windows and of charges
// that share a moment (and, in a group-committing store, a transaction).
func spendCases() []Case {
	return []Case{
		{Name: "SpendWindowsRollOver", Test: testSpendWindowsRollOver},
		{Name: "SimultaneousChargesIndependent", Test: testSimultaneousChargesIndependent},
		{Name: "ChargeCheckReadsBalanceLimitsAndTotals", Test: testChargeCheck},
		{Name: "SpendTotalsFollowTheBillingRule", Test: testSpendTotalsFollowTheBillingRule},
		{Name: "ChargeRefusesLimitsReadBeforeAChange", Test: testChargeRefusesStaleLimits},
	}
}

// chargeAt is a charge dated at, in at's UTC day and month.
func chargeAt(agentID string, micros int64, at time.Time, limits billing.SpendLimits) billing.ChargeRequest {
	at = at.UTC()
	return billing.ChargeRequest{TxID: fmt.Sprintf("tx_w%d", seq.Add(1)), AgentID: agentID, Operation: "risk_check",
		Micros: micros, At: at, DayStart: at.Truncate(24 * time.Hour),
		MonthStart: time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC), Limits: limits}
}

// testSpendWindowsRollOver: a new UTC day starts the daily total over but
// not the monthly one; a new month starts both over. Spent agrees at each
// window start.
func testSpendWindowsRollOver(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	daily, monthly := int64(10_000), int64(15_000)
	limits := billing.SpendLimits{DailyMicros: &daily, MonthlyMicros: &monthly}
	lastDay := time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC)
	nextDay := time.Date(2026, 11, 30, 0, 0, 1, 0, time.UTC)
	nextMonth := time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)

	_, err := s.Charge(ctx, chargeAt(a.ID, 8_000, lastDay, limits))
	require.NoError(t, err)
	_, err = s.Charge(ctx, chargeAt(a.ID, 4_000, lastDay, limits))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "8,000 + 4,000 passes the daily cap")
	assert.Contains(t, toolkit.MessageOf(err), "Daily spend limit")

	_, err = s.Charge(ctx, chargeAt(a.ID, 5_000, nextDay, limits))
	require.NoError(t, err, "a new day starts the daily total over")
	_, err = s.Charge(ctx, chargeAt(a.ID, 3_000, nextDay, limits))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "8,000 + 5,000 + 3,000 passes the monthly cap")
	assert.Contains(t, toolkit.MessageOf(err), "Monthly spend limit")
	for since, want := range map[time.Time]int64{
		nextDay.Truncate(24 * time.Hour):             5_000,
		lastDay.Truncate(24 * time.Hour):             13_000,
		time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC): 13_000,
		time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC): 0,
	} {
		spent, err := s.Spent(ctx, a.ID, since)
		require.NoError(t, err)
		assert.Equal(t, want, spent, "spent since %s", since)
	}

	_, err = s.Charge(ctx, chargeAt(a.ID, 9_000, nextMonth, limits))
	require.NoError(t, err, "a new month starts both totals over")
	spent, err := s.Spent(ctx, a.ID, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Equal(t, int64(9_000), spent)
	_, err = s.Charge(ctx, chargeAt(a.ID, 2_000, nextMonth, limits))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "9,000 + 2,000 passes the new day's cap")
	checkLedger(t, s, a.ID)
}

// testSimultaneousChargesIndependent: charges of several agents at one
// moment (in a group-committing store, typically one batch) each succeed
// or fail on their own: an agent short of funds, a duplicate idempotency
// key, a cap and a reused transaction id fail alone.
func testSimultaneousChargesIndependent(t *testing.T, h Harness) {
	s := openOne(t, h)
	rich, poor, keyed, capped := newAgent(t, s), newAgent(t, s), newAgent(t, s), newAgent(t, s)
	for _, a := range []string{rich.ID, keyed.ID, capped.ID} {
		credit(t, s, a, 1_000_000, nil)
	}
	credit(t, s, poor.ID, 2_000, nil)
	one := int64(3_000)
	dupTx := fmt.Sprintf("tx_dup%d", seq.Add(1))
	var reqs []billing.ChargeRequest
	for range 10 {
		reqs = append(reqs, chargeReq(rich.ID, "risk_check", 3_000))
	}
	poorReq := chargeReq(poor.ID, "risk_check", 3_000)
	reqs = append(reqs, poorReq)
	for range 2 {
		r := chargeReq(keyed.ID, "risk_check", 3_000)
		r.Idempotency = &billing.IdempotentResponse{Key: "same-key", RequestHash: "h", Response: []byte(`{}`)}
		reqs = append(reqs, r)
	}
	for range 2 {
		r := chargeReq(capped.ID, "risk_check", 3_000)
		r.Limits = billing.SpendLimits{DailyMicros: &one}
		reqs = append(reqs, r)
	}
	for range 2 {
		r := chargeReq(rich.ID, "risk_check", 3_000)
		r.TxID = dupTx
		reqs = append(reqs, r)
	}
	errs := make([]error, len(reqs))
	for round := range 5 { // five rounds: the outcome never depends on how the charges are grouped
		var done atomic.Int64
		parallel(len(reqs), func(i int) {
			r := reqs[i]
			if r.TxID != dupTx {
				r.TxID = fmt.Sprintf("tx_r%d_%d", round, seq.Add(1))
			}
			if r.Idempotency != nil {
				idem := *r.Idempotency
				idem.Key = fmt.Sprintf("key-%d", round)
				r.Idempotency = &idem
			}
			if r.AgentID == capped.ID {
				r.At = r.At.Add(time.Duration(round) * 24 * time.Hour)
				r.DayStart = r.DayStart.Add(time.Duration(round) * 24 * time.Hour)
			}
			_, errs[i] = s.Charge(ctx, r)
			done.Add(1)
		})
		require.Equal(t, int64(len(reqs)), done.Load())
		count := map[string]map[toolkit.Kind]int{}
		for i, err := range errs {
			a := reqs[i].AgentID
			if reqs[i].TxID == dupTx {
				a = "duplicate tx id"
			}
			if count[a] == nil {
				count[a] = map[toolkit.Kind]int{}
			}
			kind := toolkit.Kind(255) // success
			if err != nil {
				kind = toolkit.KindOf(err)
			}
			count[a][kind]++
		}
		success := toolkit.Kind(255)
		assert.Equal(t, map[toolkit.Kind]int{success: 10}, count[rich.ID], "round %d: the funded agent is charged every time", round)
		assert.Equal(t, map[toolkit.Kind]int{toolkit.InsufficientCredits: 1}, count[poor.ID], "round %d", round)
		assert.Equal(t, map[toolkit.Kind]int{success: 1, toolkit.Conflict: 1}, count[keyed.ID], "round %d: one key, one charge", round)
		assert.Equal(t, map[toolkit.Kind]int{success: 1, toolkit.Forbidden: 1}, count[capped.ID], "round %d: one charge fits the cap", round)
		if round == 0 {
			assert.Equal(t, map[toolkit.Kind]int{success: 1, toolkit.Conflict: 1}, count["duplicate tx id"], "one transaction id, one row")
		} else {
			assert.Equal(t, map[toolkit.Kind]int{toolkit.Conflict: 2}, count["duplicate tx id"], "round %d", round)
		}
	}
	for _, a := range []string{rich.ID, poor.ID, keyed.ID, capped.ID} {
		checkLedger(t, s, a)
	}
	b, err := s.Balance(ctx, rich.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000-51*3_000), b.Micros, "50 charges plus the transaction id's one")
	b, err = s.Balance(ctx, keyed.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000-5*3_000), b.Micros)
}

// testChargeCheck: the meter's one pre-run read returns the balances, the
// limits and the consumption of the windows asked for.
func testChargeCheck(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	_, err := s.ChargeCheck(ctx, "agt_missing", t0, t0)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "no balance row")

	day := t0.Truncate(24 * time.Hour)
	month := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	c, err := s.ChargeCheck(ctx, a.ID, day, month)
	require.NoError(t, err)
	assert.Equal(t, billing.ChargeCheck{Balance: billing.BalanceRecord{AgentID: a.ID, UpdatedAt: c.Balance.UpdatedAt}}, c,
		"a new agent: nothing held, no limits, nothing spent")

	credit(t, s, a.ID, 1_000_000, nil)
	daily := int64(50_000)
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"}}))
	stored := billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"}, Version: 1}
	_, err = s.Charge(ctx, chargeAt(a.ID, 4_000, day.Add(-time.Hour), stored))
	require.NoError(t, err)
	_, err = s.Charge(ctx, chargeAt(a.ID, 3_000, t0, stored))
	require.NoError(t, err)

	c, err = s.ChargeCheck(ctx, a.ID, day, month)
	require.NoError(t, err)
	assert.Equal(t, int64(993_000), c.Balance.Micros)
	assert.True(t, c.Balance.UpdatedAt.Equal(t0))
	assert.Equal(t, time.UTC, c.Balance.UpdatedAt.Location())
	assert.Equal(t, billing.SpendLimits{DailyMicros: &daily, AllowedOperations: []string{"risk_check"}, Version: 1}, c.Limits)
	assert.Equal(t, int64(3_000), c.SpentDay, "yesterday's charge is not today's")
	assert.Equal(t, int64(7_000), c.SpentMonth)

	c, err = s.ChargeCheck(ctx, a.ID, day.Add(24*time.Hour), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Zero(t, c.SpentDay, "a window after the latest charge has nothing spent")
	assert.Zero(t, c.SpentMonth)
}

// testSpendTotalsFollowTheBillingRule: over 200 charges dated across day
// and month boundaries, some by a clock behind the others, under random
// caps, the store accepts exactly the charges billing.CheckSpendCaps
// accepts against billing.SpendTotals, and its ChargeCheck reports the
// totals billing.SpendTotals.Spent does, for the charge's windows and the
// next ones.
func testSpendTotalsFollowTheBillingRule(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000_000, nil)
	rng := rand.New(rand.NewPCG(26, 5))
	var model billing.SpendTotals
	latest := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i := range 200 {
		at := latest.Add(time.Duration(rng.IntN(30)) * time.Hour) // a day or two later: windows roll over
		if rng.IntN(5) == 0 {
			at = latest.Add(-time.Duration(rng.IntN(40)) * time.Hour) // a clock behind: an earlier window
		}
		if at.After(latest) {
			latest = at
		}
		price := int64(1 + rng.IntN(5_000))
		daily, monthly := int64(rng.IntN(20_000)), int64(rng.IntN(200_000))
		req := chargeAt(a.ID, price, at, billing.SpendLimits{DailyMicros: &daily, MonthlyMicros: &monthly})
		spentDay, spentMonth := model.Spent(req.DayStart, req.MonthStart)
		want := billing.CheckSpendCaps(req.Limits, spentDay, spentMonth, price)

		_, err := s.Charge(ctx, req)
		if want != nil {
			assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "charge %d", i)
			assert.Equal(t, toolkit.MessageOf(want), toolkit.MessageOf(err), "charge %d", i)
		} else {
			require.NoError(t, err, "charge %d", i)
			model = model.Add(req.DayStart, req.MonthStart, price)
		}
		nextDay, nextMonth := billing.SpendWindows(req.MonthStart.AddDate(0, 1, 0))
		for _, w := range [][2]time.Time{{req.DayStart, req.MonthStart}, {req.DayStart.AddDate(0, 0, 1), req.MonthStart}, {nextDay, nextMonth}} {
			c, err := s.ChargeCheck(ctx, a.ID, w[0], w[1])
			require.NoError(t, err)
			day, month := model.Spent(w[0], w[1])
			assert.Equal(t, [2]int64{day, month}, [2]int64{c.SpentDay, c.SpentMonth}, "charge %d, windows %v", i, w)
		}
	}
}

// testChargeRefusesStaleLimits: a charge carries the limits its caller
// checked; once the stored limits have moved past that version (a change
// the caller, or its cache, has not seen) the charge writes nothing and
// says so, whatever the stale limits would allow, alone or in a batch.
func testChargeRefusesStaleLimits(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	loose, tight := int64(500_000), int64(1_000)
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &loose}))
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &tight, Version: 1}))

	for name, limits := range map[string]billing.SpendLimits{
		"read before the first change": {},
		"read before the second":       {DailyMicros: &loose, Version: 1},
		"from the future":              {DailyMicros: &loose, Version: 3},
	} {
		_, err := s.Charge(ctx, chargeAt(a.ID, 3_000, t0, limits))
		assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), name)
		assert.ErrorIs(t, err, billing.ErrLimitsChanged, name)
	}
	var wg sync.WaitGroup
	for i := range 8 { // simultaneous: in a group-committing store, one batch
		wg.Go(func() {
			_, err := s.Charge(ctx, chargeAt(a.ID, 3_000, t0, billing.SpendLimits{DailyMicros: &loose, Version: int64(i % 2)}))
			assert.ErrorIs(t, err, billing.ErrLimitsChanged)
		})
	}
	wg.Wait()
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000), b.Micros, "nothing was charged")

	_, err = s.Charge(ctx, chargeAt(a.ID, 3_000, t0, billing.SpendLimits{DailyMicros: &tight, Version: 2}))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the current limits apply")
	_, err = s.Charge(ctx, chargeAt(a.ID, 1_000, t0, billing.SpendLimits{DailyMicros: &tight, Version: 2}))
	require.NoError(t, err)
	checkLedger(t, s, a.ID)
}
