package bunstore_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertStorageFault checks the answer of a write the database could not
// make: 503 with a Retry-After, a message naming the cause, and the
// guardian event of that cause in its chain.
func assertStorageFault(t *testing.T, err error, want guardian.Type, what string) {
	t.Helper()
	require.Error(t, err, what)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%s: %v", what, err)
	assert.Equal(t, 30*time.Second, toolkit.RetryAfterOf(err), what)
	e, ok := guardian.StorageFaultEvent(err)
	require.True(t, ok, what)
	assert.Equal(t, want, e.Type, what)
}

func newTestAgent(t *testing.T, s *bunstore.Store, n int) agents.Agent {
	t.Helper()
	a := agents.Agent{ID: fmt.Sprintf("agt_full%04d", n), OwnerID: fmt.Sprintf("owner-full-%d", n), Name: "bot",
		Type: agents.TypeTrading, Mode: agents.ModeSandbox, CreatedAt: time.Now().UTC()}
	d := sha256.Sum256([]byte(a.ID))
	require.NoError(t, s.CreateAgent(context.Background(), agents.Registration{Agent: a, KeyDigest: d[:], NewOwner: true}))
	return a
}

// Regression (issue 23, finding 5): a SQLite database whose size limit is
// reached (max_page_count, as a full disk) answers every write with
// Unavailable and a Retry-After, never Internal; reads still work.
func TestFullSQLiteIsUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.db")
	s, err := bunstore.Open(ctx, path, bunstore.Options{})
	require.NoError(t, err)
	var pages int
	require.NoError(t, s.DB().NewRaw("PRAGMA page_count").Scan(ctx, &pages))
	require.NoError(t, s.Close())

	s, err = bunstore.Open(ctx, fmt.Sprintf("file:%s?_pragma=max_page_count(%d)", path, pages+8), bunstore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	payer := newTestAgent(t, s, 0)
	_, err = s.Credit(ctx, billing.CreditRequest{TxID: "txn_fund", AgentID: payer.ID, Funds: billing.FundsTest, Micros: 1_000_000, FundingPath: "direct_transfer"})
	require.NoError(t, err)

	// Each kind of write fills the database until it is refused: the
	// first refusal of each is the storage fault.
	err = untilRefused(func(i int) error {
		return s.AddEvents(ctx, []guardian.Event{{ID: fmt.Sprintf("evt_%05d", i), Type: guardian.TypeAgentReport,
			Category: guardian.CategoryReport, Severity: guardian.SeverityWarning, Count: 1, At: time.Now().UTC(),
			LastAt: time.Now().UTC(), Description: strings.Repeat("x", 2000)}})
	})
	assertStorageFault(t, err, guardian.TypeDiskFull, "AddEvents")
	assert.Contains(t, err.Error(), "disk full", "the cause is named in the log line")
	assert.Contains(t, toolkit.MessageOf(err), "disk is full")
	err = untilRefused(func(i int) error {
		d := sha256.Sum256(fmt.Appendf(nil, "agt_late%d", i))
		return s.CreateAgent(ctx, agents.Registration{Agent: agents.Agent{ID: fmt.Sprintf("agt_late%05d", i),
			OwnerID: fmt.Sprintf("owner-late-%d", i), Name: "bot", Type: agents.TypeTrading, Mode: agents.ModeSandbox,
			CreatedAt: time.Now().UTC()}, KeyDigest: d[:], NewOwner: true})
	})
	assertStorageFault(t, err, guardian.TypeDiskFull, "CreateAgent")
	now := time.Now().UTC()
	err = untilRefused(func(i int) error {
		_, err := s.Charge(ctx, billing.ChargeRequest{TxID: fmt.Sprintf("txn_charge%05d", i), AgentID: payer.ID,
			Operation: "position_sizing", Funds: billing.FundsTest, Micros: 1, At: now,
			DayStart: now.Truncate(24 * time.Hour), MonthStart: now.AddDate(0, 0, 1-now.Day()).Truncate(24 * time.Hour)})
		return err
	})
	assertStorageFault(t, err, guardian.TypeDiskFull, "Charge")
	_, err = s.AgentByID(ctx, payer.ID)
	assert.NoError(t, err, "reads still work")
}

// untilRefused runs write with 1, 2, ... until it fails (at most 10,000
// times) and returns the failure.
func untilRefused(write func(i int) error) error {
	for i := 1; i <= 10_000; i++ {
		if err := write(i); err != nil {
			return err
		}
	}
	return nil
}

// A read-only SQLite connection (query_only) refuses writes: Unavailable,
// the read-only event.
func TestReadOnlySQLiteIsUnavailable(t *testing.T) {
	ctx := context.Background()
	s, err := bunstore.Open(ctx, filepath.Join(t.TempDir(), "ro.db"), bunstore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	conn, err := s.DB().Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "CREATE TABLE ro_probe (x INTEGER)")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "PRAGMA query_only = 1")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "INSERT INTO ro_probe (x) VALUES (1)")
	assertStorageFault(t, bunstore.Translate("op", err), guardian.TypeDatabaseReadOnly, "insert")
}

// Postgres: a write in a read-only transaction (SQLSTATE 25006, as on a
// hot standby) is Unavailable with the read-only event.
func TestReadOnlyPostgresIsUnavailable(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	ctx := context.Background()
	s, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: bunstoretest.FreshSchema(t, dsn)})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	_, err = s.DB().ExecContext(ctx, "CREATE TABLE ro_probe (x INTEGER)")
	require.NoError(t, err)
	tx, err := s.DB().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "INSERT INTO ro_probe (x) VALUES (1)")
	assertStorageFault(t, bunstore.Translate("op", err), guardian.TypeDatabaseReadOnly, "insert")
}
