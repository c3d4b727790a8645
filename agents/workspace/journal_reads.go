package workspace

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// Journal read limits.
const (
	// DefaultTradesLimit and MaxTradesLimit bound a page of trades.
	DefaultTradesLimit = 50
	MaxTradesLimit     = 1000
	// DefaultRLimit and MaxRLimit bound the R-multiples of RMultiples.
	DefaultRLimit = 50
	MaxRLimit     = 10_000
)

// TradeFilter narrows the journal. Empty fields do not filter.
type TradeFilter struct {
	// Symbol and Strategy match case-insensitively.
	Symbol   string
	Strategy string
	// From and To keep trades closed at or after From and before To.
	From *time.Time
	To   *time.Time
}

// TradeList is one page of trades, newest first.
type TradeList struct {
	Trades []Trade
	toolkit.Page
}

// JournalStats are the performance figures of the journal (the same
// definitions as the performance tools: see performance.AnalyzeWinLoss,
// performance.SQN and performance.G).
type JournalStats struct {
	TradeCount   int            `json:"trade_count"`
	WinRate      toolkit.Float  `json:"win_rate"`
	AvgRMultiple toolkit.Float  `json:"avg_r_multiple"`
	TotalR       toolkit.Float  `json:"total_r"`
	TotalPnL     toolkit.Amount `json:"total_pnl"`
	Expectancy   toolkit.Float  `json:"expectancy"`
	ProfitFactor *toolkit.Float `json:"profit_factor"`
	// SQN and SQNCapped are null with fewer than two trades or no spread.
	SQN       *toolkit.Float `json:"sqn"`
	SQNCapped *toolkit.Float `json:"sqn_capped"`
	// G is mean(R) − var(R)/2 (population variance).
	G            toolkit.Float `json:"g"`
	FirstTradeAt *time.Time    `json:"first_trade_at"`
	LastTradeAt  *time.Time    `json:"last_trade_at"`
	// WinLoss holds the full win/loss analysis; null for an empty journal.
	WinLoss *performance.WinLoss `json:"win_loss"`
}

// Trades returns one page of agentID's trades matching f, newest first
// (by closing time, then id).
func (s *Service) Trades(ctx context.Context, agentID string, f TradeFilter, p toolkit.PageInput) (TradeList, error) {
	const op = "workspace.Trades"
	limit, after, err := tradeKeyset.Parse(p)
	if err != nil {
		return TradeList{}, err
	}
	q, err := s.tradeQuery(agentID, f)
	if err != nil {
		return TradeList{}, toolkit.WithOp(op, err)
	}
	q.After, q.Limit = after, limit+1
	recs, err := s.store.Trades(ctx, q)
	if err != nil {
		return TradeList{}, toolkit.WithOp(op, err)
	}
	recs, page := toolkit.PageOf(tradeKeyset, recs, limit, func(r TradeRecord) toolkit.Cursor { return toolkit.Cursor{At: r.ClosedAt, ID: r.ID} })
	out := TradeList{Trades: make([]Trade, 0, len(recs)), Page: page}
	for _, rec := range recs {
		t, err := s.openTrade(ctx, rec)
		if err != nil {
			return TradeList{}, toolkit.WithOp(op, err)
		}
		out.Trades = append(out.Trades, t)
	}
	return out, nil
}

// Stats computes the journal's performance figures over every trade of
// agentID matching f.
func (s *Service) Stats(ctx context.Context, agentID string, f TradeFilter) (JournalStats, error) {
	recs, err := s.chronological(ctx, agentID, f, 0)
	if err != nil {
		return JournalStats{}, toolkit.WithOp("workspace.Stats", err)
	}
	st := JournalStats{TradeCount: len(recs), TotalPnL: toolkit.AmountFromMicros(0).Trim(2)}
	if len(recs) == 0 {
		return st, nil
	}
	r := make([]float64, len(recs))
	pnl := make([]toolkit.Amount, len(recs))
	for i, rec := range recs {
		r[i], pnl[i] = rec.RMultiple, toolkit.AmountFromMicros(rec.PnLMicros).Trim(2)
	}
	wl, err := performance.AnalyzeWinLoss(r, pnl)
	if err != nil {
		return JournalStats{}, toolkit.WithOp("workspace.Stats", err)
	}
	st.WinLoss = &wl
	st.WinRate, st.AvgRMultiple, st.TotalR, st.Expectancy = wl.WinRate, wl.Expectancy, wl.TotalR, wl.Expectancy
	st.ProfitFactor, st.G = wl.ProfitFactor, toolkit.Float(performance.G(r))
	if wl.PnL != nil {
		st.TotalPnL = wl.PnL.TotalPnL.Trim(2)
	}
	if raw, capped, ok := performance.SQN(r); ok {
		a, b := toolkit.Float(raw), toolkit.Float(capped)
		st.SQN, st.SQNCapped = &a, &b
	}
	first, last := recs[0].ClosedAt, recs[len(recs)-1].ClosedAt
	st.FirstTradeAt, st.LastTradeAt = &first, &last
	return st, nil
}

