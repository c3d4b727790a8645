package bunstore

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
	"github.com/uptrace/bun"
)

var _ support.Store = (*Store)(nil)

type supportTicketRow struct {
	bun.BaseModel `bun:"table:support_tickets"`
	Seq           int64     `bun:"seq,pk,autoincrement"`
	ID            string    `bun:"id"`
	AgentID       string    `bun:"agent_id"`
	Subject       []byte    `bun:"subject"`
	Description   []byte    `bun:"description"`
	Priority      string    `bun:"priority"`
	Category      string    `bun:"category"`
	Status        string    `bun:"status"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

type supportSubmissionRow struct {
	bun.BaseModel `bun:"table:support_submissions"`
	ID            string    `bun:"id,pk"`
	Kind          string    `bun:"kind"`
	AgentID       string    `bun:"agent_id"`
	Status        string    `bun:"status"`
	Content       []byte    `bun:"content"`
	CreatedAt     time.Time `bun:"created_at"`
}

func (r supportTicketRow) record() support.TicketRecord {
	return support.TicketRecord{
		ID: r.ID, Number: r.Seq, AgentID: r.AgentID, Subject: r.Subject, Description: r.Description,
		Priority: r.Priority, Category: r.Category, Status: support.Status(r.Status),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

func (r supportSubmissionRow) record() support.SubmissionRecord {
	return support.SubmissionRecord{
		ID: r.ID, Kind: support.Kind(r.Kind), AgentID: r.AgentID, Status: r.Status, Content: r.Content,
		CreatedAt: r.CreatedAt.UTC(),
	}
}

// CreateTicket implements support.Store. The number comes from the
// table's autoincrement key (a sequence on Postgres), so concurrent
// writers never share one.
func (s *Store) CreateTicket(ctx context.Context, t support.TicketRecord) (support.TicketRecord, error) {
	row := supportTicketRow{
		ID: t.ID, AgentID: t.AgentID, Subject: t.Subject, Description: t.Description, Priority: t.Priority,
		Category: t.Category, Status: string(t.Status), CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC(),
	}
	if _, err := s.db.NewInsert().Model(&row).Returning("seq").Exec(ctx); err != nil {
		return support.TicketRecord{}, translate("bunstore.CreateTicket", err)
	}
	return row.record(), nil
}

// TicketByNumber implements support.Store.
func (s *Store) TicketByNumber(ctx context.Context, number int64) (support.TicketRecord, error) {
	var row supportTicketRow
	if err := s.db.NewSelect().Model(&row).Where("seq = ?", number).Scan(ctx); err != nil {
		return support.TicketRecord{}, translate("bunstore.TicketByNumber", err)
	}
	return row.record(), nil
}

// Tickets implements support.Store.
func (s *Store) Tickets(ctx context.Context, q support.TicketQuery) ([]support.TicketRecord, error) {
	var rows []supportTicketRow
	sel := s.db.NewSelect().Model(&rows).ExcludeColumn("description")
	if q.AgentID != "" {
		sel = sel.Where("agent_id = ?", q.AgentID)
	}
	if q.Status != "" {
		sel = sel.Where("status = ?", string(q.Status))
	}
	err := newestFirst(sel, q.After, q.Limit).Scan(ctx)
	if err != nil {
		return nil, translate("bunstore.Tickets", err)
	}
	out := make([]support.TicketRecord, len(rows))
	for i, r := range rows {
		out[i] = r.record()
	}
	return out, nil
}

// SetTicketStatus implements support.Store: one conditional UPDATE on the
// allowed source states, then a read of the row, in one transaction.
func (s *Store) SetTicketStatus(ctx context.Context, c support.StatusChange) (support.TicketRecord, bool, error) {
	from := make([]string, len(c.From))
	for i, f := range c.From {
		from[i] = string(f)
	}
	var row supportTicketRow
	var changed bool
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if len(from) > 0 {
			res, err := tx.NewUpdate().Model((*supportTicketRow)(nil)).
				Set("status = ?", string(c.To)).Set("updated_at = ?", c.At.UTC()).
				Where("seq = ?", c.Number).Where("status IN (?)", bun.List(from)).Exec(ctx)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			changed = n > 0
		}
		return tx.NewSelect().Model(&row).Where("seq = ?", c.Number).Scan(ctx)
	})
	if err != nil {
		return support.TicketRecord{}, false, translate("bunstore.SetTicketStatus", err)
	}
	return row.record(), changed, nil
}

// CreateSubmission implements support.Store.
func (s *Store) CreateSubmission(ctx context.Context, sub support.SubmissionRecord) error {
	row := supportSubmissionRow{
		ID: sub.ID, Kind: string(sub.Kind), AgentID: sub.AgentID, Status: sub.Status, Content: sub.Content,
		CreatedAt: sub.CreatedAt.UTC(),
	}
	_, err := s.db.NewInsert().Model(&row).Exec(ctx)
	return translate("bunstore.CreateSubmission", err)
}

// Submissions implements support.Store.
func (s *Store) Submissions(ctx context.Context, q support.SubmissionQuery) ([]support.SubmissionRecord, error) {
	var rows []supportSubmissionRow
	sel := s.db.NewSelect().Model(&rows)
	if q.Kind != "" {
		sel = sel.Where("kind = ?", string(q.Kind))
	}
	if q.AgentID != "" {
		sel = sel.Where("agent_id = ?", q.AgentID)
	}
	if err := newestFirst(sel, q.After, q.Limit).Scan(ctx); err != nil {
		return nil, translate("bunstore.Submissions", err)
	}
	out := make([]support.SubmissionRecord, len(rows))
	for i, r := range rows {
		out[i] = r.record()
	}
	return out, nil
}

// newestFirst orders a list by (created_at, id) descending, continues
// strictly after a position (keyset pagination) and keeps up to limit
// rows (every row when limit <= 0). Times are compared as
// stored: timestamptz on Postgres, fixed-format UTC text on SQLite (bun
// writes "2006-01-02 15:04:05.999999+00:00", which sorts as time does).
func newestFirst(q *bun.SelectQuery, after *toolkit.Cursor, limit int) *bun.SelectQuery {
	if after != nil {
		at := after.At.UTC()
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("created_at < ?", at).WhereOr("created_at = ? AND id < ?", at, after.ID)
		})
	}
	q = q.Order("created_at DESC", "id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	return q
}
