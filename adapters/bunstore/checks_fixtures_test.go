package bunstore_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
)

// fixtureAt is the time every fixture row carries.
var fixtureAt = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// fixtureRows builds, for each table with CHECK constraints, a row that
// follows every rule; key makes its unique columns unique, and the row
// refers to the agent "agt_"+key (and the memory "mem_"+key) that
// insertParents stores.
var fixtureRows = map[string]func(key string) map[string]any{
	"agents": func(key string) map[string]any {
		return map[string]any{"id": "agt_own_" + key, "owner_id": "own_" + key, "name": "bot", "type": "trading",
			"mode": "sandbox", "created_at": fixtureAt, "authorized_instruments": "[]", "authorized_actions": "[]",
			"key_digest": "digest_own_" + key}
	},
	"balances": func(key string) map[string]any {
		return map[string]any{"agent_id": "agt_" + key, "micros": 5, "test_micros": 0, "updated_at": fixtureAt}
	},
	"ledger": func(key string) map[string]any {
		return map[string]any{"tx_id": "tx_" + key, "agent_id": "agt_" + key, "type": "deposit", "amount_micros": 5,
			"balance_after_micros": 5, "funds": "real", "created_at": fixtureAt}
	},
	"usage_totals": func(key string) map[string]any {
		return map[string]any{"agent_id": "agt_" + key, "operation": "risk_check", "call_count": 1, "total_micros": 5}
	},
	"spend_totals": func(key string) map[string]any {
		return map[string]any{"agent_id": "agt_" + key, "day_start": fixtureAt, "day_micros": 5, "month_start": fixtureAt,
			"month_micros": 5}
	},
	"spend_limits": func(key string) map[string]any {
		return map[string]any{"agent_id": "agt_" + key, "daily_micros": 5, "monthly_micros": 5, "version": 1}
	},
	"support_tickets": func(key string) map[string]any {
		return map[string]any{"id": "tkt_" + key, "agent_id": "agt_" + key, "subject": []byte("s"), "description": []byte("d"),
			"priority": "low", "category": "billing", "status": "open", "created_at": fixtureAt, "updated_at": fixtureAt}
	},
	"support_submissions": func(key string) map[string]any {
		return map[string]any{"id": "sub_" + key, "kind": "feedback", "agent_id": "agt_" + key, "status": "received",
			"content": []byte("c"), "created_at": fixtureAt}
	},
	"guardian_events": func(key string) map[string]any {
		return map[string]any{"id": "evt_" + key, "type": "auth_failure", "category": "authentication", "severity": "info",
			"description": "d", "agent_id": "agt_" + key, "source": "test", "event_count": 1, "created_at": fixtureAt,
			"last_at": fixtureAt, "verified": false}
	},
	"journal_trades": func(key string) map[string]any {
		return map[string]any{"id": "trd_" + key, "agent_id": "agt_" + key, "symbol_hash": []byte("h"), "labels": []byte("l"),
			"direction": "long", "entry_price": "1", "exit_price": "2", "quantity": "1", "r_multiple": 1.0, "r_derived": false,
			"pnl_micros": -5, "fees_micros": 0, "closed_at": fixtureAt, "recorded_at": fixtureAt}
	},
	"workspace_usage": func(key string) map[string]any {
		return map[string]any{"agent_id": "agt_" + key, "memory_count": 0, "memory_bytes": 0, "memory_terms": 0, "trade_count": 0}
	},
	"memories": func(key string) map[string]any {
		return map[string]any{"id": "mem_row_" + key, "agent_id": "agt_" + key, "category_hash": []byte("c"), "size_bytes": 0,
			"term_count": 0, "stored_at": fixtureAt, "content": []byte("x"), "category": []byte("c")}
	},
	"memory_terms": func(key string) map[string]any {
		return map[string]any{"memory_id": "mem_" + key, "term_hash": []byte("t"), "agent_id": "agt_" + key, "occurrences": 1}
	},
}

// insertParents stores what a fixture row keyed key refers to: the owners
// "own_"+key and "o_"+key, the agent "agt_"+key and its memory "mem_"+key.
func insertParents(ctx context.Context, db bun.IDB, key string) error {
	agent := map[string]any{"id": "agt_" + key, "owner_id": "o_" + key, "name": "bot", "type": "trading", "mode": "live",
		"created_at": fixtureAt, "authorized_instruments": "[]", "authorized_actions": "[]", "key_digest": "digest_" + key}
	memory := fixtureRows["memories"](key)
	memory["id"] = "mem_" + key
	return errors.Join(
		insertRow(ctx, db, "owners", map[string]any{"owner_id": "own_" + key, "created_at": fixtureAt}),
		insertRow(ctx, db, "owners", map[string]any{"owner_id": "o_" + key, "created_at": fixtureAt}),
		insertRow(ctx, db, "agents", agent),
		insertRow(ctx, db, "memories", memory),
	)
}

// insertRow inserts one row with raw SQL, columns in name order.
func insertRow(ctx context.Context, db bun.IDB, table string, row map[string]any) error {
	cols := slices.Sorted(maps.Keys(row))
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = row[c]
	}
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "),
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "))
	_, err := db.ExecContext(ctx, q, args...)
	return err
}

// fixtureRow is a valid row of table keyed key, with changes applied.
func fixtureRow(t *testing.T, table, key string, changes map[string]any) map[string]any {
	t.Helper()
	build, ok := fixtureRows[table]
	require.True(t, ok, "no fixture row for table %s", table)
	row := build(key)
	maps.Copy(row, changes)
	return row
}

// isCheckViolation reports whether err is the refusal of a CHECK
// constraint (SQLSTATE 23514 on Postgres, SQLITE_CONSTRAINT_CHECK).
func isCheckViolation(err error) bool {
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		return pg.Field('C') == "23514"
	}
	return err != nil && strings.Contains(err.Error(), "CHECK constraint failed")
}

// isForeignKeyError reports whether err is the refusal of a foreign key
// (SQLSTATE 23503 on Postgres, SQLITE_CONSTRAINT_FOREIGNKEY).
func isForeignKeyError(err error) bool {
	var pg pgdriver.Error
	if errors.As(err, &pg) {
		return pg.Field('C') == "23503"
	}
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// checkConstraintNames lists the CHECK constraints of the store's schema,
// read from the engine's catalog.
func checkConstraintNames(t *testing.T, db *bun.DB) []string {
	t.Helper()
	ctx := context.Background()
	var names []string
	if db.Dialect().Name().String() == "pg" {
		require.NoError(t, db.NewRaw(`SELECT conname FROM pg_constraint
			WHERE contype = 'c' AND connamespace = current_schema()::regnamespace ORDER BY conname`).Scan(ctx, &names))
		return names
	}
	var defs []string
	require.NoError(t, db.NewRaw(`SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL`).Scan(ctx, &defs))
	for _, def := range defs {
		for _, part := range strings.Split(def, `CONSTRAINT "`)[1:] {
			name, rest, _ := strings.Cut(part, `"`)
			if strings.HasPrefix(strings.TrimSpace(rest), "CHECK") {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return names
}
