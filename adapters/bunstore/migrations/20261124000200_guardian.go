package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

type guardianEvent1 struct {
	bun.BaseModel  `bun:"table:guardian_events"`
	ID             string     `bun:"id,pk"`
	Type           string     `bun:"type,notnull"`
	Category       string     `bun:"category,notnull"`
	Severity       string     `bun:"severity,notnull"`
	Description    string     `bun:"description,notnull"`
	AgentID        string     `bun:"agent_id,notnull"`
	Source         string     `bun:"source,notnull"`
	Count          int64      `bun:"event_count,notnull"`
	CreatedAt      time.Time  `bun:"created_at,notnull"`
	LastAt         time.Time  `bun:"last_at,notnull"`
	Details        *string    `bun:"details"`
	Verified       bool       `bun:"verified,notnull"`
	AcknowledgedAt *time.Time `bun:"acknowledged_at"`
}

type guardianMaintenance1 struct {
	bun.BaseModel `bun:"table:guardian_maintenance"`
	ID            int64     `bun:"id,pk"`
	On            bool      `bun:"maintenance_on,notnull"`
	Message       string    `bun:"message,notnull"`
	ChangedAt     time.Time `bun:"changed_at,notnull"`
}

type guardianCounter1 struct {
	bun.BaseModel `bun:"table:guardian_counters"`
	Name          string    `bun:"name,pk"`
	Hour          time.Time `bun:"hour,pk"`
	Value         int64     `bun:"value,notnull"`
}

type rateBucket1 struct {
	bun.BaseModel `bun:"table:rate_buckets"`
	Key           string `bun:"bucket_key,pk"`
	TATMicros     int64  `bun:"tat_us,notnull"`
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			steps := []func() error{
				func() error { _, err := tx.NewCreateTable().Model((*guardianEvent1)(nil)).Exec(ctx); return err },
				func() error {
					_, err := tx.NewCreateIndex().Model((*guardianEvent1)(nil)).Index("guardian_events_time_idx").
						Column("created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*guardianEvent1)(nil)).Index("guardian_events_category_idx").
						Column("category", "created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*guardianEvent1)(nil)).Index("guardian_events_severity_idx").
						Column("severity", "created_at", "id").Exec(ctx)
					return err
				},
				func() error { _, err := tx.NewCreateTable().Model((*guardianMaintenance1)(nil)).Exec(ctx); return err },
				func() error { _, err := tx.NewCreateTable().Model((*guardianCounter1)(nil)).Exec(ctx); return err },
				func() error { _, err := tx.NewCreateTable().Model((*rateBucket1)(nil)).Exec(ctx); return err },
				func() error {
					_, err := tx.NewCreateIndex().Model((*rateBucket1)(nil)).Index("rate_buckets_tat_idx").
						Column("tat_us").Exec(ctx)
					return err
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, m := range []any{(*rateBucket1)(nil), (*guardianCounter1)(nil), (*guardianMaintenance1)(nil), (*guardianEvent1)(nil)} {
				if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
