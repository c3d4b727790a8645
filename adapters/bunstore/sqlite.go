package bunstore

import (
	"database/sql"
	"fmt"
	"strings"
)

// sqlitePragmas are the settings of every SQLite connection, in the order
// they are applied (busy_timeout first: the others may wait on a lock).
// temp_store(memory) keeps statement journals (one per savepoint of a
// charge batch) in memory instead of temporary files: a third more
// metered calls per second.
var sqlitePragmas = []string{
	"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)", "temp_store(memory)",
}

// openSQLite opens the SQLite database of dsn (a path or a file: URI)
// with the driver this build links (see doc.go): sqlitePragmas on every
// connection and immediate transactions.
func openSQLite(dsn string) (*sql.DB, error) {
	db, err := sql.Open(sqliteDriver, sqliteDSN(dsn))
	if err != nil {
		return nil, fmt.Errorf("bunstore: opening sqlite: %w", err)
	}
	return db, nil
}

// OpenSQLiteDB opens the SQLite database at path (a path or a file: URI)
// as the store does: the driver this build links and the store's
// connection settings, without migrating anything. It is for programs and
// tests that read or repair a store's database directly; everything else
// goes through Open.
func OpenSQLiteDB(path string) (*sql.DB, error) { return openSQLite(path) }

// sqliteURI is dsn as a file: URI with extra query parameters.
func sqliteURI(dsn string, params []string) string {
	if !strings.HasPrefix(dsn, "file:") {
		dsn = "file:" + dsn
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + strings.Join(params, "&")
}

// pragmaParams are sqlitePragmas as the _pragma parameters of a URI.
func pragmaParams() []string {
	out := make([]string, len(sqlitePragmas))
	for i, p := range sqlitePragmas {
		out[i] = "_pragma=" + p
	}
	return out
}
