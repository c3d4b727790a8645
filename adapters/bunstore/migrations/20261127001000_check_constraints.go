package migrations

import (
	"context"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// check27 is one CHECK constraint: the rule a column's values follow,
// named <table>_<column>_<rule> so a refusal names what broke.
type check27 struct {
	table, name, expr string
}

// checks27 are the business rules the schema guards, copied here (not
// read from the domain packages) so this migration never changes: the
// store's tests hold the domain's enums to them, and a new value needs a
// new migration.
var checks27 = []check27{
	// Money: balances never go below zero; a deposit adds, a consumption
	// takes away; usage and spend totals only grow within their window.
	{"balances", "balances_micros_nonnegative", "micros >= 0"},
	{"balances", "balances_test_micros_nonnegative", "test_micros >= 0"},
	{"ledger", "ledger_type_amount_sign", "(type = 'deposit' AND amount_micros > 0) OR (type = 'consumption' AND amount_micros < 0)"},
	{"ledger", "ledger_balance_after_nonnegative", "balance_after_micros >= 0"},
	{"ledger", "ledger_funds_valid", "funds IN ('real', 'test')"},
	{"usage_totals", "usage_totals_call_count_nonnegative", "call_count >= 0"},
	{"usage_totals", "usage_totals_total_micros_nonnegative", "total_micros >= 0"},
	{"spend_totals", "spend_totals_day_micros_nonnegative", "day_micros >= 0"},
	{"spend_totals", "spend_totals_month_micros_nonnegative", "month_micros >= 0"},
	{"spend_limits", "spend_limits_daily_micros_nonnegative", "daily_micros >= 0"},
	{"spend_limits", "spend_limits_monthly_micros_nonnegative", "monthly_micros >= 0"},
	{"spend_limits", "spend_limits_version_positive", "version >= 1"},
	// Closed sets of values.
	{"agents", "agents_mode_valid", "mode IN ('sandbox', 'live', 'suspended', 'terminated')"},
	{"agents", "agents_type_valid", "type IN ('trading', 'analysis', 'risk', 'composite')"},
	{"support_tickets", "support_tickets_status_valid", "status IN ('open', 'in_progress', 'resolved', 'closed')"},
	{"support_tickets", "support_tickets_priority_valid", "priority IN ('low', 'medium', 'high', 'urgent')"},
	{"support_tickets", "support_tickets_category_valid",
		"category IN ('billing', 'connectivity', 'tool_error', 'broker', 'account', 'other')"},
	{"support_submissions", "support_submissions_kind_valid", "kind IN ('feedback', 'suggestion', 'enterprise', 'bug')"},
	{"support_submissions", "support_submissions_status_valid", "status IN ('received')"},
	{"guardian_events", "guardian_events_severity_valid", "severity IN ('info', 'warning', 'critical', 'emergency')"},
	{"guardian_events", "guardian_events_count_positive", "event_count >= 1"},
	{"journal_trades", "journal_trades_direction_valid", "direction IN ('long', 'short')"},
	{"journal_trades", "journal_trades_fees_micros_nonnegative", "fees_micros >= 0"},
	// Counters of the workspace.
	{"workspace_usage", "workspace_usage_memory_count_nonnegative", "memory_count >= 0"},
	{"workspace_usage", "workspace_usage_memory_bytes_nonnegative", "memory_bytes >= 0"},
	{"workspace_usage", "workspace_usage_memory_terms_nonnegative", "memory_terms >= 0"},
	{"workspace_usage", "workspace_usage_trade_count_nonnegative", "trade_count >= 0"},
	{"memories", "memories_size_bytes_nonnegative", "size_bytes >= 0"},
	{"memories", "memories_term_count_nonnegative", "term_count >= 0"},
	{"memory_terms", "memory_terms_occurrences_positive", "occurrences >= 1"},
}

// CHECK constraints on both engines. Postgres adds each NOT VALID (a brief
// lock, no scan) and then validates it, which scans the table without
// blocking writes. SQLite cannot add a constraint to a table, so each
// table is rebuilt with its constraints (see rebuildSQLiteTables): the
// rows, indexes, triggers and AUTOINCREMENT counter are kept. A row that
// breaks a rule makes the migration fail, naming the constraint, and
// nothing changes.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name() == dialect.PG {
			return addChecksPG(ctx, db, checks27)
		}
		return rebuildSQLiteTables(ctx, db, tablesOf(checks27), func(table, create string) (string, error) {
			for _, c := range checks27 {
				if c.table == table {
					create = withConstraint(create, c.name, c.expr)
				}
			}
			return create, nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name() == dialect.PG {
			return dropChecksPG(ctx, db, checks27)
		}
		return rebuildSQLiteTables(ctx, db, tablesOf(checks27), func(table, create string) (string, error) {
			for _, c := range checks27 {
				if c.table == table {
					create = withoutConstraint(create, c.name, c.expr)
				}
			}
			return create, nil
		})
	})
}

// addChecksPG adds the constraints NOT VALID in one transaction (dropping
// any left by an earlier attempt), then validates each. When a row breaks
// one, the constraints are dropped again and the error names it.
func addChecksPG(ctx context.Context, db *bun.DB, checks []check27) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, c := range checks {
			q := fmt.Sprintf(`ALTER TABLE %q DROP CONSTRAINT IF EXISTS %q, ADD CONSTRAINT %q CHECK (%s) NOT VALID`,
				c.table, c.name, c.name, c.expr)
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range checks {
		if _, err := db.ExecContext(ctx, fmt.Sprintf(`ALTER TABLE %q VALIDATE CONSTRAINT %q`, c.table, c.name)); err != nil {
			return errors.Join(err, dropChecksPG(context.WithoutCancel(ctx), db, checks))
		}
	}
	return nil
}

// dropChecksPG drops the constraints, in one transaction.
func dropChecksPG(ctx context.Context, db *bun.DB, checks []check27) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, c := range checks {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`ALTER TABLE %q DROP CONSTRAINT IF EXISTS %q`, c.table, c.name)); err != nil {
				return err
			}
		}
		return nil
	})
}

// tablesOf lists the tables of checks, each once, in order.
func tablesOf(checks []check27) []string {
	var tables []string
	seen := map[string]bool{}
	for _, c := range checks {
		if !seen[c.table] {
			seen[c.table] = true
			tables = append(tables, c.table)
		}
	}
	return tables
}
