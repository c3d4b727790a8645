package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// billingCases returns the cases of billing.Store run one call at a time:
// balances, charges, credits, the ledger, spend limits and idempotency
// records.
func billingCases() []Case {
	return []Case{
		{Name: "BalanceStartsAtZero", Test: testBalanceStartsAtZero},
		{Name: "ChargeAndCredit", Test: testChargeAndCredit},
		{Name: "ChargeInsufficientWritesNothing", Test: testChargeInsufficientWritesNothing},
		{Name: "LedgerOrderAndLimit", Test: testLedgerOrderAndLimit},
		{Name: "CreditExternalRefOnce", Test: testCreditExternalRefOnce},
		{Name: "SelfCreditCap", Test: testSelfCreditCap},
		{Name: "SpendLimitsRoundTrip", Test: testSpendLimitsRoundTrip},
		{Name: "SpendLimitsCompareAndSwap", Test: testSpendLimitsCompareAndSwap},
		{Name: "IdempotencyStored", Test: testIdempotencyStored},
		{Name: "IdempotencyPruned", Test: testIdempotencyPruned},
		{Name: "CreditUnknownAgent", Test: testCreditUnknownAgent},
		{Name: "DuplicateTxIDWritesNothing", Test: testDuplicateTxIDWritesNothing},
		{Name: "SetSpendLimitsUnknownAgent", Test: testSetSpendLimitsUnknownAgent},
		{Name: "BillingCopiesInAndOut", Test: testBillingCopiesInAndOut},
	}
}

func credit(t *testing.T, s Store, agentID string, micros int64, ref *string) billing.Transaction {
	t.Helper()
	tx, err := s.Credit(ctx, billing.CreditRequest{TxID: fmt.Sprintf("tx_c%d", seq.Add(1)), AgentID: agentID,
		Micros: micros, FundingPath: billing.FundingDirectTransfer, ExternalRef: ref, At: t0})
	require.NoError(t, err)
	return tx
}

func chargeReq(agentID, op string, micros int64) billing.ChargeRequest {
	return billing.ChargeRequest{TxID: fmt.Sprintf("tx_d%d", seq.Add(1)), AgentID: agentID, Operation: op,
		Micros: micros, At: t0, DayStart: t0.Truncate(24 * time.Hour), MonthStart: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
}

func testBalanceStartsAtZero(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Zero(t, b.Micros)
	assert.Equal(t, time.UTC, b.UpdatedAt.Location())
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, txs)
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Empty(t, usage)
}

func testChargeAndCredit(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	dep := credit(t, s, a.ID, 1_000_000, nil)
	assert.Equal(t, billing.TypeDeposit, dep.Type)
	assert.Equal(t, int64(1_000_000), dep.BalanceAfter)
	assert.Equal(t, billing.FundingDirectTransfer, *dep.FundingPath)
	assert.Nil(t, dep.Operation)

	tx, err := s.Charge(ctx, chargeReq(a.ID, "position_sizing", 3000))
	require.NoError(t, err)
	assert.Equal(t, int64(-3000), tx.AmountMicros)
	assert.Equal(t, int64(997_000), tx.BalanceAfter)
	assert.Equal(t, "position_sizing", *tx.Operation)
	assert.Nil(t, tx.FundingPath)
	_, err = s.Charge(ctx, chargeReq(a.ID, "risk_check", 4000))
	require.NoError(t, err)
	_, err = s.Charge(ctx, chargeReq(a.ID, "position_sizing", 3000))
	require.NoError(t, err)

	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(990_000), b.Micros)
	assert.True(t, b.UpdatedAt.Equal(t0))
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, []billing.UsageLine{
		{Operation: "position_sizing", Count: 2, TotalMicros: 6000},
		{Operation: "risk_check", Count: 1, TotalMicros: 4000},
	}, usage)
	spent, err := s.Spent(ctx, a.ID, t0)
	require.NoError(t, err)
	assert.Equal(t, int64(10_000), spent)
	spent, err = s.Spent(ctx, a.ID, t0.Add(time.Second))
	require.NoError(t, err)
	assert.Zero(t, spent)
}

func testChargeInsufficientWritesNothing(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 2_999, nil)
	_, err := s.Charge(ctx, chargeReq(a.ID, "position_sizing", 3000))
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err))
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(2_999), b.Micros)
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, txs, 1, "only the deposit")
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Empty(t, usage)

	_, err = s.Charge(ctx, chargeReq("agt_missing", "position_sizing", 1))
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err), "no balance row: nothing to debit")
}

