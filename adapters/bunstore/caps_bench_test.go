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
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/dialect"
)

// ledgerRowsForCaps is the size of the ledger BenchmarkChargeCaps seeds:
// a busy agent's month.
const ledgerRowsForCaps = 300_000

// BenchmarkChargeCaps measures charges per second of an agent with daily
// and monthly caps set whose ledger already holds 300k consumption rows
// this month: sequentially and from 20 goroutines.
func BenchmarkChargeCaps(b *testing.B) {
	engines := map[string]func(b *testing.B) *bunstore.Store{
		"sqlite": func(b *testing.B) *bunstore.Store { return openBench(b, filepath.Join(b.TempDir(), "bench.db"), "") },
	}
	if dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL"); dsn != "" {
		engines["postgres"] = func(b *testing.B) *bunstore.Store { return openBench(b, dsn, bunstoretest.FreshSchema(b, dsn)) }
	}
	for name, open := range engines {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			ctx := context.Background()
			fundedAgent(b, s, "agt_capped", 1<<50)
			seedConsumption(b, s, "agt_capped", ledgerRowsForCaps)
			daily, monthly := int64(1<<50), int64(1<<50)
			limits := billing.SpendLimits{DailyMicros: &daily, MonthlyMicros: &monthly}
			var n atomic.Int64
			charge := func() {
				now := time.Now().UTC()
				_, err := s.Charge(ctx, billing.ChargeRequest{TxID: fmt.Sprintf("tx_%d", n.Add(1)), AgentID: "agt_capped",
					Operation: "position_sizing", Micros: 3000, At: now, DayStart: now.Truncate(24 * time.Hour),
					MonthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), Limits: limits})
				if err != nil {
					b.Fatal(err)
				}
			}
			for _, mode := range []string{"sequential", "parallel"} {
				b.Run(mode, func(b *testing.B) {
					b.ResetTimer()
					if mode == "sequential" {
						for b.Loop() {
							charge()
						}
					} else {
						b.SetParallelism(10)
						b.RunParallel(func(pb *testing.PB) {
							for pb.Next() {
								charge()
							}
						})
					}
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charges/s")
				})
			}
		})
	}
}

// seedConsumption writes rows consumption rows of one micro-USD each,
// dated now, straight into the ledger, 20k a statement.
func seedConsumption(tb testing.TB, s *bunstore.Store, agentID string, rows int) {
	tb.Helper()
	at := "?"
	if s.DB().Dialect().Name() == dialect.PG {
		at = "CAST(? AS TIMESTAMPTZ)"
	}
	const chunk = 20_000
	for first := 0; first < rows; first += chunk {
		_, err := s.DB().ExecContext(context.Background(), `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
			INSERT INTO ledger (tx_id, agent_id, type, funds, amount_micros, balance_after_micros, operation, created_at)
			SELECT 'tx_seed_' || i, ?, 'consumption', 'real', -1, 0, 'risk_check', `+at+` FROM n`,
			first, min(first+chunk, rows)-1, agentID, time.Now().UTC())
		require.NoError(tb, err)
	}
}
