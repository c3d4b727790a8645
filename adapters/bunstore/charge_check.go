package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/agentfinance/toolkit/billing"
)

// chargeCheckQuery reads an agent's balances, spend limits and running
// totals in one query; its CASEs are billing.SpendTotals.Spent (a total
// whose window is earlier than the one asked for counts nothing yet; a
// later one, another server's clock ahead, is counted, as the debit
// counts it).
const chargeCheckQuery = `SELECT b.micros, b.test_micros, b.updated_at,
	l.daily_micros, l.monthly_micros, l.allowed_operations, COALESCE(l.version, 0),
	CASE WHEN t.day_start >= ? THEN t.day_micros ELSE 0 END,
	CASE WHEN t.month_start >= ? THEN t.month_micros ELSE 0 END
FROM balances AS b
LEFT JOIN spend_limits AS l ON l.agent_id = b.agent_id
LEFT JOIN spend_totals AS t ON t.agent_id = b.agent_id
WHERE b.agent_id = ?`

// ChargeCheck implements billing.Store in one round trip.
func (s *Store) ChargeCheck(ctx context.Context, agentID string, dayStart, monthStart time.Time) (billing.ChargeCheck, error) {
	const op = "bunstore.ChargeCheck"
	out := billing.ChargeCheck{Balance: billing.BalanceRecord{AgentID: agentID}}
	var allowed sql.NullString
	err := s.db.NewRaw(chargeCheckQuery, dayStart.UTC(), monthStart.UTC(), agentID).Scan(ctx,
		&out.Balance.Micros, &out.Balance.TestMicros, &out.Balance.UpdatedAt,
		&out.Limits.DailyMicros, &out.Limits.MonthlyMicros, &allowed, &out.Limits.Version,
		&out.SpentDay, &out.SpentMonth)
	if err != nil {
		return billing.ChargeCheck{}, translate(op, err)
	}
	out.Balance.UpdatedAt = out.Balance.UpdatedAt.UTC()
	if allowed.Valid {
		if err := json.Unmarshal([]byte(allowed.String), &out.Limits.AllowedOperations); err != nil {
			return billing.ChargeCheck{}, translate(op, err)
		}
	}
	return out, nil
}
