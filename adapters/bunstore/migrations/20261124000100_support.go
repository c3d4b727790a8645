package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// supportTicket1 is a ticket. seq is the ticket number (SR-000142): an
// autoincrement column, so concurrent writers on either engine never get
// the same number. Subject and description are ciphertexts.
type supportTicket1 struct {
	bun.BaseModel `bun:"table:support_tickets"`
	Seq           int64     `bun:"seq,pk,autoincrement"`
	ID            string    `bun:"id,notnull,unique"`
	AgentID       string    `bun:"agent_id,notnull"`
	Subject       []byte    `bun:"subject,notnull"`
	Description   []byte    `bun:"description,notnull"`
	Priority      string    `bun:"priority,notnull"`
	Category      string    `bun:"category,notnull"`
	Status        string    `bun:"status,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

// supportSubmission1 is a feedback, suggestion, enterprise inquiry or bug
// report; content is the sealed JSON of its fields.
type supportSubmission1 struct {
	bun.BaseModel `bun:"table:support_submissions"`
	ID            string    `bun:"id,pk"`
	Kind          string    `bun:"kind,notnull"`
	AgentID       string    `bun:"agent_id,notnull"`
	Status        string    `bun:"status,notnull"`
	Content       []byte    `bun:"content,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			fk := `("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE`
			steps := []func() error{
				func() error {
					_, err := tx.NewCreateTable().Model((*supportTicket1)(nil)).ForeignKey(fk).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*supportTicket1)(nil)).Index("support_tickets_agent_idx").
						Column("agent_id", "created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*supportTicket1)(nil)).Index("support_tickets_time_idx").
						Column("created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateTable().Model((*supportSubmission1)(nil)).ForeignKey(fk).Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*supportSubmission1)(nil)).Index("support_submissions_kind_idx").
						Column("kind", "created_at", "id").Exec(ctx)
					return err
				},
				func() error {
					_, err := tx.NewCreateIndex().Model((*supportSubmission1)(nil)).Index("support_submissions_agent_idx").
						Column("agent_id", "created_at", "id").Exec(ctx)
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
			for _, m := range []any{(*supportSubmission1)(nil), (*supportTicket1)(nil)} {
				if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
