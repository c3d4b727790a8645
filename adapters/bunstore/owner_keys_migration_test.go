package bunstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownerKeysMigration adds owner keys, API key times and ceilings.
const ownerKeysMigration = "20261127000100"

// TestMigrationDatesExistingKeys: agents registered before the upgrade
// get their key's creation time from the agent's (never used yet), and
// their owners no owner key (an admin issues one).
func TestMigrationDatesExistingKeys(t *testing.T) {
	ctx := context.Background()
	path, db := sqliteBefore(t, ownerKeysMigration)
	created := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	exec(t, db, `INSERT INTO owners (owner_id, created_at) VALUES ('legacy-owner', ?)`, created)
	exec(t, db, `INSERT INTO agents (id, owner_id, name, type, mode, created_at, authorized_instruments, authorized_actions, key_digest)
		VALUES ('agt_before', 'legacy-owner', 'bot', 'trading', 'sandbox', ?, '[]', '[]', 'k')`, created)
	exec(t, db, `INSERT INTO balances (agent_id, micros, updated_at) VALUES ('agt_before', 0, ?)`, created)
	exec(t, db, `INSERT INTO spend_limits (agent_id, daily_micros, version) VALUES ('agt_before', 5000, 1)`)
	require.NoError(t, db.Close())

	s, err := bunstore.Open(ctx, path, bunstore.Options{})
	require.NoError(t, err)
	defer s.Close()
	a, err := s.AgentByID(ctx, "agt_before")
	require.NoError(t, err)
	assert.True(t, a.KeyCreatedAt.Equal(created), "got %v", a.KeyCreatedAt)
	assert.Nil(t, a.KeyUsedAt)
	owners, err := s.ListOwners(ctx, "", 10)
	require.NoError(t, err)
	require.Len(t, owners, 1)
	assert.Nil(t, owners[0].KeyCreatedAt, "no owner key until one is issued")
	assert.Equal(t, 1, owners[0].Agents)
	l, err := s.SpendLimits(ctx, "agt_before")
	require.NoError(t, err)
	assert.Equal(t, int64(5000), *l.DailyMicros)
	assert.Nil(t, l.Ceilings.DailyMicros, "no ceilings until an admin sets some")
}
