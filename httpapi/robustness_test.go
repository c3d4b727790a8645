package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type hazardInput struct {
	Value toolkit.Amount `json:"value"`
}

// withHazards serves a tool that panics and one whose result overflows.
func withHazards(c *envConfig) {
	panics := catalog.NewTool(catalog.Spec{Name: "panics", Description: "Panics.", Category: "test", Operation: "position_sizing"},
		func(context.Context, catalog.Call, hazardInput) (any, error) { panic("boom") }, nil)
	overflows := catalog.NewTool(catalog.Spec{Name: "overflows", Description: "Overflows.", Category: "test"},
		func(_ context.Context, _ catalog.Call, in hazardInput) (any, error) {
			return map[string]any{"x": toolkit.Float(in.Value.Float64() * 1e300 * 1e300)}, nil
		}, nil)
	free := catalog.NewTool(catalog.Spec{Name: "echo", Description: "Echoes.", Category: "test"},
		func(_ context.Context, _ catalog.Call, in hazardInput) (any, error) {
			return map[string]any{"value": in.Value}, nil
		}, nil)
	c.catalog, _ = catalog.New(panics, overflows, free)
}

// Regression (robustness finding 1): a panicking tool is a 500 (REST) or
// an internal tool error (MCP) with one log line; the process lives on,
// nothing is charged, and the next call works.
func TestPanicsNeverEndTheProcess(t *testing.T) {
	e := newEnv(t, withHazards)
	_, k := e.register("acme")
	e.fund(k, "1")

	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"panics","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.Equal(t, "internal error", m["detail"])
	assert.Equal(t, 1, strings.Count(e.logs.String(), "panic in tool panics: boom"), "one log line")

	logged := 1
	for _, transport := range []string{"sse", "streamable"} {
		cs, err := e.mcpConnect(t, transport, k)
		require.NoError(t, err)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "panics", Arguments: map[string]any{"value": "1"}})
		require.NoError(t, err, transport)
		assert.True(t, res.IsError, transport)
		assert.JSONEq(t, `{"detail":"internal error","code":"internal"}`, res.Content[0].(*mcp.TextContent).Text, transport)
		assert.Equal(t, 1, strings.Count(e.logs.String(), "panic in tool panics: boom")-logged, "one log line (%s)", transport)
		logged++
		res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"value": "2"}})
		require.NoError(t, err, transport)
		assert.False(t, res.IsError, "the session and the process survive (%s)", transport)
	}
	assert.Equal(t, "1.00", e.balance(k), "a panic is never charged")
}

// Regression (robustness finding 8): a result that cannot be encoded
// (non-finite) is a 400 naming the tool, not a 500.
func TestNonFiniteResultIsAClientError(t *testing.T) {
	e := newEnv(t, withHazards)
	_, k := e.register("acme")
	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"overflows","arguments":{"value":"1"}}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "too large to represent")
	assert.Contains(t, m["detail"], "overflows")
}

// Regression (robustness finding 1): the free tools that reached the
// rounding panic with 10^33 refuse it as out of range, on every surface.
func TestHugeNumbersAreRefusedByRange(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("acme")
	body := `{"tool_name":"calculate_pnl","arguments":{"entry_price":"1","exit_price":"1000000000000000000000000000000000","quantity":1,"direction":"LONG"}}`
	status, m := e.do("POST", "/v1/tools/call", key(k), body)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "exit_price: 1000000000000000000000000000000000 is out of range")

	body = `{"tool_name":"calculate_pnl","arguments":{"entry_price":"1","exit_price":"999999999999999999","quantity":999999999999999999,"direction":"LONG","stop_price":"0.5"}}`
	status, m = e.do("POST", "/v1/tools/call", key(k), body)
	assert.Equal(t, http.StatusBadRequest, status, "products beyond 34 digits are refused, not rounded into a panic")
	assert.Contains(t, m["detail"], "out of range")

	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_pnl",
		Arguments: map[string]any{"entry_price": "1", "exit_price": "1e33", "quantity": 1, "direction": "LONG"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, fmt.Sprint(res.Content[0].(*mcp.TextContent).Text), "out of range")
}
