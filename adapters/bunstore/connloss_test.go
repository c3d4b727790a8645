package bunstore

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// When Postgres ends every connection of a server (a restart, a
// failover), one query fails, not one per pooled connection: the idle
// connections are dropped with the first loss and the next query opens a
// fresh one.
func TestLostConnectionsDropTheIdlePool(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", "toolkit-connloss-"+schema)
	u.RawQuery = q.Encode()
	ctx := context.Background()
	s, err := Open(ctx, u.String(), Options{Schema: schema, MaxOpenConns: 8})
	require.NoError(t, err)
	defer s.Close()
	other, err := Open(ctx, dsn, Options{Schema: schema, MaxOpenConns: 1})
	require.NoError(t, err)
	defer other.Close()

	// Fill the pool: 8 queries at once leave 8 idle connections.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.db.ExecContext(ctx, "SELECT pg_sleep(0.05)")
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	require.Equal(t, 8, s.db.DB.Stats().Idle)
	var killed int
	require.NoError(t, other.db.QueryRowContext(ctx,
		"SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?", "toolkit-connloss-"+schema).Scan(&killed))
	require.Equal(t, 8, killed)

	failed := 0
	for range 8 {
		if _, err := s.db.ExecContext(ctx, "SELECT 1"); err != nil {
			failed++
		}
	}
	assert.Equal(t, 1, failed, "the first query finds its connection gone; the others get fresh ones")
}
