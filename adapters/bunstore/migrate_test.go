package bunstore_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/adapters/bunstore/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openTogether opens two stores on one database at the same moment and
// returns both errors.
func openTogether(open func() (*bunstore.Store, error)) [2]error {
	var errs [2]error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := open()
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// appliedMigrations counts the applied migrations of a store.
func appliedMigrations(t *testing.T, s *bunstore.Store) int {
	var n int
	require.NoError(t, s.DB().NewSelect().Table("bun_migrations").ColumnExpr("COUNT(*)").Scan(context.Background(), &n))
	return n
}

// Regression (robustness finding 6): two instances starting together on
// one fresh database both succeed, 20 times in 20, and each migration is
// applied once.
func TestTwoInstancesStartTogetherSQLite(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), "toolkit.db")
		errs := openTogether(func() (*bunstore.Store, error) { return bunstore.Open(context.Background(), path, bunstore.Options{}) })
		require.NoError(t, errs[0], "round %d", round)
		require.NoError(t, errs[1], "round %d", round)
		s, err := bunstore.Open(context.Background(), path, bunstore.Options{})
		require.NoError(t, err)
		assert.Equal(t, len(migrations.Migrations.Sorted()), appliedMigrations(t, s))
		s.Close()
	}
}

func TestTwoInstancesStartTogetherPostgres(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	for round := range 20 {
		schema := bunstoretest.FreshSchema(t, dsn)
		errs := openTogether(func() (*bunstore.Store, error) {
			return bunstore.Open(context.Background(), dsn, bunstore.Options{Schema: schema, MaxOpenConns: 4})
		})
		require.NoError(t, errs[0], "round %d", round)
		require.NoError(t, errs[1], "round %d", round)
	}
}

// A lock row left behind by an older version (bun's lock table) no longer
// blocks a start.
func TestStaleLockRowDoesNotBlockStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "toolkit.db")
	s, err := bunstore.Open(context.Background(), path, bunstore.Options{})
	require.NoError(t, err)
	_, err = s.DB().ExecContext(context.Background(), `CREATE TABLE IF NOT EXISTS bun_migration_locks (id INTEGER PRIMARY KEY, table_name TEXT UNIQUE)`)
	require.NoError(t, err)
	_, err = s.DB().ExecContext(context.Background(), `INSERT INTO bun_migration_locks (table_name) VALUES ('bun_migrations')`)
	require.NoError(t, err)
	s.Close()
	s, err = bunstore.Open(context.Background(), path, bunstore.Options{})
	require.NoError(t, err)
	s.Close()
}
