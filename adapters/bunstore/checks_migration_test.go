package bunstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/adapters/bunstore/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// checksMigration is the migration that adds the CHECK constraints.
const checksMigration = "20261127001000"

// checkedTables are the tables the CHECK constraints are on.
var checkedTables = []string{"agents", "balances", "ledger", "usage_totals", "spend_totals", "spend_limits",
	"support_tickets", "support_submissions", "guardian_events", "journal_trades", "workspace_usage", "memories",
	"memory_terms"}

// beforeChecks is a database of engine ("sqlite" or "postgres") migrated
// up to the CHECK constraints: an open handle for seeding it, and how to
// open the store on it, which migrates the rest.
func beforeChecks(t *testing.T, engine string) (*bun.DB, func() (*bunstore.Store, error)) {
	t.Helper()
	ctx := context.Background()
	if engine == "sqlite" {
		path, db := sqliteBefore(t, checksMigration)
		// One connection: the one that migrated is the one the test uses next.
		return db, func() (*bunstore.Store, error) { return bunstore.Open(ctx, path, bunstore.Options{MaxOpenConns: 1}) }
	}
	schema, db := postgresBefore(t, checksMigration)
	dsn := bunstoretest.PostgresURL(t)
	return db, func() (*bunstore.Store, error) { return bunstore.Open(ctx, dsn, bunstore.Options{Schema: schema}) }
}

// seedEveryTable stores valid rows in every checked table, as a release
// before the constraints could have: a deposit and a consumption in the
// ledger, the AUTOINCREMENT counters ahead of the largest keys (rows were
// deleted) on SQLite.
func seedEveryTable(t *testing.T, db *bun.DB) {
	t.Helper()
	ctx := context.Background()
	for i, table := range checkedTables {
		key := fmt.Sprintf("seed%d", i)
		require.NoError(t, insertParents(ctx, db, key))
		require.NoError(t, insertRow(ctx, db, table, fixtureRow(t, table, key, nil)), table)
	}
	require.NoError(t, insertRow(ctx, db, "ledger", fixtureRow(t, "ledger", "seed_spent", map[string]any{
		"agent_id": "agt_seed0", "type": "consumption", "amount_micros": -2, "balance_after_micros": 3})))
	if db.Dialect().Name().String() == "sqlite" {
		_, err := db.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = 1000 WHERE name IN ('ledger', 'support_tickets')`)
		require.NoError(t, err)
	}
}

// tableDump is every row of the checked tables, in key order.
func tableDump(t *testing.T, db *bun.DB) map[string][]map[string]any {
	t.Helper()
	dump := map[string][]map[string]any{}
	for _, table := range checkedTables {
		var rows []map[string]any
		require.NoError(t, db.NewRaw(fmt.Sprintf("SELECT * FROM %s ORDER BY 1, 2", table)).Scan(context.Background(), &rows))
		dump[table] = rows
	}
	return dump
}

// indexesOf lists the indexes of the checked tables with their definitions.
func indexesOf(t *testing.T, db *bun.DB) []string {
	t.Helper()
	var out []string
	q := `SELECT name || ': ' || COALESCE(sql, 'automatic') FROM sqlite_master WHERE type = 'index' AND tbl_name IN (?)`
	if db.Dialect().Name().String() == "pg" {
		q = `SELECT indexname || ': ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (?)`
	}
	require.NoError(t, db.NewRaw(q, bun.List(checkedTables)).Scan(context.Background(), &out))
	slices.Sort(out)
	return out
}

