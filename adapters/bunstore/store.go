package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore/migrations"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/migrate"
)

// defaultSQLiteConns is the SQLite pool size when Options.MaxOpenConns is
// not set.
const defaultSQLiteConns = 16

// Options tunes Open. Zero fields take defaults.
type Options struct {
	// MaxOpenConns bounds the connection pool, whose connections are all
	// kept open: on Postgres default 20 (Postgres allows 100 connections by
	// default and several servers may share it), on SQLite default 16.
	MaxOpenConns int
	// Schema, for Postgres, sets the search_path (tests use one schema each).
	Schema string
	// ChargeCommitters is how many batches of charges commit at once on
	// Postgres (default 1); SQLite always has one, its single writer.
	ChargeCommitters int
	// ChargeQueue bounds the charges waiting for a committer (default
	// 4096); beyond it Charge answers toolkit.Unavailable with a
	// Retry-After.
	ChargeQueue int
	// OnError, when set, is told about every query that fails for a
	// database fault (for metrics such as httpapi.Metrics.StoreError).
	OnError ErrorObserver
}

// Store is the Bun-backed store. It is safe for concurrent use.
type Store struct {
	db       *bun.DB
	postgres bool
	schema   string // Postgres search_path, when set
	path     string // SQLite file, "" for an in-memory database
	charges  *chargeBatcher
	feed     changeFeed // announces agent changes (changes.go)
}

// Open connects to dsn and migrates the schema. A dsn starting with
// "postgres://" or "postgresql://" selects PostgreSQL; anything else is a
// SQLite file path (or a "file:" URI), opened with WAL, a 10 s busy
// timeout, foreign keys on, temporary storage in memory and immediate transactions.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	var s *Store
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		var connOpts []pgdriver.Option
		if opts.Schema != "" {
			connOpts = append(connOpts, pgdriver.WithConnParams(map[string]any{"search_path": opts.Schema}))
		}
		connector, err := postgresConnector(dsn, connOpts...)
		if err != nil {
			return nil, fmt.Errorf("bunstore: %w", err)
		}
		sqldb := sql.OpenDB(connector)
		max := opts.MaxOpenConns
		if max <= 0 {
			max = 20
		}
		sqldb.SetMaxOpenConns(max)
		sqldb.SetMaxIdleConns(max)
		s = &Store{db: bun.NewDB(sqldb, pgdialect.New()).WithQueryHook(&connectionLossHook{db: sqldb, maxIdle: max}),
			postgres: true, schema: opts.Schema}
	} else {
		sqldb, err := openSQLite(dsn)
		if err != nil {
			return nil, err
		}
		// Connections are kept open: opening one (file, WAL index, pragmas)
		// costs more than most queries, and with database/sql's default of
		// two idle connections a loaded server opened and closed them for
		// nearly every call. Writes go through the one charge committer or
		// wait on the busy timeout, so the pool only bounds concurrent reads.
		max := opts.MaxOpenConns
		if max <= 0 {
			max = defaultSQLiteConns
		}
		sqldb.SetMaxOpenConns(max)
		sqldb.SetMaxIdleConns(max)
		s = &Store{db: bun.NewDB(sqldb, sqlitedialect.New()), path: sqlitePath(dsn)}
	}
	if err := s.connect(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("bunstore: connecting: %w", err)
	}

	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	if opts.OnError != nil { // after migrating: a first start probes for tables that do not exist yet
		s.db = s.db.WithQueryHook(errorHook{observe: opts.OnError})
	}
	s.startCharges(opts)
	return s, nil
}

// connect opens the first connection. A new SQLite file switches to WAL on
// its first connection, which another process opening the same new file at
// that moment sees as SQLITE_BUSY without waiting for the busy timeout:
// such a connection is retried for up to ten seconds.
func (s *Store) connect(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for wait := 5 * time.Millisecond; ; wait = min(wait*2, 200*time.Millisecond) {
		err := s.db.PingContext(ctx)
		if err == nil || s.postgres || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// startCharges starts the group commit of charges (see chargeBatcher).
func (s *Store) startCharges(opts Options) {
	queue := opts.ChargeQueue
	if queue <= 0 {
		queue = defaultChargeQueue
	}
	committers := 1
	if s.postgres {
		committers = opts.ChargeCommitters
		if committers <= 0 {
			committers = defaultPostgresCommitters
		}
	}
	s.charges = newChargeBatcher(queue, committers, s.commitCharges)
}

// Close waits for the batches of charges being committed (a charge still
// queued fails, uncharged) and closes the database.
func (s *Store) Close() error {
	s.charges.close()
	s.closeFeed()
	return s.db.Close()
}

// Ready reports whether the database answers and every migration is
// applied (for readiness probes): toolkit.Unavailable otherwise.
func (s *Store) Ready(ctx context.Context) error {
	const op = "bunstore.Ready"
	if err := s.db.PingContext(ctx); err != nil {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "the database is unavailable", Err: err}
	}
	ms, err := migrate.NewMigrator(s.db, migrations.Migrations).MigrationsWithStatus(ctx)
	if err != nil {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "the migration status cannot be read", Err: err}
	}
	if pending := ms.Unapplied(); len(pending) > 0 {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "database migrations are not applied",
			Err: fmt.Errorf("%d pending, first %s", len(pending), pending[0].Name)}
	}
	return nil
}
