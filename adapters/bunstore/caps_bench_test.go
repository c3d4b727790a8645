package bunstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
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
	for name, open := range benchEngines() {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			fundedAgent(b, s, "agt_capped", 1<<50)
			seedConsumption(b, s, "agt_capped", ledgerRowsForCaps)
			daily, monthly := int64(1<<50), int64(1<<50)
			limits := billing.SpendLimits{DailyMicros: &daily, MonthlyMicros: &monthly}
			for _, mode := range []string{"sequential", "parallel"} {
				b.Run(mode, func(b *testing.B) { benchCharges(b, s, "agt_capped", limits, mode, 10) })
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
