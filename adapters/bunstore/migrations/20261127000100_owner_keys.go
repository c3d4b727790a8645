package migrations

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Owner keys, API key times and ceilings: owners get the keyed hash of
// their owner key (hex, unique; NULL for owners who have none yet) and its
// creation time; agents get the creation time of their current API key
// (backfilled with the agent's creation time) and its last use; spend
// limits get the administrator's ceilings on the owner's changes.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		ts := "TIMESTAMP"
		if db.Dialect().Name() == dialect.PG {
			ts = "TIMESTAMPTZ"
		}
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, q := range []string{
				`ALTER TABLE owners ADD COLUMN key_hash VARCHAR`,
				`ALTER TABLE owners ADD COLUMN key_created_at ` + ts,
				`CREATE UNIQUE INDEX owners_key_hash_idx ON owners (key_hash)`,
				`ALTER TABLE agents ADD COLUMN key_created_at ` + ts,
				`ALTER TABLE agents ADD COLUMN key_used_at ` + ts,
				`UPDATE agents SET key_created_at = created_at`,
				`ALTER TABLE spend_limits ADD COLUMN ceiling_daily_micros BIGINT`,
				`ALTER TABLE spend_limits ADD COLUMN ceiling_monthly_micros BIGINT`,
				`ALTER TABLE spend_limits ADD COLUMN ceiling_operations VARCHAR`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, q := range []string{
				`DROP INDEX IF EXISTS owners_key_hash_idx`,
				`ALTER TABLE owners DROP COLUMN key_hash`,
				`ALTER TABLE owners DROP COLUMN key_created_at`,
				`ALTER TABLE agents DROP COLUMN key_created_at`,
				`ALTER TABLE agents DROP COLUMN key_used_at`,
				`ALTER TABLE spend_limits DROP COLUMN ceiling_daily_micros`,
				`ALTER TABLE spend_limits DROP COLUMN ceiling_monthly_micros`,
				`ALTER TABLE spend_limits DROP COLUMN ceiling_operations`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