// TestChecksMigrationKeepsExistingData: a database holding valid rows in
// every checked table migrates on both engines; its rows and indexes are
// the same afterwards, every constraint is in place (validated on
// Postgres), the foreign keys still hold, and SQLite's AUTOINCREMENT
// counters did not go back.
func TestChecksMigrationKeepsExistingData(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db, open := beforeChecks(t, engine)
			seedEveryTable(t, db)
			rows, indexes := tableDump(t, db), indexesOf(t, db)
			require.NotEmpty(t, indexes)
			require.Len(t, rows["ledger"], 2)
			require.Empty(t, checkConstraintNames(t, db))
			require.NoError(t, db.Close())

			s, err := open()
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, rows, tableDump(t, s.DB()))
			assert.Equal(t, indexes, indexesOf(t, s.DB()))
			assert.Len(t, checkConstraintNames(t, s.DB()), len(badRows))
			if engine == "postgres" {
				var notValid int
				require.NoError(t, s.DB().NewRaw(`SELECT COUNT(*) FROM pg_constraint
					WHERE contype = 'c' AND connamespace = current_schema()::regnamespace AND NOT convalidated`).Scan(ctx, &notValid))
				assert.Zero(t, notValid, "every constraint is validated")
			}
			err = insertRow(ctx, s.DB(), "balances", fixtureRow(t, "balances", "no_such_agent", nil))
			assert.True(t, isForeignKeyError(err), "foreign keys still hold: %v", err)
			if engine == "sqlite" {
				require.NoError(t, insertRow(ctx, s.DB(), "ledger", fixtureRow(t, "ledger", "seed1", map[string]any{"tx_id": "tx_after"})))
				var seq int64
				require.NoError(t, s.DB().NewRaw(`SELECT seq FROM ledger WHERE tx_id = 'tx_after'`).Scan(ctx, &seq))
				assert.Equal(t, int64(1001), seq, "the ledger's counter continues after the rows deleted before")
			}
		})
	}
}

// TestChecksMigrationRefusesBadData: a database holding a row that breaks
// a rule does not migrate on either engine; the error names the
// constraint, and the schema and rows stay as they were (so the store can
// migrate once the row is fixed).
func TestChecksMigrationRefusesBadData(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db, open := beforeChecks(t, engine)
			seedEveryTable(t, db)
			_, err := db.ExecContext(ctx, `UPDATE balances SET micros = -1 WHERE agent_id = 'agt_seed1'`)
			require.NoError(t, err)
			rows := tableDump(t, db)

			_, err = open()
			require.ErrorContains(t, err, "balances_micros_nonnegative")
			assert.Empty(t, checkConstraintNames(t, db), "no constraint is left behind")
			assert.Equal(t, rows, tableDump(t, db))

			_, err = db.ExecContext(ctx, `UPDATE balances SET micros = 0 WHERE agent_id = 'agt_seed1'`)
			require.NoError(t, err)
			require.NoError(t, db.Close())
			s, err := open()
			require.NoError(t, err)
			defer s.Close()
			assert.Len(t, checkConstraintNames(t, s.DB()), len(badRows))
		})
	}
}

// TestChecksMigrationDown: rolling the migration back removes every
// constraint and keeps the rows; applying it again restores them.
func TestChecksMigrationDown(t *testing.T) {
	onEachEngine(t, func(t *testing.T, s *bunstore.Store) {
		ctx := context.Background()
		db := s.DB()
		seedEveryTable(t, db)
		rows := tableDump(t, db)
		i := slices.IndexFunc(migrations.Migrations.Sorted(), func(m migrate.Migration) bool { return m.Name == checksMigration })
		require.GreaterOrEqual(t, i, 0)
		mig := migrations.Migrations.Sorted()[i]
		m := migrate.NewMigrator(db, migrations.Migrations)

		require.NoError(t, mig.Down(ctx, m, &mig))
		assert.Empty(t, checkConstraintNames(t, db))
		assert.Equal(t, rows, tableDump(t, db))
		require.NoError(t, insertParents(ctx, db, "down"))
		assert.NoError(t, insertRow(ctx, db, "balances", fixtureRow(t, "balances", "down", map[string]any{"micros": -1})))
		_, err := db.ExecContext(ctx, `DELETE FROM balances WHERE agent_id = 'agt_down'`)
		require.NoError(t, err)

		require.NoError(t, mig.Up(ctx, m, &mig))
		assert.Len(t, checkConstraintNames(t, db), len(badRows))
	})
}
