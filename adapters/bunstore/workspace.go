package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/uptrace/bun"
)

var _ workspace.Store = (*Store)(nil)

type workspaceUsageRow struct {
	bun.BaseModel `bun:"table:workspace_usage,alias:wu"`
	AgentID       string `bun:"agent_id,pk"`
	MemoryCount   int64  `bun:"memory_count"`
	MemoryBytes   int64  `bun:"memory_bytes"`
	MemoryTerms   int64  `bun:"memory_terms"`
	TradeCount    int64  `bun:"trade_count"`
}

type memoryRow struct {
	bun.BaseModel `bun:"table:memories,alias:m"`
	ID            string    `bun:"id,pk"`
	AgentID       string    `bun:"agent_id"`
	Content       []byte    `bun:"content"`
	Category      []byte    `bun:"category"`
	CategoryHash  []byte    `bun:"category_hash"`
	Metadata      []byte    `bun:"metadata"`
	SizeBytes     int64     `bun:"size_bytes"`
	TermCount     int64     `bun:"term_count"`
	StoredAt      time.Time `bun:"stored_at"`
}

type memoryTermRow struct {
	bun.BaseModel `bun:"table:memory_terms,alias:t"`
	MemoryID      string `bun:"memory_id,pk"`
	TermHash      []byte `bun:"term_hash,pk"`
	AgentID       string `bun:"agent_id"`
	Occurrences   int64  `bun:"occurrences"`
}

// postingsPerInsert bounds the rows of one INSERT of postings.
const postingsPerInsert = 500

func (r memoryRow) record() workspace.MemoryRecord {
	return workspace.MemoryRecord{ID: r.ID, AgentID: r.AgentID, Content: r.Content, Category: r.Category,
		CategoryHash: r.CategoryHash, Metadata: r.Metadata, Bytes: r.SizeBytes, Length: r.TermCount, StoredAt: r.StoredAt.UTC()}
}

// ensureUsage creates the agent's usage row if it has none (a missing
// agent fails on the foreign key: NotFound).
func ensureUsage(ctx context.Context, tx bun.Tx, agentID string) error {
	_, err := tx.NewInsert().Model(&workspaceUsageRow{AgentID: agentID}).On("CONFLICT (agent_id) DO NOTHING").Exec(ctx)
	return err
}

// AddMemory implements workspace.Store: a conditional UPDATE of the usage
// row takes the quota (and the row lock), then the memory and its
// postings are inserted, in one transaction.
func (s *Store) AddMemory(ctx context.Context, m workspace.MemoryRecord, q workspace.MemoryQuota) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := ensureUsage(ctx, tx, m.AgentID); err != nil {
			return err
		}
		var count int64
		err := tx.NewUpdate().Model((*workspaceUsageRow)(nil)).
			Set("memory_count = memory_count + 1").Set("memory_bytes = memory_bytes + ?", m.Bytes).
			Set("memory_terms = memory_terms + ?", m.Length).
			Where("agent_id = ?", m.AgentID).Where("memory_count < ?", q.MaxCount).Where("memory_bytes + ? <= ?", m.Bytes, q.MaxBytes).
			Returning("memory_count").Scan(ctx, &count)
		if errors.Is(err, sql.ErrNoRows) {
			var u workspaceUsageRow
			if err := tx.NewSelect().Model(&u).Where("agent_id = ?", m.AgentID).Scan(ctx); err != nil {
				return err
			}
			if u.MemoryCount >= q.MaxCount {
				return workspace.MemoryCountExceeded(q.MaxCount)
			}
			return workspace.MemoryBytesExceeded(q.MaxBytes, u.MemoryBytes, m.Bytes)
		}
		if err != nil {
			return err
		}
		row := memoryRow{ID: m.ID, AgentID: m.AgentID, Content: m.Content, Category: m.Category, CategoryHash: m.CategoryHash,
			Metadata: m.Metadata, SizeBytes: m.Bytes, TermCount: m.Length, StoredAt: m.StoredAt.UTC()}
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return err
		}
		for start := 0; start < len(m.Postings); start += postingsPerInsert {
			chunk := m.Postings[start:min(start+postingsPerInsert, len(m.Postings))]
			rows := make([]memoryTermRow, len(chunk))
			for i, p := range chunk {
				rows[i] = memoryTermRow{MemoryID: m.ID, TermHash: p.TermHash, AgentID: m.AgentID, Occurrences: p.Count}
			}
			if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	return translate("bunstore.AddMemory", err)
}