func testLedgerOrderAndLimit(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 100_000, nil)
	var ids []string
	for i := 0; i < 5; i++ {
		tx, err := s.Charge(ctx, chargeReq(a.ID, "risk_check", 4000))
		require.NoError(t, err)
		ids = append(ids, tx.TxID)
	}
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 3})
	require.NoError(t, err)
	require.Len(t, txs, 3)
	assert.Equal(t, []string{ids[4], ids[3], ids[2]}, []string{txs[0].TxID, txs[1].TxID, txs[2].TxID}, "newest first")
	all, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 1000})
	require.NoError(t, err)
	assert.Len(t, all, 6)
	assert.Equal(t, billing.TypeDeposit, all[5].Type)
	other := newAgent(t, s)
	none, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: other.ID, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, none)
}

func testCreditExternalRefOnce(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	ref := "solana:sig-once"
	credit(t, s, a.ID, 5_000_000, &ref)
	_, err := s.Credit(ctx, billing.CreditRequest{TxID: "tx_replay", AgentID: a.ID, Micros: 5_000_000,
		FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, At: t0})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	other := newAgent(t, s)
	_, err = s.Credit(ctx, billing.CreditRequest{TxID: "tx_replay2", AgentID: other.ID, Micros: 5_000_000,
		FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, At: t0})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a payment credits once across all agents")
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(5_000_000), b.Micros)
	b, err = s.Balance(ctx, other.ID)
	require.NoError(t, err)
	assert.Zero(t, b.Micros)
}

func testSelfCreditCap(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	req := func(m int64) billing.CreditRequest {
		return billing.CreditRequest{TxID: fmt.Sprintf("tx_s%d", seq.Add(1)), AgentID: a.ID, Funds: billing.FundsTest, Micros: m,
			FundingPath: billing.FundingDirectTransfer, SelfCreditCapMicros: 10_000_000, At: t0}
	}
	_, err := s.Credit(ctx, req(6_000_000))
	require.NoError(t, err)
	_, err = s.Credit(ctx, req(4_000_001))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err))
	_, err = s.Credit(ctx, req(4_000_000))
	require.NoError(t, err)
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(10_000_000), b.TestMicros)
	assert.Zero(t, b.Micros, "test funds never land in the real balance")
}

func testSpendLimitsRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	l, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{}, l, "never set: no caps")
	daily, monthly := int64(50_000), int64(1_000_000)
	want := billing.SpendLimits{DailyMicros: &daily, MonthlyMicros: &monthly, AllowedOperations: []string{"position_sizing", "risk_check"}}
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, want))
	l, err = s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	want.Version = 1
	assert.Equal(t, want, l, "stored as version 1")
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{MonthlyMicros: &monthly, Version: 1}))
	l, err = s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{MonthlyMicros: &monthly, Version: 2}, l, "replaced, not merged")
}

// testSpendLimitsCompareAndSwap: a change written against a version that
// is no longer the stored one is refused and writes nothing, so a looser
// value read before a concurrent tightening can never overwrite it.
func testSpendLimitsCompareAndSwap(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	daily := int64(50_000)
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &daily}))
	err := s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &daily})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a second first-set conflicts")
	loose := int64(90_000)
	err = s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &loose, Version: 7})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a stale version conflicts")
	l, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{DailyMicros: &daily, Version: 1}, l, "nothing written")

	var won atomic.Int64
	parallel(20, func(i int) {
		v := int64(10_000 + i)
		if s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &v, Version: 1}) == nil {
			won.Add(1)
		}
	})
	assert.Equal(t, int64(1), won.Load(), "exactly one of 20 concurrent swaps from one version wins")
}

func testIdempotencyStored(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	req := chargeReq(a.ID, "position_sizing", 3000)
	req.Idempotency = &billing.IdempotentResponse{Key: "k1", RequestHash: "h1", Response: []byte(`{"shares":5000}`)}
	_, err := s.Charge(ctx, req)
	require.NoError(t, err)
	got, err := s.StoredResponse(ctx, a.ID, "k1")
	require.NoError(t, err)
	assert.Equal(t, "h1", got.RequestHash)
	assert.JSONEq(t, `{"shares":5000}`, string(got.Response))

	again := chargeReq(a.ID, "position_sizing", 3000)
	again.Idempotency = req.Idempotency
	_, err = s.Charge(ctx, again)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "keys are unique per agent")
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(997_000), b.Micros, "the conflicting charge rolled back")

	_, err = s.StoredResponse(ctx, a.ID, "k2")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	other := newAgent(t, s)
	_, err = s.StoredResponse(ctx, other.ID, "k1")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "keys are scoped to the agent")
}

