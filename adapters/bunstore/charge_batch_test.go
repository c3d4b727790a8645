package bunstore_test

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onEachEngine runs test as a subtest on a fresh SQLite store and a
// fresh Postgres one (skipped without TOOLKIT_TEST_POSTGRES_URL).
func onEachEngine(t *testing.T, test func(t *testing.T, s *bunstore.Store)) {
	t.Helper()
	open := func(t *testing.T, dsn, schema string) *bunstore.Store {
		s, err := bunstore.Open(context.Background(), dsn, bunstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}
	t.Run("sqlite", func(t *testing.T) { test(t, open(t, filepath.Join(t.TempDir(), "toolkit.db"), "")) })
	t.Run("postgres", func(t *testing.T) {
		dsn := bunstoretest.PostgresURL(t)
		test(t, open(t, dsn, bunstoretest.FreshSchema(t, dsn)))
	})
}

// fundedAgent stores an agent holding micros of real funds.
func fundedAgent(t testing.TB, s *bunstore.Store, id string, micros int64) {
	t.Helper()
	ctx := context.Background()
	a := agents.Agent{ID: id, OwnerID: "owner-" + id, Name: "b", Type: agents.TypeTrading, Mode: agents.ModeSandbox,
		CreatedAt: time.Now().UTC()}
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("digest-" + id), NewOwner: true}))
	_, err := s.Credit(ctx, billing.CreditRequest{TxID: "tx_fund_" + id, AgentID: id, Micros: micros,
		FundingPath: billing.FundingDirectTransfer, At: time.Now().UTC()})
	require.NoError(t, err)
}

// TestOneBatchChargesIndependently commits one batch in which an agent is
// short of funds, an idempotency key and a transaction id come twice and
// a cap is reached: each charge gets its own answer, the others commit,
// and the funded agent's ledger order and balance_after are exact.
func TestOneBatchChargesIndependently(t *testing.T) {
	onEachEngine(t, func(t *testing.T, s *bunstore.Store) {
		fundedAgent(t, s, "agt_rich", 1_000_000)
		fundedAgent(t, s, "agt_poor", 2_000)
		fundedAgent(t, s, "agt_keyed", 1_000_000)
		fundedAgent(t, s, "agt_capped", 1_000_000)
		at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		n := 0
		req := func(agentID string) billing.ChargeRequest {
			n++
			return billing.ChargeRequest{TxID: fmt.Sprintf("tx_b%d", n), AgentID: agentID, Operation: "risk_check",
				Micros: 3_000, At: at, DayStart: at.Truncate(24 * time.Hour), MonthStart: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
		}
		keyed := func() billing.ChargeRequest {
			r := req("agt_keyed")
			r.Idempotency = &billing.IdempotentResponse{Key: "k", RequestHash: "h", Response: []byte(`{"ok":true}`)}
			return r
		}
		dailyCap := int64(4_000)
		capped := func() billing.ChargeRequest {
			r := req("agt_capped")
			r.Limits.DailyMicros = &dailyCap
			return r
		}
		dupTx := req("agt_rich")
		reqs := []billing.ChargeRequest{
			req("agt_rich"), keyed(), req("agt_poor"), capped(), req("agt_rich"), keyed(), capped(), dupTx, req("agt_rich"), dupTx,
		}
		txs, errs := s.CommitTogether(reqs)
		wantKinds := []toolkit.Kind{255, 255, toolkit.InsufficientCredits, 255, 255, toolkit.Conflict, toolkit.Forbidden, 255, 255, toolkit.Conflict}
		for i, err := range errs {
			kind := toolkit.Kind(255)
			if err != nil {
				kind = toolkit.KindOf(err)
			}
			assert.Equal(t, wantKinds[i], kind, "charge %d (%s): %v", i, reqs[i].AgentID, err)
		}
		// agt_rich's charges in arrival order: 0, 4, 7, 8.
		for k, i := range []int{0, 4, 7, 8} {
			assert.Equal(t, int64(1_000_000-3_000*(k+1)), txs[i].BalanceAfter, "charge %d", i)
			assert.Equal(t, reqs[i].TxID, txs[i].TxID)
		}
		ctx := context.Background()
		for id, want := range map[string]int64{"agt_rich": 988_000, "agt_poor": 2_000, "agt_keyed": 997_000, "agt_capped": 997_000} {
			b, err := s.Balance(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, want, b.Micros, id)
			rows, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: id, Limit: 100})
			require.NoError(t, err)
			assert.Equal(t, want, rows[0].BalanceAfter, "%s: the newest row carries the balance", id)
		}
		stored, err := s.StoredResponse(ctx, "agt_keyed", "k")
		require.NoError(t, err)
		assert.JSONEq(t, `{"ok":true}`, string(stored.Response))
		spent, err := s.Spent(ctx, "agt_capped", at.Truncate(24*time.Hour))
		require.NoError(t, err)
		assert.Equal(t, int64(3_000), spent, "the refused charge is not in the totals")
	})
}

