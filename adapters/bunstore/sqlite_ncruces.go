//go:build !sqlite_modernc && !sqlite_mattn

package bunstore

import (
	"errors"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
)

// sqliteDriver is the database/sql driver of SQLite in this build:
// github.com/ncruces/go-sqlite3, SQLite translated to Go (no cgo).
const sqliteDriver = "sqlite3"

// sqliteDSN adds sqlitePragmas and immediate transactions to dsn.
func sqliteDSN(dsn string) string {
	return sqliteURI(dsn, append(pragmaParams(), "_txlock=immediate"))
}

// sqliteErrorCode returns the extended result code of a SQLite error (the
// driver returns *sqlite3.Error, or a bare code when SQLite gave no
// message).
func sqliteErrorCode(err error) (int, bool) {
	var e *sqlite3.Error
	var x sqlite3.ExtendedErrorCode
	var c sqlite3.ErrorCode
	switch {
	case errors.As(err, &e):
		return int(e.ExtendedCode()), true
	case errors.As(err, &x):
		return int(x), true
	case errors.As(err, &c):
		return int(c), true
	}
	return 0, false
}
