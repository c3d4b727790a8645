package bunstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// badRows are, for each CHECK constraint, rows that break it: a valid
// fixture row of the table with the listed changes.
var badRows = []struct {
	constraint, table string
	changes           []map[string]any
}{
	{"balances_micros_nonnegative", "balances", []map[string]any{{"micros": -1}}},
	{"balances_test_micros_nonnegative", "balances", []map[string]any{{"test_micros": -1}}},
	{"ledger_type_amount_sign", "ledger", []map[string]any{
		{"type": "refund"},
		{"type": "deposit", "amount_micros": -5},
		{"type": "deposit", "amount_micros": 0},
		{"type": "consumption", "amount_micros": 5},
		{"type": "consumption", "amount_micros": 0},
	}},
	{"ledger_balance_after_nonnegative", "ledger", []map[string]any{{"balance_after_micros": -1}}},
	{"ledger_funds_valid", "ledger", []map[string]any{{"funds": "free"}}},
	{"usage_totals_call_count_nonnegative", "usage_totals", []map[string]any{{"call_count": -1}}},
	{"usage_totals_total_micros_nonnegative", "usage_totals", []map[string]any{{"total_micros": -1}}},
	{"spend_totals_day_micros_nonnegative", "spend_totals", []map[string]any{{"day_micros": -1}}},
	{"spend_totals_month_micros_nonnegative", "spend_totals", []map[string]any{{"month_micros": -1}}},
	{"spend_limits_daily_micros_nonnegative", "spend_limits", []map[string]any{{"daily_micros": -1}}},
	{"spend_limits_monthly_micros_nonnegative", "spend_limits", []map[string]any{{"monthly_micros": -1}}},
	{"spend_limits_version_positive", "spend_limits", []map[string]any{{"version": 0}}},
	{"agents_mode_valid", "agents", []map[string]any{{"mode": "paused"}, {"mode": "Live"}}},
	{"agents_type_valid", "agents", []map[string]any{{"type": "robot"}}},
	{"support_tickets_status_valid", "support_tickets", []map[string]any{{"status": "pending"}}},
	{"support_tickets_priority_valid", "support_tickets", []map[string]any{{"priority": "critical"}}},
	{"support_tickets_category_valid", "support_tickets", []map[string]any{{"category": "sales"}}},
	{"support_submissions_kind_valid", "support_submissions", []map[string]any{{"kind": "praise"}}},
	{"support_submissions_status_valid", "support_submissions", []map[string]any{{"status": "open"}}},
	{"guardian_events_severity_valid", "guardian_events", []map[string]any{{"severity": "fatal"}}},
	{"guardian_events_count_positive", "guardian_events", []map[string]any{{"event_count": 0}}},
	{"journal_trades_direction_valid", "journal_trades", []map[string]any{{"direction": "flat"}}},
	{"journal_trades_fees_micros_nonnegative", "journal_trades", []map[string]any{{"fees_micros": -1}}},
	{"workspace_usage_memory_count_nonnegative", "workspace_usage", []map[string]any{{"memory_count": -1}}},
	{"workspace_usage_memory_bytes_nonnegative", "workspace_usage", []map[string]any{{"memory_bytes": -1}}},
	{"workspace_usage_memory_terms_nonnegative", "workspace_usage", []map[string]any{{"memory_terms": -1}}},
	{"workspace_usage_trade_count_nonnegative", "workspace_usage", []map[string]any{{"trade_count": -1}}},
	{"memories_size_bytes_nonnegative", "memories", []map[string]any{{"size_bytes": -1}}},
	{"memories_term_count_nonnegative", "memories", []map[string]any{{"term_count": -1}}},
	{"memory_terms_occurrences_positive", "memory_terms", []map[string]any{{"occurrences": 0}}},
}

// TestCheckConstraintsRefuseBadRows: on both engines, each CHECK
// constraint refuses a row that breaks it, inserted with raw SQL and
// naming the constraint, while the same row with valid values is stored;
// and every CHECK constraint of the schema has its case here.
func TestCheckConstraintsRefuseBadRows(t *testing.T) {
	onEachEngine(t, func(t *testing.T, s *bunstore.Store) {
		ctx := context.Background()
		db := s.DB()
		var tested []string
		for i, c := range badRows {
			tested = append(tested, c.constraint)
			good := fmt.Sprintf("%d_good", i)
			require.NoError(t, insertParents(ctx, db, good))
			require.NoError(t, insertRow(ctx, db, c.table, fixtureRow(t, c.table, good, nil)), "%s: the valid row", c.constraint)
			for j, changes := range c.changes {
				bad := fmt.Sprintf("%d_bad%d", i, j)
				require.NoError(t, insertParents(ctx, db, bad))
				err := insertRow(ctx, db, c.table, fixtureRow(t, c.table, bad, changes))
				assert.True(t, isCheckViolation(err), "%s %v: want a CHECK violation, got %v", c.constraint, changes, err)
				assert.ErrorContains(t, err, c.constraint, "%v", changes)
			}
		}
		slices.Sort(tested)
		assert.Equal(t, tested, checkConstraintNames(t, db), "every CHECK constraint has a bad row here")
	})
}

// TestCheckConstraintsAcceptDomainValues: every value the domain packages
// define for a column with a closed set (agent modes and types, ticket
// states, priorities and categories, submission kinds, severities, ledger
// types and funds, trade directions) is accepted on both engines, so a
// value added in Go without a migration fails here.
func TestCheckConstraintsAcceptDomainValues(t *testing.T) {
	cases := []struct {
		table, column string
		values        []string
		changes       map[string]any
	}{
		{"agents", "mode", enumStrings(agents.Modes()), nil},
		{"agents", "type", enumStrings(agents.Types()), nil},
		{"support_tickets", "status", enumStrings(support.Statuses), nil},
		{"support_tickets", "priority", support.Priorities, nil},
		{"support_tickets", "category", support.TicketCategories, nil},
		{"support_submissions", "kind", enumStrings(support.Kinds), nil},
		{"support_submissions", "status", []string{support.StatusReceived}, nil},
		{"guardian_events", "severity", enumStrings(guardian.Severities), nil},
		{"ledger", "funds", enumStrings([]billing.Funds{billing.FundsReal, billing.FundsTest}), nil},
		{"ledger", "type", []string{billing.TypeDeposit}, map[string]any{"amount_micros": 5}},
		{"ledger", "type", []string{billing.TypeConsumption}, map[string]any{"amount_micros": -5}},
		{"journal_trades", "direction", []string{workspace.Long, workspace.Short}, nil},
	}
	onEachEngine(t, func(t *testing.T, s *bunstore.Store) {
		ctx := context.Background()
		for i, c := range cases {
			for j, v := range c.values {
				key := fmt.Sprintf("%d_%d", i, j)
				require.NoError(t, insertParents(ctx, s.DB(), key))
				row := fixtureRow(t, c.table, key, c.changes)
				row[c.column] = v
				assert.NoError(t, insertRow(ctx, s.DB(), c.table, row), "%s.%s = %q", c.table, c.column, v)
			}
		}
	})
}

// enumStrings converts a list of string-based enum values.
func enumStrings[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
