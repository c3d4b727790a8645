package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fuzzTarget is where FuzzToolSurfaces sends its calls: an in-process API,
// or a running server when TOOLKIT_FUZZ_URL and TOOLKIT_FUZZ_KEY are set
// (scripts/fuzz-server.sh uses that to fuzz the reference server over MCP
// for minutes while watching its memory).
type fuzzTarget struct {
	url   string
	key   string
	tools []string
	mcp   *mcp.ClientSession
}

func newFuzzTarget(f *testing.F) *fuzzTarget {
	ft := &fuzzTarget{url: os.Getenv("TOOLKIT_FUZZ_URL"), key: os.Getenv("TOOLKIT_FUZZ_KEY")}
	if ft.url == "" {
		store := memstore.New()
		ag, _ := agents.NewService(store, agents.Config{})
		master, lookup, err := tinkkeys.NewKeysets()
		if err != nil {
			f.Fatal(err)
		}
		keys, err := tinkkeys.New(master, lookup)
		if err != nil {
			f.Fatal(err)
		}
		ws, err := workspace.NewService(store, workspace.Config{Vault: cryptovault.New(keys), MaxMemories: 1 << 40, MaxMemoryBytes: 1 << 50, MaxTrades: 1 << 40})
		if err != nil {
			f.Fatal(err)
		}
		tools, err := platform.Catalog(ws)
		if err != nil {
			f.Fatal(err)
		}
		bill, _ := billing.NewService(store, billing.Config{SandboxSelfCredit: true, SandboxCreditCap: toolkit.MustParseAmount("1000000"),
			Prices: tools.Prices()})
		api, err := httpapi.New(platform.Services{Agents: ag, Billing: bill, Catalog: tools, Workspace: ws},
			// The rate limits off, as scripts/fuzz-server.sh runs its server:
			// the fuzzer calls far faster than a key's limit.
			httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RateLimits: httpapi.RateLimits{Disabled: true}})
		if err != nil {
			f.Fatal(err)
		}
		srv := httptest.NewServer(api)
		f.Cleanup(srv.Close)
		ft.url = srv.URL
		registered, err := ag.Register(context.Background(), agents.RegisterInput{OwnerID: "fuzz", AgentName: "fuzz", AgentType: "trading"}, "")
		a, key := registered.Agent, registered.APIKey
		if err != nil {
			f.Fatal(err)
		}
		ft.key = key
		if _, err := bill.Deposit(context.Background(), billing.AccountOf(a), billing.DepositInput{
			Amount: toolkit.MustParseAmount("1000000"), FundingPath: billing.FundingDirectTransfer}); err != nil {
			f.Fatal(err)
		}
	}
	res, err := http.Get(ft.url + "/v1/tools/list")
	if err != nil {
		f.Fatal(err)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		f.Fatal(err)
	}
	res.Body.Close()
	for _, t := range list.Tools {
		ft.tools = append(ft.tools, t.Name)
	}
	hc := &http.Client{Transport: keyTransport{key: ft.key}}
	ft.mcp, err = mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: ft.url + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ft.mcp.Close() })
	return ft
}

// FuzzToolSurfaces sends arbitrary arguments to every tool over REST
// (/v1/tools/call) and over MCP: no input may panic the server, end the
// process, or produce a 500 / an internal error — only 200 or a client
// error (400, 402, 413, 503 when saturated).
func FuzzToolSurfaces(f *testing.F) {
	for i, s := range []string{
		`{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`,
		`{"r_multiples":["1","-1","2"],"tier":"full","window_size":2}`,
		`{"r_multiples":["1e9","-1"],"starting_equity":"0.000001","num_simulations":10000}`,
		`{"entry_price":"1","exit_price":"1e17","quantity":999999999999999999,"direction":"LONG"}`,
		`{"bars":[{"open":"1","high":"2","low":"0.5","close":"1.5","volume":"10"}]}`,
		`{"trades":[{"pnl_r":"1","pnl_usd":"1e17","symbol":"X"}]}`,
		`{"content":"breakout notes","category":"x","metadata":{"a":[1,{"b":null}]}}`,
		`{"query":"breakout notes","limit":50}`,
		`{"symbol":"A","direction":"short","entry_price":"1e-16","exit_price":"9e17","quantity":"1","stop_price":"2","fees":"0"}`,
		`{"trades":[{"r_multiple":"1","size":"1e-300","entry_time":"2026-01-01T00:00:00Z"},{"r_multiple":-1,"hold_time_hours":0}]}`,
		`[]`, `null`, `{"equity":{}}`, `{"r_multiples":[]}`, `{"a":"\u0000"}`,
	} {
		f.Add(uint8(i*7), []byte(s))
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, pick uint8, args []byte) {
		tool := ft.tools[int(pick)%len(ft.tools)]
		body, _ := json.Marshal(map[string]any{"tool_name": tool, "arguments": json.RawMessage(args)})
		if !json.Valid(args) {
			body = []byte(`{"tool_name":"` + tool + `","arguments":` + string(args) + `}`)
		}
		req, _ := http.NewRequest(http.MethodPost, ft.url+"/v1/tools/call", bytes.NewReader(body))
		req.Header.Set("X-API-Key", ft.key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: the server stopped answering: %v", tool, err)
		}
		res.Body.Close()
		switch res.StatusCode {
		case 200, 400, 402, 413, 503:
		default:
			t.Fatalf("%s(%q): status %d", tool, args, res.StatusCode)
		}
		if !json.Valid(args) || !bytes.HasPrefix(bytes.TrimSpace(args), []byte("{")) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := ft.mcp.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s(%q) over MCP: %v", tool, args, err)
		}
		if out.IsError {
			if text := out.Content[0].(*mcp.TextContent).Text; strings.Contains(text, "internal error") {
				t.Fatalf("%s(%q) over MCP: %s", tool, args, text)
			}
		}
	})
}
