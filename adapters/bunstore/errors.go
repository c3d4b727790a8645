package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
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
	return &toolkit.Error{Kind: toolkit.Internal, Op: op, Err: err}
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
	if errors.As(err, &ne) {
		return true
	}
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		code := pg.Field('C')
		// 08: connection exceptions; 57P01 admin shutdown; 57P03 cannot
		// connect now (starting up or shutting down); 53300 too many
		// connections.
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P03" || code == "53300"
	}
	return errors.Is(err, sql.ErrConnDone)
}

// isBusy reports SQLite's "database is locked" (SQLITE_BUSY, 5) and
// SQLITE_LOCKED (6): another connection holds the lock past the busy
// timeout. It is a passing condition, never the client's fault.
func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "(SQLITE_BUSY)") ||
		strings.Contains(msg, "(SQLITE_LOCKED)") || strings.Contains(msg, "database table is locked")
}
