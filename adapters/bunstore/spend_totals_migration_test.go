package bunstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spendTotalsMigration is the migration that adds the running spend totals.
const spendTotalsMigration = "20261124000500"

// TestMigrationBackfillsSpendTotals: the running totals start from the
// ledger's consumption in the current UTC day and month, so caps set
// before the upgrade still hold right after it.
func TestMigrationBackfillsSpendTotals(t *testing.T) {
	ctx := context.Background()
	path, db := sqliteBefore(t, spendTotalsMigration)
	now := time.Now().UTC()
	day := now.Truncate(24 * time.Hour)
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	exec(t, db, `INSERT INTO owners (owner_id, created_at) VALUES ('o', ?)`, now)
	exec(t, db, `INSERT INTO agents (id, owner_id, name, type, mode, created_at, authorized_instruments, authorized_actions, key_digest)
		VALUES ('agt_legacy', 'o', 'bot', 'trading', 'live', ?, '[]', '[]', 'k')`, now)
	exec(t, db, `INSERT INTO balances (agent_id, micros, updated_at) VALUES ('agt_legacy', 1000000, ?)`, now)
	rows := []struct {
		typ    string
		amount int64
		at     time.Time
	}{
		{"deposit", 2_000_000, month.Add(-time.Hour)},
		{"consumption", -50_000, month.Add(-time.Hour)}, // last month
		{"consumption", -20_000, month},                 // this month (today on the 1st)
		{"consumption", -3_000, day},                    // today
		{"consumption", -4_000, now},                    // today
	}
	wantDay, wantMonth := int64(7_000), int64(27_000)
	if day.Equal(month) {
		wantDay = 27_000
	}
	for i, r := range rows {
		exec(t, db, `INSERT INTO ledger (tx_id, agent_id, type, amount_micros, balance_after_micros, created_at)
			VALUES (?, 'agt_legacy', ?, ?, 0, ?)`, fmt.Sprintf("tx_legacy_%d", i), r.typ, r.amount, r.at)
	}
	require.NoError(t, db.Close())

	s, err := bunstore.Open(ctx, path, bunstore.Options{})
	require.NoError(t, err)
	defer s.Close()
	c, err := s.ChargeCheck(ctx, "agt_legacy", day, month)
	require.NoError(t, err)
	assert.Equal(t, wantDay, c.SpentDay)
	assert.Equal(t, wantMonth, c.SpentMonth)

	dailyCap := wantDay + 2_999
	_, err = s.Charge(ctx, billing.ChargeRequest{TxID: "tx_after", AgentID: "agt_legacy", Operation: "risk_check", Micros: 3_000,
		At: now, DayStart: day, MonthStart: month, Limits: billing.SpendLimits{DailyMicros: &dailyCap}})
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the cap counts what was spent before the upgrade")
}
