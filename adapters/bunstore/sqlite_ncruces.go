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

// sqliteErrorCode returns the extended result code of a SQLite error.
func sqliteErrorCode(err error) (int, bool) {
	var e *sqlite3.Error
	if errors.As(err, &e) {
		return int(e.ExtendedCode()), true
	}
	return 0, false
}
