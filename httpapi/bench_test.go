package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// BenchmarkToolsCallHTTP measures POST /v1/tools/call over a real
// listener, for a free tool and a priced one (which adds the debit
// transaction), on SQLite and (with TOOLKIT_TEST_POSTGRES_URL) Postgres,
// with the rate limits off.
func BenchmarkToolsCallHTTP(b *testing.B) {
	dbs := map[string]string{"sqlite": filepath.Join(b.TempDir(), "bench.db")}
	if dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL"); dsn != "" {
		dbs["postgres"] = dsn
	}
	calls := map[string]string{
		"free":   `{"tool_name":"calculate_expected_value","arguments":{"win_rate":"0.5","avg_win":"2","avg_loss":"1"}}`,
		"priced": `{"tool_name":"calculate_position_size","arguments":{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}}`,
	}
	for db, dsn := range dbs {
		srv, key := benchServer(b, dsn, httpapi.Options{RateLimits: httpapi.RateLimits{Disabled: true}})
		for kind, body := range calls {
			b.Run(db+"/"+kind, func(b *testing.B) {
				client := srv.Client()
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						req, _ := http.NewRequest("POST", srv.URL+"/v1/tools/call", strings.NewReader(body))
						req.Header.Set("X-API-Key", key)
						res, err := client.Do(req)
						if err != nil {
							b.Fatal(err)
						}
						_, _ = io.Copy(io.Discard, res.Body)
						res.Body.Close()
						if res.StatusCode != http.StatusOK {
							b.Fatalf("status %d", res.StatusCode)
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			})
		}
	}
}

// benchServer starts the API with the real catalog on a real listener and
// returns it with a funded agent's key. opts are the API's options (the
// logger is set here).
func benchServer(b *testing.B, dsn string, opts httpapi.Options) (*httptest.Server, string) {
	b.Helper()
	ctx := context.Background()
	storeOpts := bunstore.Options{}
	if strings.HasPrefix(dsn, "postgres") {
		storeOpts.Schema = bunstoretest.FreshSchema(b, dsn)
	}
	store, err := bunstore.Open(ctx, dsn, storeOpts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	ag, _ := agents.NewService(store, agents.Config{})
	tools := catalog.Default()
	bill, _ := billing.NewService(store, billing.Config{SandboxSelfCredit: true, SandboxCreditCap: mustAmount("1000000"), Prices: tools.Prices()})
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	api, err := httpapi.New(platform.Services{Agents: ag, Billing: bill, Catalog: tools}, opts)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(api)
	b.Cleanup(srv.Close)
	registered, err := ag.Register(ctx, agents.RegisterInput{OwnerID: "bench", AgentName: "bench", AgentType: "trading"}, "")
	a, key := registered.Agent, registered.APIKey
	if err != nil {
		b.Fatal(err)
	}
	if _, err := bill.Deposit(ctx, billing.AccountOf(a),
		billing.DepositInput{Amount: mustAmount("1000000"), FundingPath: billing.FundingDirectTransfer}); err != nil {
		b.Fatal(err)
	}
	return srv, key
}
