//go:build sqlite_modernc

package bunstore

import (
	"errors"

	"modernc.org/sqlite" // registers "sqlite"
)

// sqliteDriver is the database/sql driver of SQLite in builds tagged
// sqlite_modernc: modernc.org/sqlite, SQLite's C translated to Go (no cgo).
const sqliteDriver = "sqlite"

// sqliteDSN adds sqlitePragmas and immediate transactions to dsn.
func sqliteDSN(dsn string) string {
	return sqliteURI(dsn, append(pragmaParams(), "_txlock=immediate"))
}

// sqliteErrorCode returns the extended result code of a SQLite error.
func sqliteErrorCode(err error) (int, bool) {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}
