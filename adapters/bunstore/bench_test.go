package bunstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/require"
)

// BenchmarkCharge measures charges per second through the group commit
// (conditional debit, running spend totals, ledger row, usage upsert), sequentially and from
// parallel goroutines, on SQLite and (with TOOLKIT_TEST_POSTGRES_URL) on
// Postgres. scripts/pgbench-charge.sh runs the same SQL with pgbench.
func BenchmarkCharge(b *testing.B) {
	for name, open := range benchEngines() {
		for _, mode := range []string{"sequential", "parallel"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				s := open(b)
				ctx := context.Background()
				a := agents.Agent{ID: "agt_bench", OwnerID: "bench", Name: "b", Type: agents.TypeTrading,
					Mode: agents.ModeSandbox, CreatedAt: time.Now().UTC()}
				require.NoError(b, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("bench-digest"), NewOwner: true}))
				_, err := s.Credit(ctx, billing.CreditRequest{TxID: "tx_fund", AgentID: a.ID, Micros: 1 << 50,
					FundingPath: billing.FundingDirectTransfer, At: time.Now().UTC()})
				require.NoError(b, err)
				b.ReportAllocs()
				benchCharges(b, s, a.ID, billing.SpendLimits{}, mode, 8)
			})
		}
	}
}

// benchEngines opens a fresh store per benchmark: SQLite always, Postgres
// with TOOLKIT_TEST_POSTGRES_URL.
func benchEngines() map[string]func(b *testing.B) *bunstore.Store {
	engines := map[string]func(b *testing.B) *bunstore.Store{
		"sqlite": func(b *testing.B) *bunstore.Store { return openBench(b, filepath.Join(b.TempDir(), "bench.db"), "") },
	}
	if dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL"); dsn != "" {
		engines["postgres"] = func(b *testing.B) *bunstore.Store { return openBench(b, dsn, bunstoretest.FreshSchema(b, dsn)) }
	}
	return engines
}

// benchTxSeq numbers the benchmarks' charges: transaction ids stay unique
// in a store that several runs (and the b.N ramp-up) charge.
var benchTxSeq atomic.Int64

// benchCharges charges 0.003 to agentID under limits, one charge at a time
// ("sequential") or from parallelism goroutines per core ("parallel"),
// dated now in the real cap windows, and reports charges per second.
func benchCharges(b *testing.B, s *bunstore.Store, agentID string, limits billing.SpendLimits, mode string, parallelism int) {
	ctx := context.Background()
	charge := func() {
		now := time.Now().UTC()
		_, err := s.Charge(ctx, billing.ChargeRequest{TxID: fmt.Sprintf("tx_%d", benchTxSeq.Add(1)), AgentID: agentID,
			Operation: "position_sizing", Micros: 3000, At: now, DayStart: now.Truncate(24 * time.Hour),
			MonthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), Limits: limits})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	if mode == "sequential" {
		for b.Loop() {
			charge()
		}
	} else {
		b.SetParallelism(parallelism)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				charge()
			}
		})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charges/s")
}

// openBench opens a store for a benchmark and closes it at the end.
func openBench(b *testing.B, dsn, schema string) *bunstore.Store {
	s, err := bunstore.Open(context.Background(), dsn, bunstore.Options{Schema: schema})
	require.NoError(b, err)
	b.Cleanup(func() { s.Close() })
	return s
}
