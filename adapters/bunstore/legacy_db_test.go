package bunstore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"

	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/adapters/bunstore/migrations"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/migrate"
)

// sqliteBefore makes a SQLite database file migrated up to, not including,
// the migration named next: the schema an older release left behind, for
// testing what the next migration does to existing data. It returns the
// file's path and an open handle the caller closes before bunstore.Open.
func sqliteBefore(t *testing.T, next string) (string, *bun.DB) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "legacy.db")
	sqldb, err := bunstore.OpenSQLiteDB(path)
	require.NoError(t, err)
	db := bun.NewDB(sqldb, sqlitedialect.New())
	m := migrate.NewMigrator(db, migrations.Migrations, migrate.WithUpsert(true), migrate.WithMarkAppliedOnSuccess(true))
	require.NoError(t, m.Init(ctx))
	for _, mig := range migrations.Migrations.Sorted() {
		if mig.Name >= next {
			break
		}
		require.NoError(t, m.RunMigration(ctx, mig.Name))
	}
	return path, db
}

// postgresBefore is sqliteBefore on Postgres: a fresh schema migrated up
// to, not including, the migration named next. It returns the schema and
// an open handle the caller closes before bunstore.Open.
func postgresBefore(t *testing.T, next string) (string, *bun.DB) {
	t.Helper()
	ctx := context.Background()
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	db := bun.NewDB(sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn),
		pgdriver.WithConnParams(map[string]any{"search_path": schema}))), pgdialect.New())
	t.Cleanup(func() { db.Close() })
	m := migrate.NewMigrator(db, migrations.Migrations, migrate.WithUpsert(true), migrate.WithMarkAppliedOnSuccess(true))
	require.NoError(t, m.Init(ctx))
	for _, mig := range migrations.Migrations.Sorted() {
		if mig.Name >= next {
			break
		}
		require.NoError(t, m.RunMigration(ctx, mig.Name))
	}
	return schema, db
}
