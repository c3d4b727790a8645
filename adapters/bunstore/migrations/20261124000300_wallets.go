package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// walletChallenge3 is a used wallet challenge: its keyed hash (hex) is the
// primary key, so a signed message is accepted once.
type walletChallenge3 struct {
	bun.BaseModel `bun:"table:wallet_challenges"`
	Digest        string    `bun:"digest,pk"`
	SignedAt      time.Time `bun:"signed_at,notnull"`
}

// wallet3 maps a registered wallet, by its keyed hash (hex), to its agent.
type wallet3 struct {
	bun.BaseModel `bun:"table:wallets"`
	WalletHash    string    `bun:"wallet_hash,pk"`
	AgentID       string    `bun:"agent_id,notnull,unique"`
	SealedAddress []byte    `bun:"sealed_address,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// linkedWallet3 is the wallet an agent linked (one per agent).
type linkedWallet3 struct {
	bun.BaseModel `bun:"table:linked_wallets"`
	AgentID       string    `bun:"agent_id,pk"`
	WalletHash    string    `bun:"wallet_hash,notnull"`
	SealedAddress []byte    `bun:"sealed_address,notnull"`
	LinkedAt      time.Time `bun:"linked_at,notnull"`
}

// Wallets and deposits: test funds kept apart from real funds (a second
// balance column and a funds class on every ledger row), on-chain deposit
// details on the ledger (currency, quantity, USD price per token, the
// sealed transaction signature), the presale flag of agents, and the
// wallet tables.
//
// Existing money is classified without ever turning test money into real
// money: deposits without an external reference were sandbox
// self-credits (test); consumption rows of an agent that had any are
// counted as test spending; each balance is split into the test-row sum
// (clamped to [0, balance]) and the rest, which is real.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		blob := "BLOB"
		if db.Dialect().Name() == dialect.PG {
			blob = "BYTEA"
		}
		fk := `("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE`
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, q := range []string{
				`ALTER TABLE balances ADD COLUMN test_micros BIGINT NOT NULL DEFAULT 0`,
				`ALTER TABLE ledger ADD COLUMN funds VARCHAR NOT NULL DEFAULT 'real'`,
				`ALTER TABLE ledger ADD COLUMN currency VARCHAR`,
				`ALTER TABLE ledger ADD COLUMN quantity VARCHAR`,
				`ALTER TABLE ledger ADD COLUMN price_usd VARCHAR`,
				`ALTER TABLE ledger ADD COLUMN tx_signature_sealed ` + blob,
				`ALTER TABLE agents ADD COLUMN presale_buyer BOOLEAN NOT NULL DEFAULT FALSE`,
				`UPDATE ledger SET funds = 'test' WHERE type = 'deposit' AND external_ref IS NULL`,
				`UPDATE ledger SET funds = 'test' WHERE type = 'consumption' AND agent_id IN
					(SELECT agent_id FROM ledger WHERE type = 'deposit' AND external_ref IS NULL)`,
				`UPDATE balances SET test_micros = (
					SELECT CASE WHEN COALESCE(SUM(l.amount_micros), 0) < 0 THEN 0
						WHEN COALESCE(SUM(l.amount_micros), 0) > balances.micros THEN balances.micros
						ELSE COALESCE(SUM(l.amount_micros), 0) END
					FROM ledger l WHERE l.agent_id = balances.agent_id AND l.funds = 'test')`,
				`UPDATE balances SET micros = micros - test_micros`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			if _, err := tx.NewCreateTable().Model((*walletChallenge3)(nil)).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewCreateIndex().Model((*walletChallenge3)(nil)).Index("wallet_challenges_signed_idx").
				Column("signed_at").Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewCreateTable().Model((*wallet3)(nil)).ForeignKey(fk).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.NewCreateTable().Model((*linkedWallet3)(nil)).ForeignKey(fk).Exec(ctx)
			return err
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, m := range []any{(*linkedWallet3)(nil), (*wallet3)(nil), (*walletChallenge3)(nil)} {
				if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
					return err
				}
			}
			// Test money stays test money: it is folded back into the one
			// balance only because the older schema has nowhere else to keep it.
			for _, q := range []string{
				`UPDATE balances SET micros = micros + test_micros`,
				`ALTER TABLE balances DROP COLUMN test_micros`,
				`ALTER TABLE ledger DROP COLUMN funds`,
				`ALTER TABLE ledger DROP COLUMN currency`,
				`ALTER TABLE ledger DROP COLUMN quantity`,
				`ALTER TABLE ledger DROP COLUMN price_usd`,
				`ALTER TABLE ledger DROP COLUMN tx_signature_sealed`,
				`ALTER TABLE agents DROP COLUMN presale_buyer`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
