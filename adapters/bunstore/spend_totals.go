package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

// spendTotalsRow is an agent's running consumption in the windows of its
// latest charge (see migrations.spendTotals5): the spend caps are checked
// against it in O(1), never by summing the ledger.
type spendTotalsRow struct {
	bun.BaseModel `bun:"table:spend_totals"`
	AgentID       string    `bun:"agent_id,pk"`
	DayStart      time.Time `bun:"day_start"`
	DayMicros     int64     `bun:"day_micros"`
	MonthStart    time.Time `bun:"month_start"`
	MonthMicros   int64     `bun:"month_micros"`
}

// spendTotalsUpsert adds one charge to the agent's totals: the SQL form of
// billing.SpendTotals.Add (a later window starts over; a charge dated in
// an earlier window, from a skewed clock, counts in the stored one, so
// the caps never undercount). Its arguments are agent, day
// start, micros, month start, micros; it returns the new day and month
// totals. The same text is the totals step of the Postgres charge
// statement.
const spendTotalsUpsert = `INSERT INTO spend_totals AS st (agent_id, day_start, day_micros, month_start, month_micros)
	VALUES (?, ?, ?, ?, ?)
	ON CONFLICT (agent_id) DO UPDATE SET
		day_micros = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_micros ELSE st.day_micros + EXCLUDED.day_micros END,
		day_start = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_start ELSE st.day_start END,
		month_micros = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_micros ELSE st.month_micros + EXCLUDED.month_micros END,
		month_start = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_start ELSE st.month_start END
	RETURNING day_micros, month_micros`

// checkCaps checks a charge against its caps (billing.CheckSpendCaps),
// given the outcome of its totals step: the day and month totals that
// include it.
func checkCaps(req billing.ChargeRequest, out chargeOutcome) error {
	return billing.CheckSpendCaps(req.Limits, out.dayTotal-req.Micros, out.monthTotal-req.Micros, req.Micros)
}

// spentFromTotals answers "consumption since" from the running totals
// when since is the start of a UTC day or month: the stored total when
// it is that window, zero when the agent's latest charge is in an earlier
// window. ok is false when the totals cannot answer (the ledger must).
func spentFromTotals(row *spendTotalsRow, since time.Time) (spent int64, ok bool) {
	if row == nil {
		return 0, false
	}
	since = since.UTC()
	day, month := billing.SpendWindows(since)
	if since.Equal(day) {
		switch start := row.DayStart.UTC(); {
		case start.Equal(since):
			return row.DayMicros, true
		case start.Before(since):
			return 0, true
		}
	}
	if since.Equal(month) {
		switch start := row.MonthStart.UTC(); {
		case start.Equal(since):
			return row.MonthMicros, true
		case start.Before(since):
			return 0, true
		}
	}
	return 0, false
}

// spendTotals reads the agent's running totals (nil when it never paid).
func spendTotals(ctx context.Context, db bun.IDB, agentID string) (*spendTotalsRow, error) {
	var row spendTotalsRow
	err := db.NewSelect().Model(&row).Where("agent_id = ?", agentID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &row, nil
}

// Spent implements billing.Store: from the running totals when since is a
// window start, from the ledger otherwise.
func (s *Store) Spent(ctx context.Context, agentID string, since time.Time) (int64, error) {
	row, err := spendTotals(ctx, s.db, agentID)
	if err != nil {
		return 0, translate("bunstore.Spent", err)
	}
	if spent, ok := spentFromTotals(row, since); ok {
		return spent, nil
	}
	spent, err := spentSince(ctx, s.db, agentID, since)
	return spent, translate("bunstore.Spent", err)
}
