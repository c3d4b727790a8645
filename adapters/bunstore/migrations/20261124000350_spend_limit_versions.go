package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Spend limits carry a version, bumped by every change, so that an
// agent's own tightening is a compare-and-swap: a concurrent change can
// never be overwritten by a looser value read before it.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		_, err := db.ExecContext(ctx, `ALTER TABLE spend_limits ADD COLUMN version BIGINT NOT NULL DEFAULT 1`)
		return err
	}, func(ctx context.Context, db *bun.DB) error {
		_, err := db.ExecContext(ctx, `ALTER TABLE spend_limits DROP COLUMN version`)
		return err
	})
}
