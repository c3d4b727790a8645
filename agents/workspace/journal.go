package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"golang.org/x/text/unicode/norm"
)

// Journal limits.
const (
	// MaxSymbolLen, MaxLabelLen and MaxTagLen bound the symbol, the setup
	// and strategy, and each tag, in characters.
	MaxSymbolLen = 32
	MaxLabelLen  = 64
	MaxTagLen    = 32
	// MaxTags bounds the tags of one trade.
	MaxTags = 16
	// MaxNotesLen bounds a trade's notes in characters.
	MaxNotesLen = 5000
	// MaxR bounds |r_multiple|, mfe_r and mae_r.
	MaxR = 1000
	// MaxPnL bounds |pnl| and fees of one trade, in currency units.
	MaxPnL = 1_000_000_000_000
)

// Directions of a trade.
const (
	Long  = "long"
	Short = "short"
)

// R sources: given by the caller or derived from the prices.
const (
	RGiven   = "given"
	RDerived = "derived"
)

// TradeInput is a closed trade to record.
type TradeInput struct {
	// Symbol is 1 to MaxSymbolLen characters; filters match it
	// case-insensitively.
	Symbol string
	// Direction is long or short (any letter case).
	Direction string
	// EntryPrice, ExitPrice and Quantity are > 0.
	EntryPrice toolkit.Amount
	ExitPrice  toolkit.Amount
	Quantity   toolkit.Amount
	// StopPrice, optional, is the initial stop: below the entry for a
	// long, above it for a short. It lets the R-multiple be derived.
	StopPrice *toolkit.Amount
	// RMultiple, optional, is the result in R; without it R is derived:
	// (exit − entry)/(entry − stop) for a long, (entry − exit)/(stop −
	// entry) for a short (gross of fees). One of RMultiple and StopPrice
	// is required.
	RMultiple *float64
	// PnL, optional, is the net result in the quote currency; without it
	// PnL = (exit − entry) × quantity (negated for a short) − fees.
	// Rounded half-even to 6 decimal places.
	PnL *toolkit.Amount
	// Fees, optional (default 0), are >= 0.
	Fees *toolkit.Amount
	// EntryTime and ExitTime are optional; ExitTime >= EntryTime. TradeDate
	// (a UTC day) stands for the exit when ExitTime is not given. No time
	// may be more than a day ahead of the server's clock.
	EntryTime *time.Time
	ExitTime  *time.Time
	TradeDate *time.Time
	// Setup and Strategy label the trade (up to MaxLabelLen characters);
	// the journal filters on Strategy case-insensitively.
	Setup    string
	Strategy string
	// Tags are up to MaxTags labels of 1 to MaxTagLen characters.
	Tags []string
	// Notes are up to MaxNotesLen characters, sealed at rest.
	Notes string
	// MFER and MAER, optional, are the maximum favourable and adverse
	// excursions in R, as magnitudes in [0, MaxR].
	MFER *float64
	MAER *float64
}

// Trade is a journal trade as the agent sees it.
type Trade struct {
	TradeID       string          `json:"trade_id"`
	Symbol        string          `json:"symbol"`
	Direction     string          `json:"direction"`
	EntryPrice    toolkit.Amount  `json:"entry_price"`
	ExitPrice     toolkit.Amount  `json:"exit_price"`
	StopPrice     *toolkit.Amount `json:"stop_price"`
	Quantity      toolkit.Amount  `json:"quantity"`
	RMultiple     toolkit.Float   `json:"r_multiple"`
	RSource       string          `json:"r_source"`
	PnL           toolkit.Amount  `json:"pnl"`
	Fees          toolkit.Amount  `json:"fees"`
	EntryTime     *time.Time      `json:"entry_time"`
	ExitTime      *time.Time      `json:"exit_time"`
	ClosedAt      time.Time       `json:"closed_at"`
	HoldTimeHours *toolkit.Float  `json:"hold_time_hours"`
	Setup         string          `json:"setup"`
	Strategy      string          `json:"strategy"`
	Tags          []string        `json:"tags"`
	Notes         string          `json:"notes"`
	MFER          *toolkit.Float  `json:"mfe_r"`
	MAER          *toolkit.Float  `json:"mae_r"`
	RecordedAt    time.Time       `json:"recorded_at"`
}