// RMultiples returns the R-multiples of agentID's latest limit trades
// matching f (0: DefaultRLimit), oldest first: ready for the R tools.
func (s *Service) RMultiples(ctx context.Context, agentID string, f TradeFilter, limit int) ([]float64, error) {
	switch {
	case limit == 0:
		limit = DefaultRLimit
	case limit < 1 || limit > MaxRLimit:
		return nil, invalid("limit: must be between 1 and %d (got %d)", MaxRLimit, limit)
	}
	recs, err := s.chronological(ctx, agentID, f, limit)
	if err != nil {
		return nil, toolkit.WithOp("workspace.RMultiples", err)
	}
	out := make([]float64, len(recs))
	for i, rec := range recs {
		out[i] = rec.RMultiple
	}
	return out, nil
}

// chronological returns the numbers of agentID's latest limit trades
// matching f (every trade when limit <= 0), oldest first.
func (s *Service) chronological(ctx context.Context, agentID string, f TradeFilter, limit int) ([]TradeRecord, error) {
	q, err := s.tradeQuery(agentID, f)
	if err != nil {
		return nil, err
	}
	q.Limit, q.WithoutText = limit, true
	recs, err := s.store.Trades(ctx, q)
	if err != nil {
		return nil, err
	}
	slices.Reverse(recs)
	return recs, nil
}

// tradeQuery turns a filter into a store query.
func (s *Service) tradeQuery(agentID string, f TradeFilter) (TradeQuery, error) {
	q := TradeQuery{AgentID: agentID, From: f.From, To: f.To}
	var err error
	if f.Symbol != "" {
		if err := checkText("symbol", strings.TrimSpace(f.Symbol), 1, MaxSymbolLen); err != nil {
			return q, err
		}
		if q.SymbolHash, err = s.agentHash(hashTradeSymbol, agentID, symbolKey(f.Symbol)); err != nil {
			return q, err
		}
	}
	if f.Strategy != "" {
		if err := checkText("strategy", strings.TrimSpace(f.Strategy), 1, MaxLabelLen); err != nil {
			return q, err
		}
		if q.StrategyHash, err = s.agentHash(hashTradeStrategy, agentID, strategyKey(f.Strategy)); err != nil {
			return q, err
		}
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return q, invalid("to: must be after from")
	}
	return q, nil
}

// openTrade opens a stored trade's labels and notes.
func (s *Service) openTrade(ctx context.Context, rec TradeRecord) (Trade, error) {
	plain, err := s.vault.Open(ctx, rec.AgentID, sealedField(fieldTradeLabels, rec.ID), rec.Labels)
	if err != nil {
		return Trade{}, err
	}
	var lab labels
	if err := json.Unmarshal(plain, &lab); err != nil {
		return Trade{}, toolkit.AsInternal("workspace.openTrade", err)
	}
	var notes string
	if rec.Notes != nil {
		if notes, err = s.vault.OpenString(ctx, rec.AgentID, sealedField(fieldTradeNotes, rec.ID), rec.Notes); err != nil {
			return Trade{}, err
		}
	}
	return tradeOf(rec, lab, notes)
}

// tradeKeyset pages the journal: trades newest first by (ClosedAt, ID).
var tradeKeyset = toolkit.Keyset{Tag: "j1", DefaultLimit: DefaultTradesLimit, MaxLimit: MaxTradesLimit,
	ValidID: func(id string) bool { return validID(tradeIDPrefix, id) }}
