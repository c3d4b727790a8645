package bunstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/storetest"
	"github.com/stretchr/testify/require"
)

func TestConformanceSQLite(t *testing.T) {
	storetest.Run(t, storetest.Harness{Open: openSQLite})
}

func TestConformancePostgres(t *testing.T) {
	dsn := postgresDSN(t)
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

// postgresDSN returns TOOLKIT_TEST_POSTGRES_URL, skipping the test when it
// is unset, unless TOOLKIT_REQUIRE_POSTGRES=1 makes that a failure.
func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := postgresURL()
	if dsn == "" {
		if os.Getenv("TOOLKIT_REQUIRE_POSTGRES") == "1" {
			t.Fatal("TOOLKIT_REQUIRE_POSTGRES=1 but TOOLKIT_TEST_POSTGRES_URL is unset")
		}
		t.Skip("set TOOLKIT_TEST_POSTGRES_URL to run the Postgres conformance suite")
	}
	return dsn
}

// openPostgres creates a fresh schema for the test and opens n stores on it.
func openPostgres(t *testing.T, dsn string, n int) []storetest.Store {
	t.Helper()
	ctx := context.Background()
	admin, err := bunstore.OpenRaw(ctx, dsn)
	require.NoError(t, err, "Postgres at TOOLKIT_TEST_POSTGRES_URL must be reachable")
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	_, err = admin.ExecContext(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	out := make([]storetest.Store, n)
	for i := range out {
		s, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: schema, MaxOpenConns: 10})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		out[i] = s
	}
	return out
}

func postgresURL() string { return os.Getenv("TOOLKIT_TEST_POSTGRES_URL") }