// labels is the sealed JSON of a trade's text labels.
type labels struct {
	Symbol   string   `json:"symbol"`
	Setup    string   `json:"setup,omitempty"`
	Strategy string   `json:"strategy,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

// RecordTrade validates, seals and stores a closed trade of agentID.
func (s *Service) RecordTrade(ctx context.Context, agentID string, in TradeInput) (Trade, error) {
	const op = "workspace.RecordTrade"
	now := s.timestamp()
	rec, lab, err := in.record(now)
	if err != nil {
		return Trade{}, err
	}
	if rec.ID, err = s.newID(tradeIDPrefix); err != nil {
		return Trade{}, toolkit.WithOp(op, err)
	}
	rec.AgentID = agentID
	if rec.SymbolHash, err = s.agentHash(hashTradeSymbol, agentID, symbolKey(lab.Symbol)); err != nil {
		return Trade{}, toolkit.WithOp(op, err)
	}
	if lab.Strategy != "" {
		if rec.StrategyHash, err = s.agentHash(hashTradeStrategy, agentID, strategyKey(lab.Strategy)); err != nil {
			return Trade{}, toolkit.WithOp(op, err)
		}
	}
	plain, err := json.Marshal(lab)
	if err != nil {
		return Trade{}, toolkit.AsInternal(op, err)
	}
	if rec.Labels, err = s.vault.Seal(ctx, agentID, sealedField(fieldTradeLabels, rec.ID), plain); err != nil {
		return Trade{}, toolkit.WithOp(op, err)
	}
	if in.Notes != "" {
		if rec.Notes, err = s.vault.SealString(ctx, agentID, sealedField(fieldTradeNotes, rec.ID), in.Notes); err != nil {
			return Trade{}, toolkit.WithOp(op, err)
		}
	}
	if err := s.store.AddTrade(ctx, rec, s.cfg.MaxTrades); err != nil {
		return Trade{}, toolkit.WithOp(op, err)
	}
	t, err := tradeOf(rec, lab, in.Notes)
	return t, toolkit.WithOp(op, err)
}

// deleteTrade removes one of agentID's trades and gives its quota back:
// the undo of RecordTrade when the call that recorded it is not charged.
func (s *Service) deleteTrade(ctx context.Context, agentID, tradeID string) error {
	return toolkit.WithOp("workspace.deleteTrade", s.store.DeleteTrade(ctx, agentID, tradeID))
}

// record validates the input and builds the stored record (without id,
// agent, hashes and ciphertexts) and the labels to seal.
func (in TradeInput) record(now time.Time) (TradeRecord, labels, error) {
	var rec TradeRecord
	lab := labels{Symbol: strings.TrimSpace(in.Symbol), Setup: strings.TrimSpace(in.Setup),
		Strategy: strings.TrimSpace(in.Strategy), Tags: in.Tags}
	if err := in.checkTexts(lab); err != nil {
		return rec, lab, err
	}
	switch strings.ToLower(in.Direction) {
	case Long, Short:
		rec.Direction = strings.ToLower(in.Direction)
	default:
		return rec, lab, invalid("direction: must be long or short (got %s)", quoteShort(in.Direction))
	}
	for _, p := range []struct {
		name string
		v    toolkit.Amount
	}{{"entry_price", in.EntryPrice}, {"exit_price", in.ExitPrice}, {"quantity", in.Quantity}} {
		if p.v.Sign() <= 0 {
			return rec, lab, invalid("%s: must be > 0", p.name)
		}
	}
	rec.EntryPrice, rec.ExitPrice, rec.Quantity = in.EntryPrice.String(), in.ExitPrice.String(), in.Quantity.String()
	sign := toolkit.AmountFromInt(1)
	if rec.Direction == Short {
		sign = sign.Neg()
	}
	if in.StopPrice != nil {
		risk := in.EntryPrice.Sub(*in.StopPrice).Mul(sign) // > 0 when the stop is on the losing side
		if in.StopPrice.Sign() <= 0 || risk.Sign() <= 0 {
			return rec, lab, invalid("stop_price: must be > 0 and %s the entry price for a %s", map[string]string{Long: "below", Short: "above"}[rec.Direction], rec.Direction)
		}
		stop := in.StopPrice.String()
		rec.StopPrice = &stop
		if in.RMultiple == nil {
			r, err := in.ExitPrice.Sub(in.EntryPrice).Mul(sign).Quo(risk)
			if err != nil || math.Abs(r.Float64()) > MaxR {
				return rec, lab, invalid("stop_price: the derived R-multiple must be within ±%d; send r_multiple", MaxR)
			}
			rec.RMultiple, rec.RDerived = round12(r.Float64()), true
		}
	}
	switch {
	case in.RMultiple != nil:
		if err := checkR("r_multiple", *in.RMultiple, -MaxR); err != nil {
			return rec, lab, err
		}
		rec.RMultiple = *in.RMultiple
	case in.StopPrice == nil:
		return rec, lab, invalid("r_multiple: required when stop_price is not given (R is derived from entry, exit and stop)")
	}
	if err := in.money(&rec, sign); err != nil {
		return rec, lab, err
	}
	for _, x := range []struct {
		name string
		v    *float64
		dst  **float64
	}{{"mfe_r", in.MFER, &rec.MFER}, {"mae_r", in.MAER, &rec.MAER}} {
		if x.v != nil {
			if err := checkR(x.name, *x.v, 0); err != nil {
				return rec, lab, err
			}
			v := *x.v
			*x.dst = &v
		}
	}
	return rec, lab, in.times(&rec, now)
}

// checkTexts checks the labels and notes.
func (in TradeInput) checkTexts(lab labels) error {
	if err := checkText("symbol", lab.Symbol, 1, MaxSymbolLen); err != nil {
		return err
	}
	for _, f := range []struct{ name, v string }{{"setup", lab.Setup}, {"strategy", lab.Strategy}} {
		if err := checkText(f.name, f.v, 0, MaxLabelLen); err != nil {
			return err
		}
	}
	if len(in.Tags) > MaxTags {
		return toolkit.Errorf(toolkit.TooLarge, "tags: at most %d items are accepted, got %d", MaxTags, len(in.Tags))
	}
	for i, t := range in.Tags {
		if err := checkText("tags", t, 1, MaxTagLen); err != nil {
			return invalid("tags: item %d: %s", i, strings.TrimPrefix(messageOf(err), "tags: "))
		}
	}
	return checkText("notes", in.Notes, 0, MaxNotesLen)
}

// money sets fees and P&L in micro-units.
func (in TradeInput) money(rec *TradeRecord, sign toolkit.Amount) error {
	limit := toolkit.AmountFromInt(MaxPnL)
	fees := toolkit.AmountFromInt(0)
	if in.Fees != nil {
		fees = *in.Fees
		if fees.Sign() < 0 || fees.Cmp(limit) > 0 {
			return invalid("fees: must be between 0 and %d", MaxPnL)
		}
	}
	pnl := in.ExitPrice.Sub(in.EntryPrice).Mul(in.Quantity).Mul(sign).Sub(fees)
	field := "pnl (derived as (exit_price - entry_price) × quantity - fees)"
	if in.PnL != nil {
		pnl, field = *in.PnL, "pnl"
	}
	if pnl.Abs().Cmp(limit) > 0 {
		return invalid("%s: must be within ±%d", field, MaxPnL)
	}
	var err error
	if rec.PnLMicros, err = micros(pnl); err != nil {
		return invalid("%s: out of range", field)
	}
	if rec.FeesMicros, err = micros(fees); err != nil {
		return invalid("fees: out of range")
	}
	return nil
}

// micros rounds a to 6 decimal places (half-even) in micro-units.
func micros(a toolkit.Amount) (int64, error) {
	r, err := a.Round(6, toolkit.RoundHalfEven)
	if err != nil {
		return 0, err
	}
	return r.Micros()
}

// earliestTime is the earliest trade time accepted.
var earliestTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// times checks and sets the trade's times and its ordering time.
func (in TradeInput) times(rec *TradeRecord, now time.Time) error {
	latest := now.Add(24 * time.Hour)
	for _, t := range []struct {
		name string
		v    *time.Time
		dst  **time.Time
	}{{"entry_time", in.EntryTime, &rec.EntryTime}, {"exit_time", in.ExitTime, &rec.ExitTime}, {"trade_date", in.TradeDate, nil}} {
		if t.v == nil {
			continue
		}
		if t.v.Before(earliestTime) || t.v.After(latest) {
			return invalid("%s: must be between 1970-01-01 and one day after the current time", t.name)
		}
		if t.dst != nil {
			v := t.v.UTC().Truncate(time.Microsecond)
			*t.dst = &v
		}
	}
	if rec.EntryTime != nil && rec.ExitTime != nil && rec.ExitTime.Before(*rec.EntryTime) {
		return invalid("exit_time: must not be before entry_time")
	}
	rec.RecordedAt = now
	switch {
	case rec.ExitTime != nil:
		rec.ClosedAt = *rec.ExitTime
	case in.TradeDate != nil:
		y, m, d := in.TradeDate.UTC().Date()
		rec.ClosedAt = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	default:
		rec.ClosedAt = now
	}
	return nil
}

// checkR checks an R figure in [min, MaxR].
func checkR(field string, v, min float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < min || v > MaxR {
		return invalid("%s: must be between %g and %d", field, min, MaxR)
	}
	return nil
}

// symbolKey and strategyKey are the forms filters compare: NFKC, trimmed,
// upper case for symbols and lower case for strategies.
func symbolKey(s string) string   { return strings.ToUpper(norm.NFKC.String(strings.TrimSpace(s))) }
func strategyKey(s string) string { return strings.ToLower(norm.NFKC.String(strings.TrimSpace(s))) }

// tradeOf builds the agent's view of a stored trade from its opened text.
// A stored price that does not parse is Internal.
func tradeOf(rec TradeRecord, lab labels, notes string) (Trade, error) {
	t := Trade{TradeID: rec.ID, Symbol: lab.Symbol, Direction: rec.Direction, RMultiple: toolkit.Float(rec.RMultiple),
		RSource: RGiven, PnL: toolkit.AmountFromMicros(rec.PnLMicros).Trim(2), Fees: toolkit.AmountFromMicros(rec.FeesMicros).Trim(2),
		EntryTime: rec.EntryTime, ExitTime: rec.ExitTime, ClosedAt: rec.ClosedAt, Setup: lab.Setup, Strategy: lab.Strategy,
		Tags: lab.Tags, Notes: notes, RecordedAt: rec.RecordedAt}
	if t.Tags == nil {
		t.Tags = []string{}
	}
	if rec.RDerived {
		t.RSource = RDerived
	}
	var err error
	for _, f := range []struct {
		dst *toolkit.Amount
		v   string
	}{{&t.EntryPrice, rec.EntryPrice}, {&t.ExitPrice, rec.ExitPrice}, {&t.Quantity, rec.Quantity}} {
		if *f.dst, err = toolkit.ParseAmount(f.v); err != nil {
			return Trade{}, toolkit.AsInternal("workspace.tradeOf", fmt.Errorf("trade %s: %w", rec.ID, err))
		}
	}
	if rec.StopPrice != nil {
		stop, err := toolkit.ParseAmount(*rec.StopPrice)
		if err != nil {
			return Trade{}, toolkit.AsInternal("workspace.tradeOf", fmt.Errorf("trade %s: %w", rec.ID, err))
		}
		t.StopPrice = &stop
	}
	if h, ok := rec.holdHours(); ok {
		v := toolkit.Float(round12(h))
		t.HoldTimeHours = &v
	}
	for _, x := range []struct {
		v   *float64
		dst **toolkit.Float
	}{{rec.MFER, &t.MFER}, {rec.MAER, &t.MAER}} {
		if x.v != nil {
			v := toolkit.Float(*x.v)
			*x.dst = &v
		}
	}
	return t, nil
}

// holdHours is the trade's holding time, when both times are known.
func (rec TradeRecord) holdHours() (float64, bool) {
	if rec.EntryTime == nil || rec.ExitTime == nil {
		return 0, false
	}
	return rec.ExitTime.Sub(*rec.EntryTime).Hours(), true
}
