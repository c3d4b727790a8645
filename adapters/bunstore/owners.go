package bunstore

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

func (r ownerRow) owner() agents.Owner {
	o := agents.Owner{ID: r.OwnerID, CreatedAt: r.CreatedAt.UTC()}
	if r.KeyCreatedAt != nil {
		t := r.KeyCreatedAt.UTC()
		o.KeyCreatedAt = &t
	}
	return o
}

// OwnerByKeyHash implements agents.Store through the unique index on the
// owner key hash.
func (s *Store) OwnerByKeyHash(ctx context.Context, hash []byte) (agents.Owner, error) {
	const op = "bunstore.OwnerByKeyHash"
	if len(hash) == 0 {
		return agents.Owner{}, toolkit.Errorf(toolkit.NotFound, "no owner key")
	}
	var row ownerRow
	if err := s.db.NewSelect().Model(&row).Where("key_hash = ?", hex.EncodeToString(hash)).Scan(ctx); err != nil {
		return agents.Owner{}, translate(op, err)
	}
	return row.owner(), nil
}

// ReplaceOwnerKeyHash implements agents.Store: one UPDATE; the unique
// index refuses a hash another owner holds.
func (s *Store) ReplaceOwnerKeyHash(ctx context.Context, ownerID string, hash []byte, at time.Time) error {
	const op = "bunstore.ReplaceOwnerKeyHash"
	res, err := s.db.NewUpdate().Model((*ownerRow)(nil)).Set("key_hash = ?", hex.EncodeToString(hash)).
		Set("key_created_at = ?", at.UTC()).Where("owner_id = ?", ownerID).Exec(ctx)
	if err != nil {
		return translate(op, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return toolkit.Errorf(toolkit.NotFound, "owner %q not found", ownerID)
	}
	return nil
}

// ownerListRow is one owner with its agent counts.
type ownerListRow struct {
	ownerRow `bun:",extend"`
	Agents   int `bun:"agents"`
	Active   int `bun:"active"`
}

// ListOwners implements agents.Store: a keyset page over the owners'
// primary key, with the agents counted by the owner index.
func (s *Store) ListOwners(ctx context.Context, after string, limit int) ([]agents.OwnerSummary, error) {
	const op = "bunstore.ListOwners"
	var rows []ownerListRow
	err := s.db.NewSelect().Model(&rows).ModelTableExpr("owners AS o").
		ColumnExpr("o.owner_id, o.created_at, o.key_hash, o.key_created_at").
		ColumnExpr("(SELECT COUNT(*) FROM agents AS a WHERE a.owner_id = o.owner_id) AS agents").
		ColumnExpr("(SELECT COUNT(*) FROM agents AS a WHERE a.owner_id = o.owner_id AND a.mode IN (?, ?)) AS active",
			string(agents.ModeSandbox), string(agents.ModeLive)).
		Where("o.owner_id > ?", after).OrderExpr("o.owner_id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]agents.OwnerSummary, len(rows))
	for i, r := range rows {
		out[i] = agents.OwnerSummary{Owner: r.owner(), Agents: r.Agents, Active: r.Active}
	}
	return out, nil
}

// TouchKey implements agents.Store: one conditional UPDATE.
func (s *Store) TouchKey(ctx context.Context, id string, at, staleBefore time.Time) error {
	_, err := s.db.NewUpdate().Model((*agentRow)(nil)).Set("key_used_at = ?", at.UTC()).
		Where("id = ?", id).WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
		return q.Where("key_used_at IS NULL").WhereOr("key_used_at < ?", staleBefore.UTC())
	}).Exec(ctx)
	return translate("bunstore.TouchKey", err)
}

// dailyUsageRow is one (day, agent, operation) total.
type dailyUsageRow struct {
	Day       string `bun:"day"`
	AgentID   string `bun:"agent_id"`
	Operation string `bun:"operation"`
	Count     int64  `bun:"n"`
	Micros    int64  `bun:"micros"`
}

// DailyUsage implements billing.Store over the ledger's (agent_id, type,
// created_at) index, the day taken in UTC as text (stored times are UTC).
func (s *Store) DailyUsage(ctx context.Context, q billing.UsageQuery) ([]billing.DailyUsage, error) {
	const op = "bunstore.DailyUsage"
	day := "substr(created_at, 1, 10)"
	if s.postgres {
		day = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	var rows []dailyUsageRow
	err := s.db.NewSelect().Model((*ledgerRow)(nil)).
		ColumnExpr(day+" AS day").ColumnExpr("agent_id, operation, COUNT(*) AS n, SUM(-amount_micros) AS micros").
		Where("agent_id IN (?)", bun.List(q.AgentIDs)).Where("type = ?", billing.TypeConsumption).
		Where("created_at >= ?", q.From.UTC()).Where("created_at < ?", q.To.UTC()).
		GroupExpr("1, agent_id, operation").OrderExpr("1, agent_id, operation").Scan(ctx, &rows)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]billing.DailyUsage, len(rows))
	for i, r := range rows {
		d, err := time.Parse(time.DateOnly, r.Day)
		if err != nil {
			return nil, translate(op, err)
		}
		out[i] = billing.DailyUsage{Day: d, AgentID: r.AgentID, Operation: r.Operation, Count: r.Count, TotalMicros: r.Micros}
	}
	return out, nil
}
