package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// spendTotals5 is an agent's running consumption in the current UTC day
// and month: the spend caps are checked against it in O(1) instead of
// summing the ledger. DayStart and MonthStart are the windows of the
// agent's latest charge; a charge in a later window starts that total over.
type spendTotals5 struct {
	bun.BaseModel `bun:"table:spend_totals"`
	AgentID       string    `bun:"agent_id,pk"`
	DayStart      time.Time `bun:"day_start,notnull"`
	DayMicros     int64     `bun:"day_micros,notnull"`
	MonthStart    time.Time `bun:"month_start,notnull"`
	MonthMicros   int64     `bun:"month_micros,notnull"`
}

// Running spend totals per agent, backfilled from the ledger's
// consumption in the current UTC day and month.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		now := time.Now().UTC()
		day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := tx.NewCreateTable().Model((*spendTotals5)(nil)).
				ForeignKey(`("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE`).Exec(ctx)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO spend_totals (agent_id, day_start, day_micros, month_start, month_micros)
				SELECT agent_id, ?, SUM(CASE WHEN created_at >= ? THEN -amount_micros ELSE 0 END), ?, SUM(-amount_micros)
				FROM ledger WHERE type = 'consumption' AND created_at >= ? GROUP BY agent_id`, day, day, month, month)
			return err
		})
	}, func(ctx context.Context, db *bun.DB) error {
		_, err := db.NewDropTable().Model((*spendTotals5)(nil)).IfExists().Exec(ctx)
		return err
	})
}
