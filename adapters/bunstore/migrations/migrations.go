// Package migrations holds the schema migrations of adapters/bunstore. They
// are compiled in and run when a store opens. Each migration carries its
// own copies of the row structs, so later model changes never alter history.
package migrations

import "github.com/uptrace/bun/migrate"

// Migrations is the ordered set of migrations, registered by file name
// (YYYYMMDDhhmmss_name.go).
var Migrations = migrate.NewMigrations()
