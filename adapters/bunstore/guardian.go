package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/uptrace/bun"
)

var _ guardian.Store = (*Store)(nil)

type guardianEventRow struct {
	bun.BaseModel  `bun:"table:guardian_events"`
	ID             string     `bun:"id,pk"`
	Type           string     `bun:"type"`
	Category       string     `bun:"category"`
	Severity       string     `bun:"severity"`
	Description    string     `bun:"description"`
	AgentID        string     `bun:"agent_id"`
	Source         string     `bun:"source"`
	Count          int64      `bun:"event_count"`
	CreatedAt      time.Time  `bun:"created_at"`
	LastAt         time.Time  `bun:"last_at"`
	Details        *string    `bun:"details"`
	Verified       bool       `bun:"verified"`
	AcknowledgedAt *time.Time `bun:"acknowledged_at"`
}

type guardianMaintenanceRow struct {
	bun.BaseModel `bun:"table:guardian_maintenance"`
	ID            int64     `bun:"id,pk"`
	On            bool      `bun:"maintenance_on"`
	Message       string    `bun:"message"`
	ChangedAt     time.Time `bun:"changed_at"`
}

type guardianCounterRow struct {
	bun.BaseModel `bun:"table:guardian_counters"`
	Name          string    `bun:"name,pk"`
	Hour          time.Time `bun:"hour,pk"`
	Value         int64     `bun:"value"`
}

type rateBucketRow struct {
	bun.BaseModel `bun:"table:rate_buckets"`
	Key           string `bun:"bucket_key,pk"`
	TATMicros     int64  `bun:"tat_us"`
}

func toEventRow(e guardian.Event) guardianEventRow {
	r := guardianEventRow{
		ID: e.ID, Type: string(e.Type), Category: string(e.Category), Severity: string(e.Severity),
		Description: e.Description, AgentID: e.AgentID, Source: e.Source, Count: e.Count,
		CreatedAt: e.At.UTC(), LastAt: e.LastAt.UTC(), Verified: e.Verified,
	}
	if e.Details != nil {
		d := string(e.Details)
		r.Details = &d
	}
	if e.AcknowledgedAt != nil {
		t := e.AcknowledgedAt.UTC()
		r.AcknowledgedAt = &t
	}
	return r
}

func (r guardianEventRow) event() guardian.Event {
	e := guardian.Event{
		ID: r.ID, Type: guardian.Type(r.Type), Category: guardian.Category(r.Category), Severity: guardian.Severity(r.Severity),
		Description: r.Description, AgentID: r.AgentID, Source: r.Source, Count: r.Count,
		At: r.CreatedAt.UTC(), LastAt: r.LastAt.UTC(), Verified: r.Verified,
	}
	if r.Details != nil {
		e.Details = []byte(*r.Details)
	}
	if r.AcknowledgedAt != nil {
		t := r.AcknowledgedAt.UTC()
		e.AcknowledgedAt = &t
	}
	return e
}

// AddEvents implements guardian.Store.
func (s *Store) AddEvents(ctx context.Context, events []guardian.Event) error {
	if len(events) == 0 {
		return nil
	}
	rows := make([]guardianEventRow, len(events))
	for i, e := range events {
		rows[i] = toEventRow(e)
	}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		const batch = 200 // keeps each statement under the engines' parameter limits
		for i := 0; i < len(rows); i += batch {
			part := rows[i:min(i+batch, len(rows))]
			if _, err := tx.NewInsert().Model(&part).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	return translate("bunstore.AddEvents", err)
}

// ListEvents implements guardian.Store.
func (s *Store) ListEvents(ctx context.Context, q guardian.EventQuery) ([]guardian.Event, error) {
	var rows []guardianEventRow
	sel := s.db.NewSelect().Model(&rows)
	if q.Category != "" {
		sel = sel.Where("category = ?", string(q.Category))
	}
	if len(q.Severities) > 0 {
		sevs := make([]string, len(q.Severities))
		for i, v := range q.Severities {
			sevs[i] = string(v)
		}
		sel = sel.Where("severity IN (?)", bun.List(sevs))
	}
	if q.Unacknowledged {
		sel = sel.Where("acknowledged_at IS NULL")
	}
	if q.After != nil {
		at := q.After.At.UTC()
		sel = sel.Where("(created_at < ? OR (created_at = ? AND id < ?))", at, at, q.After.ID)
	}
	if err := sel.Order("created_at DESC", "id DESC").Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, translate("bunstore.ListEvents", err)
	}
	out := make([]guardian.Event, len(rows))
	for i, r := range rows {
		out[i] = r.event()
	}
	return out, nil
}

// AcknowledgeEvent implements guardian.Store.
func (s *Store) AcknowledgeEvent(ctx context.Context, id string, at time.Time) (guardian.Event, error) {
	var row guardianEventRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*guardianEventRow)(nil)).Set("acknowledged_at = ?", at.UTC()).
			Where("id = ?", id).Where("acknowledged_at IS NULL").Exec(ctx); err != nil {
			return err
		}
		return tx.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx)
	})
	if err != nil {
		return guardian.Event{}, translate("bunstore.AcknowledgeEvent", err)
	}
	return row.event(), nil
}

