package migrations

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// rebuildSQLiteTables changes the definition of SQLite tables the way
// SQLite's documentation prescribes for what ALTER TABLE cannot do (such
// as adding a CHECK constraint): for each table, edit turns its CREATE
// TABLE statement, as sqlite_schema keeps it, into the new one; the rows
// are copied into a table of that definition, which then replaces the old
// one under its name; the table's indexes and triggers are created again
// and its AUTOINCREMENT counter kept.
//
// Everything runs in one transaction on one connection whose foreign keys
// are off (dropping a parent table would otherwise cascade to its
// children): every table is rebuilt or none. PRAGMA foreign_key_check
// must find nothing before the commit. The connection is discarded if its
// foreign keys cannot be turned back on.
func rebuildSQLiteTables(ctx context.Context, db *bun.DB, tables []string, edit func(table, create string) (string, error)) (err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() {
		_, onErr := conn.ExecContext(context.Background(), "PRAGMA foreign_keys = ON")
		if onErr != nil {
			// Never hand the pool a connection without foreign keys.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
		err = errors.Join(err, onErr)
	}()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	return conn.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, table := range tables {
			if err := rebuildSQLiteTable(ctx, tx, table, edit); err != nil {
				return fmt.Errorf("rebuilding table %s: %w", table, err)
			}
		}
		return foreignKeyCheck(ctx, tx)
	})
}

// rebuildSQLiteTable rebuilds one table (see rebuildSQLiteTables).
func rebuildSQLiteTable(ctx context.Context, tx bun.Tx, table string, edit func(table, create string) (string, error)) error {
	var create string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&create); err != nil {
		return err
	}
	extras, err := schemaObjectsOf(ctx, tx, table)
	if err != nil {
		return err
	}
	seq, err := autoincrementOf(ctx, tx, table)
	if err != nil {
		return err
	}
	next, err := edit(table, create)
	if err != nil {
		return err
	}
	tmp := table + "_rebuilt"
	next, err = renameCreate(next, table, tmp)
	if err != nil {
		return err
	}
	steps := []string{
		next,
		fmt.Sprintf(`INSERT INTO %q SELECT * FROM %q`, tmp, table),
		fmt.Sprintf(`DROP TABLE %q`, table),
		fmt.Sprintf(`ALTER TABLE %q RENAME TO %q`, tmp, table),
	}
	for _, q := range append(steps, extras...) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if seq.Valid { // the copy set the counter to the largest key; keep a larger one
		_, err = tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?`, seq.Int64, table)
	}
	return err
}

// schemaObjectsOf returns the statements creating the indexes and triggers
// of table (the automatic indexes of its keys come with the table).
func schemaObjectsOf(ctx context.Context, tx bun.Tx, table string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT sql FROM sqlite_master
		WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// autoincrementOf returns the AUTOINCREMENT counter of table, if it has one.
func autoincrementOf(ctx context.Context, tx bun.Tx, table string) (sql.NullInt64, error) {
	var seq sql.NullInt64
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).Scan(&n)
	if err != nil || n == 0 {
		return seq, err
	}
	err = tx.QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = ?`, table).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return seq, nil
	}
	return seq, err
}

// renameCreate makes a CREATE TABLE statement of table create a table
// named to instead.
func renameCreate(create, table, to string) (string, error) {
	for _, prefix := range []string{`CREATE TABLE "` + table + `"`, "CREATE TABLE " + table + " ", "CREATE TABLE " + table + "("} {
		if rest, ok := strings.CutPrefix(create, prefix); ok {
			suffix := prefix[len(prefix)-1:]
			if suffix == `"` {
				suffix = ""
			}
			return `CREATE TABLE "` + to + `"` + suffix + rest, nil
		}
	}
	return "", fmt.Errorf("unexpected definition of %s: %.60s", table, create)
}

// withConstraint adds a named CHECK constraint as the last table
// constraint of a CREATE TABLE statement, unless it is already there.
func withConstraint(create, name, expr string) string {
	clause := constraintClause(name, expr)
	if strings.Contains(create, clause) {
		return create
	}
	i := strings.LastIndexByte(create, ')')
	if i < 0 {
		return create
	}
	return create[:i] + clause + create[i:]
}

// withoutConstraint removes a constraint added by withConstraint.
func withoutConstraint(create, name, expr string) string {
	return strings.Replace(create, constraintClause(name, expr), "", 1)
}

// constraintClause is the text withConstraint adds for a constraint.
func constraintClause(name, expr string) string {
	return fmt.Sprintf(`, CONSTRAINT %q CHECK (%s)`, name, expr)
}

// foreignKeyCheck fails when any row refers to a row that does not exist.
func foreignKeyCheck(ctx context.Context, tx bun.Tx) error {
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table string
		var rowid sql.NullInt64
		var parent string
		var fkid int
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return err
		}
		return fmt.Errorf("a row of %s refers to a missing row of %s", table, parent)
	}
	return rows.Err()
}
