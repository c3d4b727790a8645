package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

type owner1 struct {
	bun.BaseModel `bun:"table:owners"`
	OwnerID       string    `bun:"owner_id,pk"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type agent1 struct {
	bun.BaseModel         `bun:"table:agents"`
	ID                    string    `bun:"id,pk"`
	OwnerID               string    `bun:"owner_id,notnull"`
	Name                  string    `bun:"name,notnull"`
	Type                  string    `bun:"type,notnull"`
	Description           *string   `bun:"description"`
	Mode                  string    `bun:"mode,notnull"`
	CreatedAt             time.Time `bun:"created_at,notnull"`
	AuthorizedInstruments string    `bun:"authorized_instruments,notnull"`
	AuthorizedActions     string    `bun:"authorized_actions,notnull"`
	MaxPositionSizePct    *string   `bun:"max_position_size_pct"`
	MaxDailyLossPct       *string   `bun:"max_daily_loss_pct"`
	KeyDigest             string    `bun:"key_digest,notnull,unique"`
}

type balance1 struct {
	bun.BaseModel `bun:"table:balances"`
	AgentID       string    `bun:"agent_id,pk"`
	Micros        int64     `bun:"micros,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

type ledger1 struct {
	bun.BaseModel `bun:"table:ledger"`
	Seq           int64     `bun:"seq,pk,autoincrement"`
	TxID          string    `bun:"tx_id,notnull,unique"`
	AgentID       string    `bun:"agent_id,notnull"`
	Type          string    `bun:"type,notnull"`
	AmountMicros  int64     `bun:"amount_micros,notnull"`
	BalanceAfter  int64     `bun:"balance_after_micros,notnull"`
	Operation     *string   `bun:"operation"`
	FundingPath   *string   `bun:"funding_path"`
	ExternalRef   *string   `bun:"external_ref,unique"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type usage1 struct {
	bun.BaseModel `bun:"table:usage_totals"`
	AgentID       string `bun:"agent_id,pk"`
	Operation     string `bun:"operation,pk"`
	Count         int64  `bun:"call_count,notnull"`
	TotalMicros   int64  `bun:"total_micros,notnull"`
}

type idempotency1 struct {
	bun.BaseModel `bun:"table:idempotency_keys"`
	AgentID       string    `bun:"agent_id,pk"`
	Key           string    `bun:"idem_key,pk"`
	RequestHash   string    `bun:"request_hash,notnull"`
	Response      []byte    `bun:"response,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type spendLimits1 struct {
	bun.BaseModel     `bun:"table:spend_limits"`
	AgentID           string  `bun:"agent_id,pk"`
	DailyMicros       *int64  `bun:"daily_micros"`
	MonthlyMicros     *int64  `bun:"monthly_micros"`
	AllowedOperations *string `bun:"allowed_operations"`
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			fk := `("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE`
			steps := []func() error{
				func() error { _, err := tx.NewCreateTable().Model((*owner1)(nil)).Exec(ctx); return err },
				func() error {
					_, err := tx.NewCreateTable().Model((*agent1)(nil)).
						ForeignKey(`("owner_id") REFERENCES "owners" ("owner_id")`).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*agent1)(nil)).Index("agents_owner_idx").
						Column("owner_id", "created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateTable().Model((*balance1)(nil)).ForeignKey(fk).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateTable().Model((*ledger1)(nil)).ForeignKey(fk).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*ledger1)(nil)).Index("ledger_agent_idx").
						Column("agent_id", "seq").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*ledger1)(nil)).Index("ledger_agent_time_idx").
						Column("agent_id", "type", "created_at").Exec(ctx)
					return err
				},
				func() error { _, err := tx.NewCreateTable().Model((*usage1)(nil)).ForeignKey(fk).Exec(ctx); return err },
				func() error {
					_, err := tx.NewCreateTable().Model((*idempotency1)(nil)).ForeignKey(fk).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateTable().Model((*spendLimits1)(nil)).ForeignKey(fk).Exec(ctx)
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
			for _, m := range []any{(*spendLimits1)(nil), (*idempotency1)(nil), (*usage1)(nil), (*ledger1)(nil),
				(*balance1)(nil), (*agent1)(nil), (*owner1)(nil)} {
				if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
