// Package workspace is an agent's own workspace: memories with a
// relevance-ranked search, a trade journal with its statistics, and the
// behavioural-bias analysis of that journal. It also builds the four
// workspace tools (store_memory, search_memory, record_trade_journal,
// get_trading_biases) that httpapi/platform registers into the tool catalog.
//
// # Isolation
//
// Every read and write names the calling agent; a memory or trade of
// another agent, even of the same owner, is never returned and is
// NotFound exactly like a missing one.
//
// # Encryption at rest
//
// All stored text is sealed with the agent's own key (cryptovault.Vault)
// before it reaches the Store and opened only on the way out: memory
// content, category and metadata; the journal's labels (symbol, setup,
// strategy, tags) and notes. Each ciphertext is bound to its agent, its
// field and its record id. Lookups use keyed hashes (Vault.Hash) that
// include the agent id, so the same word or symbol of two agents hashes
// differently:
//
//   - the memory search index stores, per memory, the keyed hash of each
//     distinct term with its count, and the memory's length in terms —
//     never a term in the clear (see Terms and the BM25 ranking in
//     bm25.go);
//   - memory categories, journal symbols and strategies are filtered by
//     their keyed hashes.
//
// Numbers (prices, quantities, R-multiples, P&L), directions and times
// are stored in the clear: statistics and date filters run on them.
package workspace

import (
	"crypto/rand"
	"errors"
	"io"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
)

// Default per-agent quotas.
const (
	// DefaultMaxMemories is the default number of memories one agent may
	// keep.
	DefaultMaxMemories = 10_000
	// DefaultMaxMemoryBytes is the default total size of one agent's
	// memories (content, category and metadata, in UTF-8 bytes): 10 MiB.
	DefaultMaxMemoryBytes = 10 << 20
	// DefaultMaxTrades is the default number of journal trades one agent
	// may keep.
	DefaultMaxTrades = 100_000
)

// Config configures a Service. Vault is required; zero fields take
// defaults.
type Config struct {
	// Vault seals what agents write and hashes the index terms.
	Vault *cryptovault.Vault
	// MaxMemories bounds an agent's memories (default DefaultMaxMemories).
	MaxMemories int64
	// MaxMemoryBytes bounds the total size of an agent's memories
	// (default DefaultMaxMemoryBytes).
	MaxMemoryBytes int64
	// MaxTrades bounds an agent's journal (default DefaultMaxTrades).
	MaxTrades int64
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of record ids (default crypto/rand).
	Random io.Reader
}

// Service is the agents' workspace. It is safe for concurrent use.
type Service struct {
	store Store
	vault *cryptovault.Vault
	cfg   Config
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) (*Service, error) {
	if store == nil {
		return nil, errors.New("workspace: a Store is required")
	}
	if cfg.Vault == nil {
		return nil, errors.New("workspace: a Vault is required: workspace text is sealed at rest")
	}
	if cfg.MaxMemories <= 0 {
		cfg.MaxMemories = DefaultMaxMemories
	}
	if cfg.MaxMemoryBytes <= 0 {
		cfg.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	if cfg.MaxTrades <= 0 {
		cfg.MaxTrades = DefaultMaxTrades
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	return &Service{store: store, vault: cfg.Vault, cfg: cfg}, nil
}

// timestamp is the current time as stored: UTC, microseconds (the
// precision of both databases).
func (s *Service) timestamp() time.Time {
	return s.cfg.Now().UTC().Truncate(time.Microsecond)
}

// Record id prefixes.
const (
	memoryIDPrefix = "mem_"
	tradeIDPrefix  = "trd_"
)

// newID returns a record id with prefix (toolkit.NewID).
func (s *Service) newID(prefix string) (string, error) {
	return toolkit.NewID(s.cfg.Random, prefix)
}

// validID reports whether id has the shape of an id newID makes with
// prefix.
func validID(prefix, id string) bool { return toolkit.ValidID(prefix, id) }

// Sealed fields (bound to one record id) and keyed-hash fields (bound to
// one agent through the hashed value).
const (
	fieldMemoryContent  = "workspace.memory.content"
	fieldMemoryCategory = "workspace.memory.category"
	fieldMemoryMetadata = "workspace.memory.metadata"
	fieldTradeLabels    = "workspace.journal.labels"
	fieldTradeNotes     = "workspace.journal.notes"

	hashMemoryTerm     = "workspace.memory.term"
	hashMemoryCategory = "workspace.memory.category"
	hashTradeSymbol    = "workspace.journal.symbol"
	hashTradeStrategy  = "workspace.journal.strategy"
)

// sealedField names a sealed field of one record.
func sealedField(name, recordID string) string { return name + ":" + recordID }

// agentHash is the keyed hash of an agent's value under field: the agent
// id is part of the hashed bytes, so two agents' equal values differ.
func (s *Service) agentHash(field, agentID, value string) ([]byte, error) {
	return s.vault.Hash(field, []byte(agentID+"\x00"+value))
}

// invalid returns a toolkit.Invalid error; the format names the field.
func invalid(format string, args ...any) error {
	return toolkit.Errorf(toolkit.Invalid, format, args...)
}

// messageOf returns the client-safe message of a toolkit error (the
// error's text otherwise).
func messageOf(err error) string {
	var e *toolkit.Error
	if errors.As(err, &e) && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}

// MemoryCountExceeded is the error of a memory that would exceed the
// agent's count quota (toolkit.Conflict). Stores return it.
func MemoryCountExceeded(max int64) error {
	return toolkit.Errorf(toolkit.Conflict,
		"Memory limit reached: an agent keeps at most %d memories; delete some (DELETE /v1/memory/{memory_id}) before storing more", max)
}

// MemoryBytesExceeded is the error of a memory that would exceed the
// agent's storage quota (toolkit.TooLarge). Stores return it.
func MemoryBytesExceeded(max, used, need int64) error {
	return toolkit.Errorf(toolkit.TooLarge,
		"Memory storage limit reached: an agent keeps at most %d bytes of memories; %d are used and this memory needs %d", max, used, need)
}

// JournalFull is the error of a trade that would exceed the agent's
// journal quota (toolkit.Conflict). Stores return it.
func JournalFull(max int64) error {
	return toolkit.Errorf(toolkit.Conflict, "Journal limit reached: an agent keeps at most %d trades", max)
}
