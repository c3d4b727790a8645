package workspace

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// MemoryRecord is a memory as stored: its text is sealed.
type MemoryRecord struct {
	// ID is the memory's id ("mem_..."), chosen by the Service.
	ID      string
	AgentID string
	// Content, Category and Metadata are ciphertexts; Metadata is nil when
	// the memory has none.
	Content  []byte
	Category []byte
	Metadata []byte
	// CategoryHash is the keyed hash of the normalised category (filter).
	CategoryHash []byte
	// Bytes is the plaintext size counted against the agent's quota.
	Bytes int64
	// Length is the memory's length in terms (BM25's |D|).
	Length int64
	// Postings are the memory's index entries, one per distinct term. They
	// are written by AddMemory and not returned by reads.
	Postings []Posting
	StoredAt time.Time
}

// Posting is one distinct term of a memory in the search index.
type Posting struct {
	// TermHash is the keyed hash of the agent id and the term.
	TermHash []byte
	// Count is the number of occurrences of the term in the memory (> 0).
	Count int64
}

// MemoryQuota bounds one agent's memories.
type MemoryQuota struct {
	MaxCount int64
	MaxBytes int64
}

// IndexQuery asks the index about some terms of one agent.
type IndexQuery struct {
	AgentID string
	// TermHashes are the distinct query terms (at least one).
	TermHashes [][]byte
	// CategoryHash, when not nil, keeps only matches of that category.
	CategoryHash []byte
}

// IndexSnapshot is what BM25 needs to rank one query: corpus figures over
// ALL the agent's memories, and the memories (of the category, if one was
// asked) holding at least one query term.
type IndexSnapshot struct {
	// Memories is the number of the agent's memories; Length the sum of
	// their lengths in terms.
	Memories int64
	Length   int64
	// DocFreq maps string(term hash) to the number of the agent's memories
	// holding the term (every category); absent terms are missing or 0.
	DocFreq map[string]int64
	// Matches are the candidate memories, in any order.
	Matches []IndexMatch
}

// IndexMatch is a memory holding at least one query term.
type IndexMatch struct {
	MemoryID string
	StoredAt time.Time
	Length   int64
	// Counts maps string(term hash) to the term's count in the memory.
	Counts map[string]int64
}

// TradeRecord is a journal trade as stored: its text is sealed.
type TradeRecord struct {
	// ID is the trade's id ("trd_..."), chosen by the Service.
	ID      string
	AgentID string
	// SymbolHash and StrategyHash are keyed hashes (filters);
	// StrategyHash is nil without a strategy.
	SymbolHash   []byte
	StrategyHash []byte
	// Labels is the sealed JSON of symbol, setup, strategy and tags; Notes
	// the sealed notes (nil without notes). Both are nil in reads made
	// with TradeQuery.WithoutText.
	Labels []byte
	Notes  []byte
	// Direction is "long" or "short".
	Direction string
	// EntryPrice, ExitPrice, StopPrice and Quantity are canonical decimal
	// strings; StopPrice is nil when not given.
	EntryPrice string
	ExitPrice  string
	StopPrice  *string
	Quantity   string
	RMultiple  float64
	// RDerived is true when RMultiple was derived from the prices.
	RDerived bool
	// PnLMicros and FeesMicros are in micro-units of the quote currency.
	PnLMicros  int64
	FeesMicros int64
	// MFER and MAER are the maximum favourable/adverse excursions in R.
	MFER *float64
	MAER *float64
	// EntryTime and ExitTime are as given; ClosedAt orders the journal
	// (exit time, else the trade date, else the recording time).
	EntryTime  *time.Time
	ExitTime   *time.Time
	ClosedAt   time.Time
	RecordedAt time.Time
}

// TradeQuery selects one agent's trades, newest first (ClosedAt
// descending, then ID descending).
type TradeQuery struct {
	AgentID string
	// SymbolHash and StrategyHash, when not nil, keep only equal hashes.
	SymbolHash   []byte
	StrategyHash []byte
	// From and To, when set, keep From <= ClosedAt < To.
	From *time.Time
	To   *time.Time
	// After continues strictly after a trade's (ClosedAt, ID) (nil: from
	// the newest).
	After *toolkit.Cursor
	// Limit bounds the rows (<= 0: every match).
	Limit int
	// WithoutText leaves Labels and Notes nil (statistics need numbers
	// only).
	WithoutText bool
}

// Store persists the workspace. Every method is one transaction.
// Implementations live in adapters and must pass adapters/storetest.
// Errors are *toolkit.Error values.
type Store interface {
	// AddMemory stores m with its postings when the agent's memories stay
	// within q afterwards: a memory beyond q.MaxCount fails with
	// MemoryCountExceeded, one beyond q.MaxBytes with MemoryBytesExceeded
	// (the count is checked first); nothing is written then. A duplicate
	// id is toolkit.Conflict; an unknown agent toolkit.NotFound.
	AddMemory(ctx context.Context, m MemoryRecord, q MemoryQuota) error
	// MemoryIndex answers one search (see IndexSnapshot).
	MemoryIndex(ctx context.Context, q IndexQuery) (IndexSnapshot, error)
	// Memories returns the agent's memories among ids, without postings,
	// in any order; ids of other agents or of no memory are skipped.
	Memories(ctx context.Context, agentID string, ids []string) ([]MemoryRecord, error)
	// DeleteMemory removes one of the agent's memories with its postings
	// and gives its quota back; another agent's memory is toolkit.NotFound.
	DeleteMemory(ctx context.Context, agentID, id string) error
	// AddTrade stores t when the agent's journal holds fewer than
	// maxTrades trades (else JournalFull, nothing written). A duplicate id
	// is toolkit.Conflict; an unknown agent toolkit.NotFound.
	AddTrade(ctx context.Context, t TradeRecord, maxTrades int64) error
	// DeleteTrade removes one of the agent's trades and gives its quota
	// back; another agent's trade is toolkit.NotFound.
	DeleteTrade(ctx context.Context, agentID, id string) error
	// Trades returns up to q.Limit of the agent's trades matching q,
	// newest first.
	Trades(ctx context.Context, q TradeQuery) ([]TradeRecord, error)
}
