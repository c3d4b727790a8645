package bunstore

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore/migrations"
	"github.com/gofrs/flock"
	"github.com/uptrace/bun/migrate"
)

// migrate applies pending migrations. With nothing pending it takes no
// lock: a restart costs one read. Otherwise it waits for any other process
// migrating the same database — Postgres through a session advisory lock
// (the server releases it if the process dies), SQLite through an
// exclusive lock on a file next to the database (released by the kernel
// likewise) — then reads again what is pending and applies it. Bun's own
// lock table is not used: a crash would leave its row behind and block
// every later start.
func (s *Store) migrate(ctx context.Context) error {
	m := migrate.NewMigrator(s.db, migrations.Migrations, migrate.WithMarkAppliedOnSuccess(true))
	if pending, err := pendingMigrations(ctx, m); err == nil && !pending {
		return nil
	}
	unlock, err := s.lockMigrations(ctx)
	if err != nil {
		return fmt.Errorf("bunstore: waiting for the migration lock: %w", err)
	}
	defer unlock()
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("bunstore: preparing migrations: %w", err)
	}
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("bunstore: migrating: %w", err)
	}
	return nil
}

// pendingMigrations reports whether a migration is unapplied; an error
// (typically: the migrations table does not exist yet) means "take the
// lock and look again".
func pendingMigrations(ctx context.Context, m *migrate.Migrator) (bool, error) {
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return true, err
	}
	return len(ms.Unapplied()) > 0, nil
}

// lockMigrations takes the engine's migration lock and returns its release.
func (s *Store) lockMigrations(ctx context.Context) (func(), error) {
	if s.postgres {
		return s.advisoryLock(ctx)
	}
	if s.path == "" {
		return func() {}, nil // an in-memory database has no other process
	}
	fl := flock.New(s.path + ".migrate-lock")
	if _, err := fl.TryLockContext(ctx, 50*time.Millisecond); err != nil {
		return nil, err
	}
	return func() { _ = fl.Unlock() }, nil
}

// advisoryLock holds a Postgres session advisory lock, keyed by the schema,
// on a dedicated connection until the returned release.
func (s *Store) advisoryLock(ctx context.Context) (func(), error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte("agentfinance-toolkit-migrate:" + s.schema))
	key := int64(h.Sum64())
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", key); err != nil {
		conn.Close()
		return nil, err
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock(?)", key)
		conn.Close()
	}, nil
}

// sqlitePath returns the file of a SQLite DSN (a path or a file: URI), or
// "" for an in-memory database.
func sqlitePath(dsn string) string {
	p := strings.TrimPrefix(dsn, "file:")
	p, _, _ = strings.Cut(p, "?")
	if p == "" || p == ":memory:" || strings.HasPrefix(p, ":memory:") {
		return ""
	}
	return p
}
