// Package bunstoretest helps tests and benchmarks run against a real
// PostgreSQL: it reads the database URL from the environment and gives
// each test a fresh schema, dropped when the test ends.
//
//	dsn := bunstoretest.PostgresURL(t) // skips unless TOOLKIT_TEST_POSTGRES_URL is set
//	s, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: bunstoretest.FreshSchema(t, dsn)})
package bunstoretest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"testing"

	"github.com/uptrace/bun/driver/pgdriver"
)

// PostgresURL returns TOOLKIT_TEST_POSTGRES_URL. When it is unset the test
// is skipped, unless TOOLKIT_REQUIRE_POSTGRES=1 makes that a failure (CI
// sets it).
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL")
	if dsn == "" {
		if os.Getenv("TOOLKIT_REQUIRE_POSTGRES") == "1" {
			tb.Fatal("TOOLKIT_REQUIRE_POSTGRES=1 but TOOLKIT_TEST_POSTGRES_URL is unset")
		}
		tb.Skip("set TOOLKIT_TEST_POSTGRES_URL to run against PostgreSQL")
	}
	return dsn
}

// FreshSchema creates a schema with a random name in the database at dsn
// and drops it (with everything in it) when the test ends.
func FreshSchema(tb testing.TB, dsn string) string {
	tb.Helper()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		tb.Fatalf("PostgreSQL at TOOLKIT_TEST_POSTGRES_URL must be reachable: %v", err)
	}
	tb.Cleanup(func() {
		_, _ = db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		db.Close()
	})
	return schema
}
