package bunstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
)

// walletsMigration is the migration that splits test funds from real funds.
const walletsMigration = "20261124000300"

// TestMigrationClassifiesExistingMoney: balances written before test and
// real funds were kept apart are split without turning test money into
// real money.
func TestMigrationClassifiesExistingMoney(t *testing.T) {
	ctx := context.Background()
	path, db := sqliteBefore(t, walletsMigration)
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	type row struct {
		typ    string
		ref    any // nil: a self-credit
		amount int64
	}
	legacy := []struct {
		agent  string
		micros int64
		rows   []row
	}{
		{"agt_selfcredit", 8_000_000, []row{{"deposit", nil, 10_000_000}, {"consumption", nil, -2_000_000}}},
		{"agt_verified", 4_000_000, []row{{"deposit", "sig-1", 5_000_000}, {"consumption", nil, -1_000_000}}},
		{"agt_mixed", 4_000_000, []row{{"deposit", nil, 3_000_000}, {"deposit", "sig-2", 5_000_000}, {"consumption", nil, -4_000_000}}},
	}
	total := map[string]int64{}
	for i, l := range legacy {
		exec(t, db, `INSERT INTO owners (owner_id, created_at) VALUES (?, ?)`, "o-"+l.agent, at)
		exec(t, db, `INSERT INTO agents (id, owner_id, name, type, mode, created_at, authorized_instruments, authorized_actions, key_digest)
			VALUES (?, ?, 'bot', 'trading', 'live', ?, '[]', '[]', ?)`, l.agent, "o-"+l.agent, at, l.agent)
		exec(t, db, `INSERT INTO balances (agent_id, micros, updated_at) VALUES (?, ?, ?)`, l.agent, l.micros, at)
		total[l.agent] = l.micros
		for j, r := range l.rows {
			exec(t, db, `INSERT INTO ledger (tx_id, agent_id, type, amount_micros, balance_after_micros, external_ref, created_at)
				VALUES (?, ?, ?, ?, 0, ?, ?)`, fmt.Sprintf("tx_%d_%d", i, j), l.agent, r.typ, r.amount, r.ref, at)
		}
	}
	require.NoError(t, db.Close())

	s, err := bunstore.Open(ctx, path, bunstore.Options{})
	require.NoError(t, err)
	defer s.Close()
	want := map[string][2]int64{ // real, test
		"agt_selfcredit": {0, 8_000_000},
		"agt_verified":   {4_000_000, 0},
		"agt_mixed":      {4_000_000, 0}, // its test credits were spent; the rest is at most its verified 5.00
	}
	for agent, w := range want {
		b, err := s.Balance(ctx, agent)
		require.NoError(t, err)
		assert.Equal(t, w[0], b.Micros, "%s real", agent)
		assert.Equal(t, w[1], b.TestMicros, "%s test", agent)
		assert.Equal(t, total[agent], b.Micros+b.TestMicros, "%s: no money appears or disappears", agent)
	}
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: "agt_selfcredit", Limit: 10})
	require.NoError(t, err)
	for _, tx := range txs {
		assert.Equal(t, billing.FundsTest, tx.Funds, "self-credits and what they paid for are test funds")
	}
	txs, err = s.Transactions(ctx, billing.TransactionQuery{AgentID: "agt_verified", Limit: 10})
	require.NoError(t, err)
	for _, tx := range txs {
		assert.Equal(t, billing.FundsReal, tx.Funds)
	}
}

func exec(t *testing.T, db *bun.DB, q string, args ...any) {
	t.Helper()
	_, err := db.ExecContext(context.Background(), q, args...)
	require.NoError(t, err, q)
}
