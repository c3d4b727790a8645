package bunstore_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorObserverSeesDatabaseFaultsOnly(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	observe := func(op string, kind toolkit.Kind) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, op+" "+kind.String())
	}
	ctx := context.Background()
	s, err := bunstore.Open(ctx, filepath.Join(t.TempDir(), "o.db"), bunstore.Options{OnError: observe})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })

	_, err = s.AgentByID(ctx, "agt_missing")
	require.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	e := guardian.Event{ID: "evt_1", Type: guardian.TypeAuthFailure, Category: guardian.CategoryAuthentication,
		Severity: guardian.SeverityWarning, Count: 1}
	require.NoError(t, s.AddEvents(ctx, []guardian.Event{e}))
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(s.AddEvents(ctx, []guardian.Event{e})))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.CountEvents(cancelled)
	require.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	assert.Empty(t, seen, "not found, conflicts and cancelled requests are business outcomes")

	_, err = s.DB().NewRaw("SELECT * FROM no_such_table").Exec(ctx)
	require.Error(t, err)
	require.NoError(t, s.Close())
	_, err = s.CountEvents(ctx)
	require.Error(t, err)
	assert.Equal(t, []string{"SELECT internal", "SELECT internal"}, seen)
}
