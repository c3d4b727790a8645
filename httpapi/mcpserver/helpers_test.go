package mcpserver

import (
	"testing"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/require"
)

// newTestHandler is a handler over every service of an in-memory
// platform.
func newTestHandler(t *testing.T) *Handler {
	t.Helper()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys}, platform.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	h, err := New(Config{Agents: p.Agents, Calls: p.Calls, Billing: p.Billing, Catalog: p.Catalog})
	require.NoError(t, err)
	return h
}
