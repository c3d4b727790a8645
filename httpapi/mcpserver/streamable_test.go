package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shared server of streamable HTTP runs a call for the agent in the
// request's context only: a call reaching it without one (not through
// Serve) is an internal error, run for nobody.
func TestSharedServerRefusesACallWithoutAnAgent(t *testing.T) {
	h := newTestHandler(t)
	ctx := context.Background()
	client, server := mcp.NewInMemoryTransports()
	ss, err := h.shared.Load().Connect(ctx, server, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "0"}, nil).Connect(ctx, client, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_position_size",
		Arguments: map[string]any{"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "direction": "long"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, "internal", res.Meta["code"])
}
