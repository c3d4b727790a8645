package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// agentChanges27 is one announced agent change on SQLite, where the
// instances sharing a database file learn of each other's changes by
// polling this table (Postgres uses LISTEN/NOTIFY and has no such table).
type agentChanges27 struct {
	bun.BaseModel `bun:"table:agent_changes"`
	Seq           int64     `bun:"seq,pk,autoincrement"`
	AgentID       string    `bun:"agent_id,notnull"`
	ChangedAt     time.Time `bun:"changed_at,notnull"`
}

// The change feed of SQLite databases (see bunstore's changes.go).
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name() != dialect.SQLite {
			return nil
		}
		_, err := db.NewCreateTable().Model((*agentChanges27)(nil)).Exec(ctx)
		return err
	}, func(ctx context.Context, db *bun.DB) error {
		_, err := db.NewDropTable().Model((*agentChanges27)(nil)).IfExists().Exec(ctx)
		return err
	})
}