func testIdempotencyPruned(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	for i, at := range []time.Time{t0, t0.Add(time.Hour), t0.Add(2 * time.Hour)} {
		req := chargeReq(a.ID, "position_sizing", 3000)
		req.At = at
		req.Idempotency = &billing.IdempotentResponse{Key: fmt.Sprintf("k%d", i), RequestHash: "h", Response: []byte(`{}`)}
		_, err := s.Charge(ctx, req)
		require.NoError(t, err)
	}
	n, err := s.PruneStoredResponses(ctx, t0.Add(90*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, int64(2), n, "the records stored before the cutoff")
	for key, kept := range map[string]bool{"k0": false, "k1": false, "k2": true} {
		_, err := s.StoredResponse(ctx, a.ID, key)
		assert.Equal(t, kept, err == nil, key)
	}
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(991_000), b.Micros, "pruning touches no money")
	checkLedger(t, s, a.ID)
}

func testCreditUnknownAgent(t *testing.T, h Harness) {
	s := openOne(t, h)
	_, err := s.Credit(ctx, billing.CreditRequest{TxID: "tx_nobody", AgentID: "agt_missing", Micros: 1,
		FundingPath: billing.FundingDirectTransfer, At: t0})
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

// testDuplicateTxIDWritesNothing: transaction ids are unique across the
// ledger; a clash rolls the whole charge or credit back.
func testDuplicateTxIDWritesNothing(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	dep := credit(t, s, a.ID, 1_000_000, nil)
	req := chargeReq(a.ID, "risk_check", 4000)
	req.TxID = dep.TxID
	req.Idempotency = &billing.IdempotentResponse{Key: "k-dup", RequestHash: "h", Response: []byte(`{}`)}
	_, err := s.Charge(ctx, req)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "charge reusing a transaction id")
	ref := "solana:sig-duptx"
	_, err = s.Credit(ctx, billing.CreditRequest{TxID: dep.TxID, AgentID: a.ID, Micros: 7,
		FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, At: t0})
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "credit reusing a transaction id")

	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000), b.Micros)
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, txs, 1, "only the first deposit")
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Empty(t, usage)
	_, err = s.StoredResponse(ctx, a.ID, "k-dup")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "no idempotency record from the refused charge")
	credit(t, s, a.ID, 7, &ref) // the external reference was not claimed either
}

func testSetSpendLimitsUnknownAgent(t *testing.T, h Harness) {
	s := openOne(t, h)
	daily := int64(1)
	err := s.SetSpendLimits(ctx, "agt_missing", billing.SpendLimits{DailyMicros: &daily})
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "limits belong to an existing agent")
	l, err := s.SpendLimits(ctx, "agt_missing")
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{}, l)
}

// testBillingCopiesInAndOut: the store keeps no reference to what the
// caller passed in or got back.
func testBillingCopiesInAndOut(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)

	daily := int64(50_000)
	ops := []string{"position_sizing", "risk_check"}
	require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &daily, AllowedOperations: ops}))
	daily, ops[0] = 1, "full_eval"
	l, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	require.NotNil(t, l.DailyMicros)
	assert.Equal(t, int64(50_000), *l.DailyMicros)
	assert.Equal(t, []string{"position_sizing", "risk_check"}, l.AllowedOperations)
	*l.DailyMicros, l.AllowedOperations[0] = 2, "basic_eval"
	l, err = s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(50_000), *l.DailyMicros)
	assert.Equal(t, []string{"position_sizing", "risk_check"}, l.AllowedOperations)

	body := []byte(`{"shares":5000}`)
	req := chargeReq(a.ID, "position_sizing", 3000)
	req.Limits = l // as the caller read them
	req.Idempotency = &billing.IdempotentResponse{Key: "k-copy", RequestHash: "h", Response: body}
	tx, err := s.Charge(ctx, req)
	require.NoError(t, err)
	body[2] = 'X'
	*tx.Operation = "mutated"
	got, err := s.StoredResponse(ctx, a.ID, "k-copy")
	require.NoError(t, err)
	assert.JSONEq(t, `{"shares":5000}`, string(got.Response))
	got.Response[2] = 'Y'
	again, err := s.StoredResponse(ctx, a.ID, "k-copy")
	require.NoError(t, err)
	assert.JSONEq(t, `{"shares":5000}`, string(again.Response))
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	require.Len(t, txs, 2)
	assert.Equal(t, "position_sizing", *txs[0].Operation)
	*txs[1].FundingPath = "mutated"
	txs, err = s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Equal(t, billing.FundingDirectTransfer, *txs[1].FundingPath)
}
