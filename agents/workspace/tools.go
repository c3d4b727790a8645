package workspace

import (
	"context"
	"encoding/json"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/google/jsonschema-go/jsonschema"
)

// Operations (price-table keys) of the workspace tools. get_trading_biases
// is an analysis like the other R tools and is not priced.
const (
	OpStoreMemory        = "store_memory"
	OpSearchMemory       = "search_memory"
	OpRecordTradeJournal = "record_trade_journal"
)

// Tool categories.
const (
	categoryMemory  = "memory"
	categoryJournal = "journal"
)

// Tools returns the four workspace tools, bound to s: store_memory,
// search_memory, record_trade_journal and get_trading_biases. Register
// them into the catalog the API serves; each acts for the calling agent
// (catalog.Call.AgentID). store_memory and record_trade_journal append
// a record (catalog.Appends); the other two only read.
func (s *Service) Tools() []catalog.Tool {
	store, record := s.storeMemoryTool(), s.recordTradeTool()
	store.Effect, record.Effect = catalog.Appends, catalog.Appends
	return []catalog.Tool{store, s.searchMemoryTool(), record, s.biasesTool()}
}

// agentOf returns the calling agent; a call without one (a direct Go call
// of the catalog) is refused.
func agentOf(call catalog.Call) (string, error) {
	if call.AgentID == "" {
		return "", toolkit.Errorf(toolkit.Unauthenticated, "the workspace tools act for an agent: call them with an API key")
	}
	return call.AgentID, nil
}

