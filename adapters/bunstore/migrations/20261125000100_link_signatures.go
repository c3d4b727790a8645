package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// linkSignature6 is a used link-wallet signature: its keyed hash (hex) is
// the primary key, so a signature is accepted once. SignedAt is the unix
// time the signed message carries; NULL when it carries none (such a row
// is never pruned: its message never leaves a time window).
type linkSignature6 struct {
	bun.BaseModel `bun:"table:wallet_link_signatures"`
	Digest        string     `bun:"digest,pk"`
	SignedAt      *time.Time `bun:"signed_at"`
	UsedAt        time.Time  `bun:"used_at,notnull"`
}

// Link-wallet accepts any signed message containing the agent_id, with or
// without a time, so its replay key is the signature, kept in a table of
// its own (wallet_challenges keeps the register-wallet challenges, which
// always carry a time).
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewCreateTable().Model((*linkSignature6)(nil)).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.NewCreateIndex().Model((*linkSignature6)(nil)).Index("wallet_link_signatures_signed_idx").
				Column("signed_at").Exec(ctx)
			return err
		})
	}, func(ctx context.Context, db *bun.DB) error {
		_, err := db.NewDropTable().Model((*linkSignature6)(nil)).IfExists().Exec(ctx)
		return err
	})
}