// TestChargeQueueFullAndWithdrawn: with the single SQLite writer held up,
// a charge beyond the queue's bound is refused at once with a Retry-After;
// a queued charge whose caller gives up is withdrawn, uncharged; the
// charge the committer already took is decided by its commit, even when
// its caller gives up meanwhile.
func TestChargeQueueFullAndWithdrawn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "toolkit.db")
	s, err := bunstore.Open(ctx, path, bunstore.Options{ChargeQueue: 1})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	fundedAgent(t, s, "agt_q", 1_000_000)
	at := time.Now().UTC()
	req := func(n int) billing.ChargeRequest {
		return billing.ChargeRequest{TxID: fmt.Sprintf("tx_q%d", n), AgentID: "agt_q", Operation: "risk_check", Micros: 3_000,
			At: at, DayStart: at.Truncate(24 * time.Hour), MonthStart: time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)}
	}

	other, err := bunstore.Open(ctx, path, bunstore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	conn, err := other.DB().Conn(ctx)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE") // the write lock: the committer waits for it
	require.NoError(t, err)

	impatient, giveUp := context.WithCancel(ctx)
	taken := make(chan error, 1)
	go func() { _, err := s.Charge(impatient, req(1)); taken <- err }()
	require.Eventually(t, func() bool { return s.QueuedCharges() == 0 }, time.Second, time.Millisecond)
	time.Sleep(100 * time.Millisecond) // the committer took it and waits for the lock
	gaveUp, cancel := context.WithCancel(ctx)
	withdrawn := make(chan error, 1)
	go func() { _, err := s.Charge(gaveUp, req(2)); withdrawn <- err }()
	require.Eventually(t, func() bool { return s.QueuedCharges() == 1 }, time.Second, time.Millisecond)

	_, err = s.Charge(ctx, req(3))
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "the queue is full")
	assert.Equal(t, time.Second, toolkit.RetryAfterOf(err))
	cancel()
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(<-withdrawn), "the caller gave up while queued")
	giveUp() // too late: the committer has it

	_, err = conn.ExecContext(ctx, "ROLLBACK")
	require.NoError(t, err)
	require.NoError(t, conn.Close())
	require.NoError(t, <-taken, "the taken charge commits and its caller is told so")
	rows, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: "agt_q", Limit: 10})
	require.NoError(t, err)
	require.Len(t, rows, 2, "the deposit and the one charge")
	assert.Equal(t, "tx_q1", rows[0].TxID)
	b, err := s.Balance(ctx, "agt_q")
	require.NoError(t, err)
	assert.Equal(t, int64(997_000), b.Micros)
}

// TestChargeAfterCommitterConnectionKilled: when the server ends the
// committer's connection between charges, the next charge is not lost:
// it is found not to have committed and runs again on a fresh connection.
func TestChargeAfterCommitterConnectionKilled(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	ctx := context.Background()
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", "toolkit-committer-killed")
	u.RawQuery = q.Encode()
	s, err := bunstore.Open(ctx, u.String(), bunstore.Options{Schema: bunstoretest.FreshSchema(t, dsn)})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	fundedAgent(t, s, "agt_k", 1_000_000)
	killer, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: bunstoretest.FreshSchema(t, dsn)})
	require.NoError(t, err)
	t.Cleanup(func() { killer.Close() })
	at := time.Now().UTC()
	for i := range 3 {
		_, err := killer.DB().ExecContext(ctx,
			`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'toolkit-committer-killed'`)
		require.NoError(t, err)
		tx, err := s.Charge(ctx, billing.ChargeRequest{TxID: fmt.Sprintf("tx_k%d", i), AgentID: "agt_k", Operation: "risk_check",
			Micros: 3_000, At: at, DayStart: at.Truncate(24 * time.Hour), MonthStart: time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)})
		require.NoError(t, err, "charge %d after its committer's connection was killed", i)
		assert.Equal(t, int64(1_000_000-3_000*(i+1)), tx.BalanceAfter)
	}
	b, err := s.Balance(ctx, "agt_k")
	require.NoError(t, err)
	assert.Equal(t, int64(991_000), b.Micros, "three charges, each once")
}