type storeMemoryArgs struct {
	Content  string          `json:"content"`
	Category string          `json:"category,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

func (s *Service) storeMemoryTool() catalog.Tool {
	return catalog.NewTool(catalog.Spec{
		Name: "store_memory",
		Description: "Store a memory in the calling agent's private workspace: content (1-10,000 characters) is indexed for search_memory " +
			"and sealed at rest with the agent's key, with an optional category and a metadata object (at most 4 KB). " +
			"Per agent at most 10,000 memories and 10 MiB (409 or 413 beyond).",
		Category: categoryMemory, Operation: OpStoreMemory,
	}, func(ctx context.Context, call catalog.Call, in storeMemoryArgs) (StoredMemory, error) {
		agentID, err := agentOf(call)
		if err != nil {
			return StoredMemory{}, err
		}
		m, err := s.StoreMemory(ctx, agentID, MemoryInput(in))
		if err == nil {
			call.Undo.Add(func(ctx context.Context) error { return s.DeleteMemory(ctx, agentID, m.MemoryID) })
		}
		return m, err
	}, func(sc *jsonschema.Schema) {
		text(sc, "content", 1, MaxContentLen, "the memory, 1 to 10,000 characters; indexed for search and sealed at rest")
		text(sc, "category", 1, MaxCategoryLen, "optional label (default \"general\"); search_memory filters on it case-insensitively")
		sc.Properties["metadata"] = &jsonschema.Schema{Type: "object", MaxProperties: ptr(64),
			Description: "optional JSON object of at most 4096 bytes (compact), sealed and returned with the memory; not searched"}
		examples(sc, map[string]any{"content": "Scale out a third at 2R", "category": "rules", "metadata": map[string]any{"source": "review"}})
	})
}

type searchMemoryArgs struct {
	Query    string `json:"query"`
	Category string `json:"category,omitempty"`
	Limit    *int   `json:"limit,omitempty"`
}

func (s *Service) searchMemoryTool() catalog.Tool {
	return catalog.NewTool(catalog.Spec{
		Name: "search_memory",
		Description: "Search the calling agent's own memories: BM25 relevance (k1 1.2, b 0.75) over Unicode word terms, " +
			"ties newest first; returns memories with content, category, metadata and similarity_score. Other agents' memories are never searched.",
		Category: categoryMemory, Operation: OpSearchMemory,
	}, func(ctx context.Context, call catalog.Call, in searchMemoryArgs) (SearchResult, error) {
		agentID, err := agentOf(call)
		if err != nil {
			return SearchResult{}, err
		}
		limit := 0
		if in.Limit != nil {
			limit = *in.Limit
		}
		return s.SearchMemory(ctx, agentID, SearchInput{Query: in.Query, Category: in.Category, Limit: limit})
	}, func(sc *jsonschema.Schema) {
		text(sc, "query", 1, MaxQueryLen, "words to look for (at most 32 distinct terms)")
		text(sc, "category", 1, MaxCategoryLen, "optional: only memories of this category")
		p := sc.Properties["limit"]
		p.Minimum, p.Maximum, p.Description = ptr(1.0), ptr(float64(MaxSearchLimit)), "memories returned, 1 to 50"
		p.Default = json.RawMessage("10")
		examples(sc, map[string]any{"query": "scale out", "category": "rules"})
	})
}

type tradeArgs struct {
	Symbol     string          `json:"symbol"`
	Direction  string          `json:"direction"`
	EntryPrice toolkit.Amount  `json:"entry_price"`
	ExitPrice  toolkit.Amount  `json:"exit_price"`
	Quantity   toolkit.Amount  `json:"quantity"`
	StopPrice  *toolkit.Amount `json:"stop_price,omitempty"`
	RMultiple  *toolkit.Float  `json:"r_multiple,omitempty"`
	PnL        *toolkit.Amount `json:"pnl,omitempty"`
	Fees       *toolkit.Amount `json:"fees,omitempty"`
	EntryTime  string          `json:"entry_time,omitempty"`
	ExitTime   string          `json:"exit_time,omitempty"`
	TradeDate  string          `json:"trade_date,omitempty"`
	Setup      string          `json:"setup,omitempty"`
	Strategy   string          `json:"strategy,omitempty"`
	Tags       []string        `json:"tags,omitempty"`
	Notes      string          `json:"notes,omitempty"`
	MFER       *toolkit.Float  `json:"mfe_r,omitempty"`
	MAER       *toolkit.Float  `json:"mae_r,omitempty"`
}

// input converts the arguments, parsing the times.
func (a tradeArgs) input() (TradeInput, error) {
	in := TradeInput{Symbol: a.Symbol, Direction: a.Direction, EntryPrice: a.EntryPrice, ExitPrice: a.ExitPrice,
		Quantity: a.Quantity, StopPrice: a.StopPrice, PnL: a.PnL, Fees: a.Fees, Setup: a.Setup, Strategy: a.Strategy,
		Tags: a.Tags, Notes: a.Notes, RMultiple: floatPtr(a.RMultiple), MFER: floatPtr(a.MFER), MAER: floatPtr(a.MAER)}
	var err error
	if in.EntryTime, err = ParseTime("entry_time", a.EntryTime); err != nil {
		return in, err
	}
	if in.ExitTime, err = ParseTime("exit_time", a.ExitTime); err != nil {
		return in, err
	}
	in.TradeDate, err = ParseTime("trade_date", a.TradeDate)
	return in, err
}

func (s *Service) recordTradeTool() catalog.Tool {
	return catalog.WithRequirements(catalog.NewTool(catalog.Spec{
		Name: "record_trade_journal",
		Description: "Record a closed trade in the calling agent's journal: symbol, direction, entry/exit prices, quantity, and r_multiple " +
			"or stop_price to derive it; optional pnl (else derived), fees, times, setup/strategy/tags, notes (sealed at rest), mfe_r/mae_r. " +
			"Read it back with GET /v1/journal/trades, /stats and /r-multiples.",
		Category: categoryJournal, Operation: OpRecordTradeJournal,
	}, func(ctx context.Context, call catalog.Call, a tradeArgs) (Trade, error) {
		agentID, err := agentOf(call)
		if err != nil {
			return Trade{}, err
		}
		in, err := a.input()
		if err != nil {
			return Trade{}, err
		}
		t, err := s.RecordTrade(ctx, agentID, in)
		if err == nil {
			call.Undo.Add(func(ctx context.Context) error { return s.deleteTrade(ctx, agentID, t.TradeID) })
		}
		return t, err
	}, func(sc *jsonschema.Schema) {
		text(sc, "symbol", 1, MaxSymbolLen, "instrument symbol")
		enum(sc, "direction", "long or short", "long", "short", "LONG", "SHORT", "Long", "Short")
		positive(sc, "entry_price", "average entry price")
		positive(sc, "exit_price", "average exit price")
		positive(sc, "quantity", "shares, contracts or units")
		positive(sc, "stop_price", "optional initial stop, > 0, below the entry for a long and above for a short; derives r_multiple when it is omitted")
		bounded(sc, "r_multiple", -MaxR, MaxR, "optional result in R (required without stop_price)")
		bounded(sc, "pnl", -MaxPnL, MaxPnL, "optional net P&L in the quote currency (default (exit - entry) × quantity, negated for a short, minus fees)")
		bounded(sc, "fees", 0, MaxPnL, "optional fees (default 0)")
		timeText(sc, "entry_time", "date-time", "optional RFC 3339 entry time")
		timeText(sc, "exit_time", "date-time", "optional RFC 3339 exit time (orders the journal; default: the trade date, else the recording time)")
		timeText(sc, "trade_date", "date", "optional YYYY-MM-DD day of the exit, used when exit_time is omitted")
		text(sc, "setup", 0, MaxLabelLen, "optional setup label")
		text(sc, "strategy", 0, MaxLabelLen, "optional strategy label; the journal filters on it")
		tags := sc.Properties["tags"]
		tags.MaxItems, tags.Description = ptr(MaxTags), "optional labels, at most 16"
		tags.Items.MinLength, tags.Items.MaxLength = ptr(1), ptr(MaxTagLen)
		tags.Items.Examples = []any{"earnings"}
		text(sc, "notes", 0, MaxNotesLen, "optional notes, up to 5,000 characters, sealed at rest")
		bounded(sc, "mfe_r", 0, MaxR, "optional maximum favourable excursion in R (used by get_trading_biases)")
		bounded(sc, "mae_r", 0, MaxR, "optional maximum adverse excursion in R, as a magnitude >= 0")
		examples(sc, map[string]any{"symbol": "AAPL", "entry_price": "100", "exit_price": "110", "quantity": "10",
			"stop_price": "95", "r_multiple": "2", "pnl": "100", "fees": "1.50", "entry_time": "2026-03-09T14:30:00Z",
			"exit_time": "2026-03-10T15:00:00Z", "trade_date": "2026-03-10", "setup": "breakout", "strategy": "momentum",
			"notes": "entered on volume", "mfe_r": "2.5", "mae_r": "0.4"})
	}), func(sc *jsonschema.Schema) {
		sc.AnyOf = []*jsonschema.Schema{{Required: []string{"r_multiple"}}, {Required: []string{"stop_price"}}}
	})
}

type biasArgs struct {
	Trades        []biasTradeArgs `json:"trades,omitempty"`
	LookbackCount *int            `json:"lookback_count,omitempty"`
}

type biasTradeArgs struct {
	RMultiple     toolkit.Float  `json:"r_multiple"`
	HoldTimeHours *toolkit.Float `json:"hold_time_hours,omitempty"`
	Direction     string         `json:"direction,omitempty"`
	Symbol        string         `json:"symbol,omitempty"`
	Size          *toolkit.Float `json:"size,omitempty"`
	EntryTime     string         `json:"entry_time,omitempty"`
	ExitTime      string         `json:"exit_time,omitempty"`
	MFER          *toolkit.Float `json:"mfe_r,omitempty"`
}

func (s *Service) biasesTool() catalog.Tool {
	return catalog.WithRequirements(catalog.NewTool(catalog.Spec{
		Name: "get_trading_biases",
		Description: "Behavioural biases of the latest lookback_count trades (default 50), given or read from the calling agent's journal: " +
			"disposition effect, recency, overtrading, loss aversion and revenge trading, each with its statistic, a one-sided test " +
			"(p < 0.05) and documented thresholds; severity LOW, MEDIUM or HIGH.",
		Category: categoryJournal,
	}, func(ctx context.Context, call catalog.Call, a biasArgs) (BiasResult, error) {
		agentID, err := agentOf(call)
		if err != nil {
			return BiasResult{}, err
		}
		in := BiasInput{}
		if a.LookbackCount != nil {
			in.Lookback = *a.LookbackCount
		}
		if a.Trades != nil {
			if in.Trades, err = biasTrades(a.Trades); err != nil {
				return BiasResult{}, err
			}
		}
		return s.Biases(ctx, agentID, in)
	}, func(sc *jsonschema.Schema) {
		trades := sc.Properties["trades"]
		trades.MinItems, trades.MaxItems = ptr(2), ptr(MaxBiasLookback)
		trades.Description = "optional closed trades, oldest first; omitted: the agent's journal. Each check uses the fields it needs " +
			"(hold_time_hours or entry/exit times; size; mfe_r) and reports insufficient_data without them"
		item := trades.Items
		bounded(item, "r_multiple", -MaxR, MaxR, "result in R")
		bounded(item, "hold_time_hours", 0, 1e6, "optional holding time in hours (default exit_time - entry_time)")
		item.Properties["direction"].Enum = []any{"long", "short", "LONG", "SHORT", "Long", "Short"}
		item.Properties["direction"].Description = "optional; accepted for compatibility, not used by the checks"
		text(item, "symbol", 0, MaxSymbolLen, "optional; accepted for compatibility, not used by the checks")
		positive(item, "size", "optional position size (notional or money at risk, one convention for all trades)")
		timeText(item, "entry_time", "date-time", "optional RFC 3339 entry time")
		timeText(item, "exit_time", "date-time", "optional RFC 3339 exit time")
		bounded(item, "mfe_r", 0, MaxR, "optional maximum favourable excursion in R")
		trades.Examples = []any{[]any{
			map[string]any{"r_multiple": "1.5", "hold_time_hours": "20", "size": "1000", "mfe_r": "2.2"},
			map[string]any{"r_multiple": "-1", "hold_time_hours": "52", "size": "1000", "mfe_r": "0.3"},
		}}
		examples(item, map[string]any{"r_multiple": "1.5", "hold_time_hours": "20", "symbol": "AAPL", "size": "1000",
			"entry_time": "2026-03-09T14:30:00Z", "exit_time": "2026-03-10T10:30:00Z", "mfe_r": "2.2"})
		p := sc.Properties["lookback_count"]
		p.Minimum, p.Maximum, p.Default = ptr(2.0), ptr(float64(MaxBiasLookback)), json.RawMessage("50")
		p.Description = "the latest trades analysed, 2 to 10,000"
	}), func(sc *jsonschema.Schema) {
		sc.AnyOf = []*jsonschema.Schema{{Required: []string{"trades"}},
			{Description: "without trades: the agent's journal, which must hold at least 2 trades"}}
	})
}

// biasTrades converts the tool's trades, naming the item of a bad time.
func biasTrades(args []biasTradeArgs) ([]performance.BiasTrade, error) {
	out := make([]performance.BiasTrade, len(args))
	for i, a := range args {
		t := performance.BiasTrade{RMultiple: float64(a.RMultiple), HoldTimeHours: floatPtr(a.HoldTimeHours),
			Size: floatPtr(a.Size), MFER: floatPtr(a.MFER)}
		var err error
		if t.EntryTime, err = ParseTime("entry_time", a.EntryTime); err != nil {
			return nil, invalid("trades: item %d: %s", i, messageOf(err))
		}
		if t.ExitTime, err = ParseTime("exit_time", a.ExitTime); err != nil {
			return nil, invalid("trades: item %d: %s", i, messageOf(err))
		}
		out[i] = t
	}
	return out, nil
}

// ParseTime parses an optional RFC 3339 date-time or YYYY-MM-DD date
// (midnight UTC) named field; "" is nil.
func ParseTime(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, toolkit.Errorf(toolkit.Invalid, "%s: must be an RFC 3339 time like 2026-03-09T14:30:00Z or a date like 2026-03-09 (got %s)",
		field, quoteShort(s))
}

func floatPtr(f *toolkit.Float) *float64 {
	if f == nil {
		return nil
	}
	v := float64(*f)
	return &v
}

func ptr[T any](v T) *T { return &v }

// Schema helpers of the tools' arguments.

func text(s *jsonschema.Schema, name string, minLen, maxLen int, description string) {
	p := s.Properties[name]
	if minLen > 0 {
		p.MinLength = ptr(minLen)
	}
	p.MaxLength, p.Description = ptr(maxLen), description
}

func enum(s *jsonschema.Schema, name, description string, values ...any) {
	p := s.Properties[name]
	p.Enum, p.Description = values, description
}

func positive(s *jsonschema.Schema, name, description string) {
	p := s.Properties[name]
	p.ExclusiveMinimum, p.Description = ptr(0.0), description
}

func bounded(s *jsonschema.Schema, name string, lo, hi float64, description string) {
	p := s.Properties[name]
	p.Minimum, p.Maximum, p.Description = ptr(lo), ptr(hi), description
}

func examples(s *jsonschema.Schema, values map[string]any) {
	for name, v := range values {
		s.Properties[name].Examples = []any{v}
	}
}

func timeText(s *jsonschema.Schema, name, format, description string) {
	p := s.Properties[name]
	p.Format, p.MaxLength, p.Description = format, ptr(40), description
}
