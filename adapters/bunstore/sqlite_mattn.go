//go:build sqlite_mattn && cgo

package bunstore

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// sqliteDriver is the database/sql driver of SQLite in builds tagged
// sqlite_mattn (cgo): github.com/mattn/go-sqlite3, registered with a hook
// that applies sqlitePragmas to every connection (its DSN has no generic
// pragma parameter).
const sqliteDriver = "bunstore_sqlite_mattn"

func init() {
	sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, p := range sqlitePragmas {
			name, value, _ := strings.Cut(strings.TrimSuffix(p, ")"), "(")
			if _, err := c.Exec("PRAGMA "+name+" = "+value, nil); err != nil {
				return err
			}
		}
		return nil
	}})
}

// sqliteDSN asks for immediate transactions; the hook sets the pragmas.
func sqliteDSN(dsn string) string {
	return sqliteURI(dsn, []string{"_txlock=immediate"})
}

// sqliteErrorCode returns the extended result code of a SQLite error.
func sqliteErrorCode(err error) (int, bool) {
	var e sqlite3.Error
	if errors.As(err, &e) {
		return int(e.ExtendedCode), true
	}
	return 0, false
}
