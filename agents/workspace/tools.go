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

// Operations (price-table keys) of the workspace tools, priced in their
// Specs. get_trading_biases is an analysis like the other R tools and is
// free; so are the journal's REST reads.
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
// them into the catalog the API serves (with Categories); each acts for
// the calling agent (catalog.Call.AgentID). store_memory and record_trade_journal append
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
	Content  string      `json:"content"`
	Category string      `json:"category,omitempty"`
	Metadata metadataArg `json:"metadata,omitempty"`
}

func (s *Service) storeMemoryTool() catalog.Tool {
	return catalog.NewTool(catalog.Spec{
		Name:        "store_memory",
		Title:       "Store Memory",
		Description: "Store a memory in the agent's private workspace, indexed for search_memory, sealed at rest; 10,000 memories, 10 MiB max.",
		Category:    categoryMemory, Operation: OpStoreMemory,
		// The published SDK's price.
		Prices: map[string]toolkit.Amount{OpStoreMemory: toolkit.MustParseAmount("0.002")},
		Docs:   toolDocs("store_memory"),
	}, func(ctx context.Context, call catalog.Call, in storeMemoryArgs) (StoredMemory, error) {
		agentID, err := agentOf(call)
		if err != nil {
			return StoredMemory{}, err
		}
		m, err := s.StoreMemory(ctx, agentID, MemoryInput{Content: in.Content, Category: in.Category, Metadata: json.RawMessage(in.Metadata)})
		if err == nil {
			call.Undo.Add(func(ctx context.Context) error { return s.DeleteMemory(ctx, agentID, m.MemoryID) })
		}
		return m, err
	}, func(sc *jsonschema.Schema) {
		text(sc, "content", 1, MaxContentLen, "the memory text, indexed for search")
		text(sc, "category", 1, MaxCategoryLen, "label search_memory filters on; default \"general\"")
		sc.Properties["metadata"] = &jsonschema.Schema{Type: "object", MaxProperties: ptr(maxMetadataMembers),
			Description: "JSON object up to 4096 bytes, returned with the memory; its JSON text works too"}
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
		Name:        "search_memory",
		Title:       "Search Memories",
		Description: "Search the agent's own memories by BM25 relevance, ties newest first.",
		Category:    categoryMemory, Operation: OpSearchMemory,
		// A read: cheaper than the published 0.002.
		Prices: map[string]toolkit.Amount{OpSearchMemory: toolkit.MustParseAmount("0.001")},
		Docs:   toolDocs("search_memory"),
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
		text(sc, "query", 1, MaxQueryLen, "words to find, at most 32 terms")
		text(sc, "category", 1, MaxCategoryLen, "only memories of this category")
		p := sc.Properties["limit"]
		p.Minimum, p.Maximum, p.Description = ptr(1.0), ptr(float64(MaxSearchLimit)), "number of memories returned"
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
	return catalog.NewTool(catalog.Spec{
		Name:        "record_trade_journal",
		Title:       "Record Trade in Journal",
		Description: "Record a closed trade in the agent's journal; pnl and r_multiple are derived when omitted.",
		Category:    categoryJournal, Operation: OpRecordTradeJournal,
		// The published record_trade_outcome's price and name.
		Prices:  map[string]toolkit.Amount{OpRecordTradeJournal: toolkit.MustParseAmount("0.003")},
		Aliases: []string{"record_trade_outcome"},
		Shortcuts: []catalog.Shortcut{{Path: "/v1/journal/record", OperationID: "recordTrade",
			Summary: "Record a closed trade (tool record_trade_journal; notes sealed at rest)"}},
		Docs: toolDocs("record_trade_journal"),
		Example: map[string]any{"symbol": "AAPL", "direction": "long", "entry_price": "100", "exit_price": "110",
			"quantity": "10", "r_multiple": "2"},
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
		text(sc, "symbol", 1, MaxSymbolLen, "instrument symbol, as quoted")
		enum(sc, "direction", "trade side, any letter case", "long", "short", "LONG", "SHORT", "Long", "Short")
		positive(sc, "entry_price", "average entry price, currency")
		positive(sc, "exit_price", "average exit price, currency")
		positive(sc, "quantity", "shares, contracts or units")
		positive(sc, "stop_price", "initial stop, currency; derives r_multiple")
		bounded(sc, "r_multiple", -MaxR, MaxR, "trade result in R")
		bounded(sc, "pnl", -MaxPnL, MaxPnL, "net P&L, currency; default from prices, quantity and fees")
		bounded(sc, "fees", 0, MaxPnL, "fees paid, currency")
		timeText(sc, "entry_time", "date-time", "entry time, RFC 3339")
		timeText(sc, "exit_time", "date-time", "exit time, RFC 3339; orders the journal")
		timeText(sc, "trade_date", "date", "exit day when exit_time is omitted")
		text(sc, "setup", 0, MaxLabelLen, "label of the entry setup")
		text(sc, "strategy", 0, MaxLabelLen, "strategy label, filterable")
		tags := sc.Properties["tags"]
		tags.MaxItems, tags.Description = ptr(MaxTags), "free labels of the trade"
		tags.Items.MinLength, tags.Items.MaxLength = ptr(1), ptr(MaxTagLen)
		tags.Items.Examples = []any{"earnings"}
		text(sc, "notes", 0, MaxNotesLen, "free notes, sealed at rest")
		bounded(sc, "mfe_r", 0, MaxR, "max favourable excursion in R")
		bounded(sc, "mae_r", 0, MaxR, "max adverse excursion in R, a magnitude")
		examples(sc, map[string]any{"symbol": "AAPL", "entry_price": "100", "exit_price": "110", "quantity": "10",
			"stop_price": "95", "r_multiple": "2", "pnl": "100", "fees": "1.50", "entry_time": "2026-03-09T14:30:00Z",
			"exit_time": "2026-03-10T15:00:00Z", "trade_date": "2026-03-10", "setup": "breakout", "strategy": "momentum",
			"notes": "entered on volume", "mfe_r": "2.5", "mae_r": "0.4"})
		catalog.NeedsOneOf(sc, false, []string{"r_multiple"}, []string{"stop_price"})
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
	return catalog.NewTool(catalog.Spec{
		Name:        "get_trading_biases",
		Title:       "Trading Biases",
		Description: "Behavioural biases (disposition, recency, overtrading, loss aversion, revenge) of given or journaled trades, tested, with severity.",
		Category:    categoryJournal,
		Docs:        toolDocs("get_trading_biases"),
		Example: map[string]any{"trades": []any{
			map[string]any{"r_multiple": "1.5", "mfe_r": "2.2", "hold_time_hours": "20", "size": "1000"},
			map[string]any{"r_multiple": "-1", "mfe_r": "0.3", "hold_time_hours": "52", "size": "1000"}}},
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
		trades.Description = "closed trades, oldest first"
		item := trades.Items
		bounded(item, "r_multiple", -MaxR, MaxR, "trade result in R")
		bounded(item, "hold_time_hours", 0, 1e6, "holding time in hours; default from the times")
		item.Properties["direction"].Enum = []any{"long", "short", "LONG", "SHORT", "Long", "Short"}
		item.Properties["direction"].Description = "trade side, not used by the checks"
		item.Properties["direction"].Deprecated = true
		text(item, "symbol", 0, MaxSymbolLen, "instrument symbol, not used by the checks")
		item.Properties["symbol"].Deprecated = true
		positive(item, "size", "position size in currency, notional or at risk")
		timeText(item, "entry_time", "date-time", "entry time, RFC 3339")
		timeText(item, "exit_time", "date-time", "exit time, RFC 3339")
		bounded(item, "mfe_r", 0, MaxR, "max favourable excursion in R")
		trades.Examples = []any{[]any{
			map[string]any{"r_multiple": "1.5", "hold_time_hours": "20", "size": "1000", "mfe_r": "2.2"},
			map[string]any{"r_multiple": "-1", "hold_time_hours": "52", "size": "1000", "mfe_r": "0.3"},
		}}
		examples(item, map[string]any{"r_multiple": "1.5", "hold_time_hours": "20", "symbol": "AAPL", "size": "1000",
			"entry_time": "2026-03-09T14:30:00Z", "exit_time": "2026-03-10T10:30:00Z", "mfe_r": "2.2"})
		p := sc.Properties["lookback_count"]
		p.Minimum, p.Maximum, p.Default = ptr(2.0), ptr(float64(MaxBiasLookback)), json.RawMessage("50")
		p.Description = "number of latest trades analysed"
		catalog.NeedsOneOf(sc, false, []string{"trades"}, []string{"2+ trades in the agent's journal"})
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
