package httpapi_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCP measures MCP on SQLite: opening a session and listing the
// tools over streamable HTTP (one shared server) and over legacy SSE
// (each session builds its own server with every tool), and a call of a
// free tool on an open session. Rate limits and the session cap are
// lifted: they are not what is measured.
func BenchmarkMCP(b *testing.B) {
	srv, key := benchServer(b, filepath.Join(b.TempDir(), "bench.db"),
		httpapi.Options{RateLimits: httpapi.RateLimits{Disabled: true}, MCPSessionsPerAgent: 1 << 30})
	hc := &http.Client{Transport: keyTransport{key: key}}
	ctx := context.Background()
	connect := func(b *testing.B) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: hc}, nil)
		if err != nil {
			b.Fatal(err)
		}
		return cs
	}
	b.Run("open+list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cs := connect(b)
			if _, err := cs.ListTools(ctx, nil); err != nil {
				b.Fatal(err)
			}
			cs.Close()
		}
	})
	b.Run("sse open+list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx,
				&mcp.SSEClientTransport{Endpoint: srv.URL + "/mcp/sse", HTTPClient: hc}, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cs.ListTools(ctx, nil); err != nil {
				b.Fatal(err)
			}
			cs.Close()
		}
	})
	b.Run("call", func(b *testing.B) {
		cs := connect(b)
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "calculate_expected_value",
			Arguments: map[string]any{"win_rate": "0.5", "avg_win": "2", "avg_loss": "1"}}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(ctx, params)
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
