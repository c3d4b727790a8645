package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/uptrace/bun/driver/pgdriver"
)

// databaseRetryAfter is the Retry-After of a database that is busy,
// starting up or unreachable.
const databaseRetryAfter = time.Second

// translate maps driver errors to toolkit kinds at the adapter's edge.
func translate(op string, err error) error {
	if err == nil {
		return nil
	}
	var te *toolkit.Error
	switch {
	case errors.As(err, &te):
		return err
	case errors.Is(err, sql.ErrNoRows):
		return &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "not found", Err: err}
	case isUniqueViolation(err):
		return &toolkit.Error{Kind: toolkit.Conflict, Op: op, Msg: "already exists", Err: err}
	case isForeignKeyViolation(err):
		// The row refers to an agent (or owner) that does not exist.
		return &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "not found", Err: err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "the database is unavailable; retry later", Err: err}
	case isConnectionError(err), isBusy(err):
		// A passing condition of the database: the client may retry soon.
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "the database is unavailable; retry later", Err: err,
			RetryAfter: databaseRetryAfter}
	}
	if f, ok := asStorageFault(err); ok {
		// The database cannot write until an operator frees space or makes
		// it writable: never the client's fault, nor a bug.
		msg := "the database is read-only; writes are refused until it is writable again, retry later"
		if f.full {
			msg = "the database's disk is full; writes are refused until space is freed, retry later"
		}
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: msg, Err: f, RetryAfter: storageFaultRetryAfter}
	}
	return &toolkit.Error{Kind: toolkit.Internal, Op: op, Err: err}
}

// storageFaultRetryAfter is the Retry-After of a write refused by a full
// or read-only database: an operator has to act first.
const storageFaultRetryAfter = 30 * time.Second

// storageFault is a driver error of a database that cannot write: its
// disk (or size limit) is full, or it is read-only. It implements
// guardian.StorageFault, so the request's transport records the event.
type storageFault struct {
	full bool
	err  error
}

var _ guardian.StorageFault = (*storageFault)(nil)

func (f *storageFault) Error() string {
	if f.full {
		return "disk full: " + f.err.Error()
	}
	return "read-only database: " + f.err.Error()
}

func (f *storageFault) Unwrap() error { return f.err }

// DiskFull implements guardian.StorageFault.
func (f *storageFault) DiskFull() bool { return f.full }

// asStorageFault recognizes Postgres's disk_full (53100) and
// read_only_sql_transaction (25006), and SQLite's SQLITE_FULL (13) and
// SQLITE_READONLY (8, and its extended codes).
func asStorageFault(err error) (*storageFault, bool) {
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		if full, ok := pgStorageFault(pg.Field('C')); ok {
			return &storageFault{full: full, err: err}, true
		}
		return nil, false
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "(SQLITE_FULL)"):
		return &storageFault{full: true, err: err}, true
	case strings.Contains(msg, "attempt to write a readonly database") || strings.Contains(msg, "(SQLITE_READONLY"):
		return &storageFault{full: false, err: err}, true
	}
	return nil, false
}

// pgStorageFault classifies a Postgres SQLSTATE: disk_full (53100) and
// read_only_sql_transaction (25006, a hot standby or a read-only
// default).
func pgStorageFault(code string) (full, ok bool) {
	switch code {
	case "53100":
		return true, true
	case "25006":
		return false, true
	}
	return false, false
}

func isUniqueViolation(err error) bool {
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		return pg.Field('C') == "23505"
	}
	// modernc reports SQLITE_CONSTRAINT_UNIQUE (2067) / PRIMARYKEY (1555) in its text.
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "(2067)") || strings.Contains(msg, "(1555)")
}

func isForeignKeyViolation(err error) bool {
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		return pg.Field('C') == "23503"
	}
	// modernc reports SQLITE_CONSTRAINT_FOREIGNKEY (787) in its text.
	msg := err.Error()
	return strings.Contains(msg, "FOREIGN KEY constraint failed") || strings.Contains(msg, "(787)")
}

func isConnectionError(err error) bool {
	if _, ok := sqliteErrorCode(err); ok {
		return false // SQLite runs in process: no connection to lose (some drivers' errors are net.Errors)
	}
	var ne net.Error
	var noHost *noHostError
	if errors.As(err, &ne) || errors.As(err, &noHost) {
		return true
	}
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		code := pg.Field('C')
		// 08: connection exceptions; 57P01 admin shutdown; 57P02 crash
		// shutdown; 57P03 cannot connect now (starting up or shutting
		// down); 53300 too many connections.
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	// A server that went away without a word (killed, crashed, or an
	// immediate shutdown) leaves pgdriver reading EOF on its connection.
	return errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// isBusy reports SQLite's "database is locked" (SQLITE_BUSY, 5) and
// SQLITE_LOCKED (6): another connection holds the lock past the busy
// timeout. It is a passing condition, never the client's fault.
func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "(SQLITE_BUSY)") ||
		strings.Contains(msg, "(SQLITE_LOCKED)") || strings.Contains(msg, "database table is locked")
}
