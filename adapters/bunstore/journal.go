package bunstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/uptrace/bun"
)

type journalTradeRow struct {
	bun.BaseModel `bun:"table:journal_trades,alias:j"`
	ID            string     `bun:"id,pk"`
	AgentID       string     `bun:"agent_id"`
	SymbolHash    []byte     `bun:"symbol_hash"`
	StrategyHash  []byte     `bun:"strategy_hash"`
	Labels        []byte     `bun:"labels"`
	Notes         []byte     `bun:"notes"`
	Direction     string     `bun:"direction"`
	EntryPrice    string     `bun:"entry_price"`
	ExitPrice     string     `bun:"exit_price"`
	StopPrice     *string    `bun:"stop_price"`
	Quantity      string     `bun:"quantity"`
	RMultiple     float64    `bun:"r_multiple"`
	RDerived      bool       `bun:"r_derived"`
	PnLMicros     int64      `bun:"pnl_micros"`
	FeesMicros    int64      `bun:"fees_micros"`
	MFER          *float64   `bun:"mfe_r"`
	MAER          *float64   `bun:"mae_r"`
	EntryTime     *time.Time `bun:"entry_time"`
	ExitTime      *time.Time `bun:"exit_time"`
	ClosedAt      time.Time  `bun:"closed_at"`
	RecordedAt    time.Time  `bun:"recorded_at"`
}

func tradeRow(t workspace.TradeRecord) journalTradeRow {
	return journalTradeRow{ID: t.ID, AgentID: t.AgentID, SymbolHash: t.SymbolHash, StrategyHash: t.StrategyHash,
		Labels: t.Labels, Notes: t.Notes, Direction: t.Direction, EntryPrice: t.EntryPrice, ExitPrice: t.ExitPrice,
		StopPrice: t.StopPrice, Quantity: t.Quantity, RMultiple: t.RMultiple, RDerived: t.RDerived, PnLMicros: t.PnLMicros,
		FeesMicros: t.FeesMicros, MFER: t.MFER, MAER: t.MAER, EntryTime: utcPtr(t.EntryTime), ExitTime: utcPtr(t.ExitTime),
		ClosedAt: t.ClosedAt.UTC(), RecordedAt: t.RecordedAt.UTC()}
}

func (r journalTradeRow) record() workspace.TradeRecord {
	return workspace.TradeRecord{ID: r.ID, AgentID: r.AgentID, SymbolHash: r.SymbolHash, StrategyHash: r.StrategyHash,
		Labels: r.Labels, Notes: r.Notes, Direction: r.Direction, EntryPrice: r.EntryPrice, ExitPrice: r.ExitPrice,
		StopPrice: r.StopPrice, Quantity: r.Quantity, RMultiple: r.RMultiple, RDerived: r.RDerived, PnLMicros: r.PnLMicros,
		FeesMicros: r.FeesMicros, MFER: r.MFER, MAER: r.MAER, EntryTime: utcPtr(r.EntryTime), ExitTime: utcPtr(r.ExitTime),
		ClosedAt: r.ClosedAt.UTC(), RecordedAt: r.RecordedAt.UTC()}
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}

// AddTrade implements workspace.Store: a conditional UPDATE of the usage
// row takes the quota, then the trade is inserted, in one transaction.
func (s *Store) AddTrade(ctx context.Context, t workspace.TradeRecord, maxTrades int64) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := ensureUsage(ctx, tx, t.AgentID); err != nil {
			return err
		}
		var count int64
		err := tx.NewUpdate().Model((*workspaceUsageRow)(nil)).Set("trade_count = trade_count + 1").
			Where("agent_id = ?", t.AgentID).Where("trade_count < ?", maxTrades).Returning("trade_count").Scan(ctx, &count)
		if errors.Is(err, sql.ErrNoRows) {
			return workspace.JournalFull(maxTrades)
		}
		if err != nil {
			return err
		}
		row := tradeRow(t)
		_, err = tx.NewInsert().Model(&row).Exec(ctx)
		return err
	})
	return translate("bunstore.AddTrade", err)
}

// DeleteTrade implements workspace.Store.
func (s *Store) DeleteTrade(ctx context.Context, agentID, id string) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*journalTradeRow)(nil)).Where("agent_id = ?", agentID).Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmp.Or(err, sql.ErrNoRows)
		}
		_, err = tx.NewUpdate().Model((*workspaceUsageRow)(nil)).Set("trade_count = trade_count - 1").
			Where("agent_id = ?", agentID).Exec(ctx)
		return err
	})
	return translate("bunstore.DeleteTrade", err)
}

// Trades implements workspace.Store. Times compare as stored: timestamptz
// on Postgres, fixed-format UTC text on SQLite (which sorts as time does).
func (s *Store) Trades(ctx context.Context, q workspace.TradeQuery) ([]workspace.TradeRecord, error) {
	var rows []journalTradeRow
	sel := s.db.NewSelect().Model(&rows).Where("agent_id = ?", q.AgentID)
	if q.WithoutText {
		sel = sel.ExcludeColumn("labels", "notes")
	}
	if q.SymbolHash != nil {
		sel = sel.Where("symbol_hash = ?", q.SymbolHash)
	}
	if q.StrategyHash != nil {
		sel = sel.Where("strategy_hash = ?", q.StrategyHash)
	}
	if q.From != nil {
		sel = sel.Where("closed_at >= ?", q.From.UTC())
	}
	if q.To != nil {
		sel = sel.Where("closed_at < ?", q.To.UTC())
	}
	if q.After != nil {
		at := q.After.At.UTC()
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("closed_at < ?", at).WhereOr("closed_at = ? AND id < ?", at, q.After.ID)
		})
	}
	sel = sel.Order("closed_at DESC", "id DESC")
	if q.Limit > 0 {
		sel = sel.Limit(int64(q.Limit))
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, translate("bunstore.Trades", err)
	}
	out := make([]workspace.TradeRecord, len(rows))
	for i, r := range rows {
		out[i] = r.record()
	}
	return out, nil
}