// CountEvents implements guardian.Store.
func (s *Store) CountEvents(ctx context.Context) (int64, error) {
	n, err := s.db.NewSelect().Model((*guardianEventRow)(nil)).Count(ctx)
	return int64(n), translate("bunstore.CountEvents", err)
}

// SetMaintenance implements guardian.Store.
func (s *Store) SetMaintenance(ctx context.Context, m guardian.Maintenance) error {
	row := guardianMaintenanceRow{ID: 1, On: m.On, Message: m.Message, ChangedAt: m.ChangedAt.UTC()}
	_, err := s.db.NewInsert().Model(&row).On("CONFLICT (id) DO UPDATE").
		Set("maintenance_on = EXCLUDED.maintenance_on").Set("message = EXCLUDED.message").
		Set("changed_at = EXCLUDED.changed_at").Exec(ctx)
	return translate("bunstore.SetMaintenance", err)
}

// Maintenance implements guardian.Store.
func (s *Store) Maintenance(ctx context.Context) (guardian.Maintenance, error) {
	var row guardianMaintenanceRow
	err := s.db.NewSelect().Model(&row).Where("id = 1").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return guardian.Maintenance{}, nil
	}
	if err != nil {
		return guardian.Maintenance{}, translate("bunstore.Maintenance", err)
	}
	return guardian.Maintenance{On: row.On, Message: row.Message, ChangedAt: row.ChangedAt.UTC()}, nil
}

// AddCounters implements guardian.Store.
func (s *Store) AddCounters(ctx context.Context, deltas []guardian.CounterDelta) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, d := range deltas {
			row := guardianCounterRow{Name: d.Name, Hour: d.Hour.UTC().Truncate(time.Hour), Value: d.Delta}
			if _, err := tx.NewInsert().Model(&row).On("CONFLICT (name, hour) DO UPDATE").
				Set("value = ?TableAlias.value + EXCLUDED.value").Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	return translate("bunstore.AddCounters", err)
}

// SumCounter implements guardian.Store.
func (s *Store) SumCounter(ctx context.Context, name string, since time.Time) (int64, error) {
	var sum int64
	err := s.db.NewSelect().Model((*guardianCounterRow)(nil)).ColumnExpr("COALESCE(SUM(value), 0)").
		Where("name = ?", name).Where("hour >= ?", since.UTC()).Scan(ctx, &sum)
	return sum, translate("bunstore.SumCounter", err)
}

// CountActiveAgents implements guardian.Store.
func (s *Store) CountActiveAgents(ctx context.Context) (int64, error) {
	n, err := s.db.NewSelect().Model((*agentRow)(nil)).
		Where("mode IN (?)", bun.List([]string{string(agents.ModeSandbox), string(agents.ModeLive)})).Count(ctx)
	return int64(n), translate("bunstore.CountActiveAgents", err)
}

// TakeRateToken implements guardian.Store with one conditional upsert, a
// transaction of its own: the row is written only when the request is
// allowed.
func (s *Store) TakeRateToken(ctx context.Context, req guardian.RateRequest) (guardian.RateState, error) {
	const op = "bunstore.TakeRateToken"
	greatest := "MAX" // SQLite's scalar max
	if s.postgres {
		greatest = "GREATEST"
	}
	now, interval, tolerance := req.Now.UnixMicro(), req.Interval.Microseconds(), req.Tolerance.Microseconds()
	query := fmt.Sprintf(`INSERT INTO rate_buckets (bucket_key, tat_us) VALUES (?, ?)
ON CONFLICT (bucket_key) DO UPDATE SET tat_us = %[1]s(rate_buckets.tat_us, ?) + ?
WHERE %[1]s(rate_buckets.tat_us, ?) + ? - ? <= ?
RETURNING tat_us`, greatest)
	var tat int64
	err := s.db.NewRaw(query, req.Key, now+interval, now, interval, now, interval, now, tolerance).Scan(ctx, &tat)
	if err == nil {
		return guardian.RateState{Allowed: true, TAT: time.UnixMicro(tat).UTC()}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return guardian.RateState{}, translate(op, err)
	}
	// Refused: nothing was written. The bucket's time, read after the
	// statement, only feeds Retry-After and the RateLimit-* headers.
	if err := s.db.NewSelect().Model((*rateBucketRow)(nil)).Column("tat_us").Where("bucket_key = ?", req.Key).Scan(ctx, &tat); err != nil {
		return guardian.RateState{}, translate(op, err)
	}
	return guardian.RateState{TAT: time.UnixMicro(tat).UTC()}, nil
}

// RateBucket implements guardian.Store.
func (s *Store) RateBucket(ctx context.Context, key string) (time.Time, error) {
	var tat int64
	err := s.db.NewSelect().Model((*rateBucketRow)(nil)).Column("tat_us").Where("bucket_key = ?", key).Scan(ctx, &tat)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, translate("bunstore.RateBucket", err)
	}
	return time.UnixMicro(tat).UTC(), nil
}

// PruneRateBuckets implements guardian.Store.
func (s *Store) PruneRateBuckets(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.NewDelete().Model((*rateBucketRow)(nil)).Where("tat_us < ?", before.UnixMicro()).Exec(ctx)
	if err != nil {
		return 0, translate("bunstore.PruneRateBuckets", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
