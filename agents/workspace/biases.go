package workspace

import (
	"context"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/performance"
)

// Bias analysis limits.
const (
	// DefaultBiasLookback is the number of latest trades analysed (the
	// published lookback_count default).
	DefaultBiasLookback = 50
	// MaxBiasLookback bounds the lookback and the trades one call may send.
	MaxBiasLookback = 10_000
)

// Sources of a bias analysis.
const (
	SourceJournal = "journal"
	SourceTrades  = "trades"
)

// BiasInput asks for a bias analysis.
type BiasInput struct {
	// Trades, oldest first; nil analyses the agent's journal instead.
	Trades []performance.BiasTrade
	// Lookback is the number of latest trades analysed, 2 to
	// MaxBiasLookback (0: DefaultBiasLookback).
	Lookback int
}

// BiasResult is a bias analysis and where its trades came from.
type BiasResult struct {
	Source string `json:"source"`
	performance.BiasReport
}

// Biases analyses the latest trades of the input, or of agentID's
// journal, for behavioural biases (see performance.AnalyzeBiases).
func (s *Service) Biases(ctx context.Context, agentID string, in BiasInput) (BiasResult, error) {
	lookback := in.Lookback
	switch {
	case lookback == 0:
		lookback = DefaultBiasLookback
	case lookback < 2 || lookback > MaxBiasLookback:
		return BiasResult{}, invalid("lookback_count: must be between 2 and %d (got %d)", MaxBiasLookback, lookback)
	}
	res := BiasResult{Source: SourceTrades}
	trades := in.Trades
	if trades == nil {
		res.Source = SourceJournal
		recs, err := s.chronological(ctx, agentID, TradeFilter{}, lookback)
		if err != nil {
			return BiasResult{}, toolkit.WithOp("workspace.Biases", err)
		}
		if len(recs) < 2 {
			return BiasResult{}, invalid("trades: the journal holds %d trades and the analysis needs at least 2; "+
				"record trades with record_trade_journal or send trades", len(recs))
		}
		trades = make([]performance.BiasTrade, len(recs))
		for i, rec := range recs {
			trades[i] = biasTradeOf(rec)
		}
	} else if len(trades) > MaxBiasLookback {
		return BiasResult{}, toolkit.Errorf(toolkit.TooLarge, "trades: at most %d items are accepted, got %d", MaxBiasLookback, len(trades))
	}
	trades = trades[max(0, len(trades)-lookback):]
	rep, err := performance.AnalyzeBiases(trades)
	if err != nil {
		return BiasResult{}, err
	}
	res.BiasReport = *rep
	return res, nil
}

// biasTradeOf reads what the bias checks need from a journal trade: its
// R, times, maximum favourable excursion and size (entry price ×
// quantity, the notional).
func biasTradeOf(rec TradeRecord) performance.BiasTrade {
	t := performance.BiasTrade{RMultiple: rec.RMultiple, EntryTime: rec.EntryTime, ExitTime: rec.ExitTime, MFER: rec.MFER}
	entry, err1 := toolkit.ParseAmount(rec.EntryPrice)
	qty, err2 := toolkit.ParseAmount(rec.Quantity)
	if err1 == nil && err2 == nil {
		if size := entry.Mul(qty).Float64(); size > 0 {
			t.Size = &size
		}
	}
	return t
}