// MemoryIndex implements workspace.Store with three reads: the corpus
// figures, the document frequencies and the candidate postings.
func (s *Store) MemoryIndex(ctx context.Context, q workspace.IndexQuery) (workspace.IndexSnapshot, error) {
	const op = "bunstore.MemoryIndex"
	snap := workspace.IndexSnapshot{DocFreq: map[string]int64{}}
	var u workspaceUsageRow
	err := s.db.NewSelect().Model(&u).Where("agent_id = ?", q.AgentID).Scan(ctx)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return snap, nil
	case err != nil:
		return snap, translate(op, err)
	}
	snap.Memories, snap.Length = u.MemoryCount, u.MemoryTerms
	if len(q.TermHashes) == 0 {
		return snap, nil // nothing can match (and SQL has no empty IN list)
	}
	var freqs []struct {
		TermHash []byte `bun:"term_hash"`
		Docs     int64  `bun:"docs"`
	}
	err = s.db.NewSelect().Model((*memoryTermRow)(nil)).Column("term_hash").ColumnExpr("COUNT(*) AS docs").
		Where("agent_id = ?", q.AgentID).Where("term_hash IN (?)", bun.List(q.TermHashes)).Group("term_hash").Scan(ctx, &freqs)
	if err != nil {
		return snap, translate(op, err)
	}
	for _, f := range freqs {
		snap.DocFreq[string(f.TermHash)] = f.Docs
	}
	var hits []struct {
		MemoryID    string    `bun:"memory_id"`
		TermHash    []byte    `bun:"term_hash"`
		Occurrences int64     `bun:"occurrences"`
		TermCount   int64     `bun:"term_count"`
		StoredAt    time.Time `bun:"stored_at"`
	}
	sel := s.db.NewSelect().Model((*memoryTermRow)(nil)).
		Column("t.memory_id", "t.term_hash", "t.occurrences", "m.term_count", "m.stored_at").
		Join("JOIN memories AS m ON m.id = t.memory_id").
		Where("t.agent_id = ?", q.AgentID).Where("t.term_hash IN (?)", bun.List(q.TermHashes)).
		Order("t.memory_id")
	if q.CategoryHash != nil {
		sel = sel.Where("m.category_hash = ?", q.CategoryHash)
	}
	if err := sel.Scan(ctx, &hits); err != nil {
		return snap, translate(op, err)
	}
	for _, h := range hits {
		n := len(snap.Matches)
		if n == 0 || snap.Matches[n-1].MemoryID != h.MemoryID {
			snap.Matches = append(snap.Matches, workspace.IndexMatch{MemoryID: h.MemoryID, StoredAt: h.StoredAt.UTC(),
				Length: h.TermCount, Counts: map[string]int64{}})
			n++
		}
		snap.Matches[n-1].Counts[string(h.TermHash)] = h.Occurrences
	}
	return snap, nil
}

// Memories implements workspace.Store.
func (s *Store) Memories(ctx context.Context, agentID string, ids []string) ([]workspace.MemoryRecord, error) {
	out := []workspace.MemoryRecord{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []memoryRow
	if err := s.db.NewSelect().Model(&rows).Where("agent_id = ?", agentID).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate("bunstore.Memories", err)
	}
	for _, r := range rows {
		out = append(out, r.record())
	}
	return out, nil
}

// DeleteMemory implements workspace.Store.
func (s *Store) DeleteMemory(ctx context.Context, agentID, id string) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var row memoryRow
		if err := tx.NewSelect().Model(&row).Column("size_bytes", "term_count").
			Where("agent_id = ?", agentID).Where("id = ?", id).Scan(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*memoryTermRow)(nil)).Where("memory_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*memoryRow)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Model((*workspaceUsageRow)(nil)).
			Set("memory_count = memory_count - 1").Set("memory_bytes = memory_bytes - ?", row.SizeBytes).
			Set("memory_terms = memory_terms - ?", row.TermCount).Where("agent_id = ?", agentID).Exec(ctx)
		return err
	})
	return translate("bunstore.DeleteMemory", err)
}
