package bunstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/adapters/storetest"
	"github.com/stretchr/testify/require"
)

func TestConformanceSQLite(t *testing.T) {
	storetest.Run(t, storetest.Harness{Open: openSQLite})
}

func TestConformancePostgres(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	storetest.Run(t, storetest.Harness{Open: func(t *testing.T, n int) []storetest.Store { return openPostgres(t, dsn, n) }})
}

func openSQLite(t *testing.T, n int) []storetest.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "toolkit.db")
	out := make([]storetest.Store, n)
	for i := range out {
		s, err := bunstore.Open(context.Background(), path, bunstore.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		out[i] = s
	}
	return out
}

// openPostgres opens n stores on a fresh schema.
func openPostgres(t *testing.T, dsn string, n int) []storetest.Store {
	t.Helper()
	schema := bunstoretest.FreshSchema(t, dsn)
	out := make([]storetest.Store, n)
	for i := range out {
		s, err := bunstore.Open(context.Background(), dsn, bunstore.Options{Schema: schema, MaxOpenConns: 10})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		out[i] = s
	}
	return out
}
