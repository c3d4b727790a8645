package migrations

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// workspaceUsage1 is what one agent's workspace holds: the quota counters
// and BM25's corpus figures (memory count and total length in terms).
// Writes update it with conditional UPDATEs, like a balance.
type workspaceUsage1 struct {
	bun.BaseModel `bun:"table:workspace_usage"`
	AgentID       string `bun:"agent_id,pk"`
	MemoryCount   int64  `bun:"memory_count,notnull"`
	MemoryBytes   int64  `bun:"memory_bytes,notnull"`
	MemoryTerms   int64  `bun:"memory_terms,notnull"`
	TradeCount    int64  `bun:"trade_count,notnull"`
}

// memory1 is a memory; content, category and metadata are ciphertexts,
// category_hash a keyed hash. The fixed-size columns come first, so a
// search reads term_count and stored_at without walking the overflow pages
// of a long content.
type memory1 struct {
	bun.BaseModel `bun:"table:memories"`
	ID            string    `bun:"id,pk"`
	AgentID       string    `bun:"agent_id,notnull"`
	CategoryHash  []byte    `bun:"category_hash,notnull"`
	SizeBytes     int64     `bun:"size_bytes,notnull"`
	TermCount     int64     `bun:"term_count,notnull"`
	StoredAt      time.Time `bun:"stored_at,notnull"`
	Content       []byte    `bun:"content,notnull"`
	Category      []byte    `bun:"category,notnull"`
	Metadata      []byte    `bun:"metadata"`
}

// memoryTerm1 is a posting of the search index: the keyed hash of one
// distinct term of a memory and its number of occurrences.
type memoryTerm1 struct {
	bun.BaseModel `bun:"table:memory_terms"`
	MemoryID      string `bun:"memory_id,pk"`
	TermHash      []byte `bun:"term_hash,pk"`
	AgentID       string `bun:"agent_id,notnull"`
	Occurrences   int64  `bun:"occurrences,notnull"`
}

// journalTrade1 is a journal trade; labels and notes are ciphertexts,
// symbol_hash and strategy_hash keyed hashes; prices and quantities are
// canonical decimal text, money int64 micro-units.
type journalTrade1 struct {
	bun.BaseModel `bun:"table:journal_trades"`
	ID            string     `bun:"id,pk"`
	AgentID       string     `bun:"agent_id,notnull"`
	SymbolHash    []byte     `bun:"symbol_hash,notnull"`
	StrategyHash  []byte     `bun:"strategy_hash"`
	Labels        []byte     `bun:"labels,notnull"`
	Notes         []byte     `bun:"notes"`
	Direction     string     `bun:"direction,notnull"`
	EntryPrice    string     `bun:"entry_price,notnull"`
	ExitPrice     string     `bun:"exit_price,notnull"`
	StopPrice     *string    `bun:"stop_price"`
	Quantity      string     `bun:"quantity,notnull"`
	RMultiple     float64    `bun:"r_multiple,notnull"`
	RDerived      bool       `bun:"r_derived,notnull"`
	PnLMicros     int64      `bun:"pnl_micros,notnull"`
	FeesMicros    int64      `bun:"fees_micros,notnull"`
	MFER          *float64   `bun:"mfe_r"`
	MAER          *float64   `bun:"mae_r"`
	EntryTime     *time.Time `bun:"entry_time"`
	ExitTime      *time.Time `bun:"exit_time"`
	ClosedAt      time.Time  `bun:"closed_at,notnull"`
	RecordedAt    time.Time  `bun:"recorded_at,notnull"`
}

// brokerConnection1 is an agent's one broker connection; params is the
// sealed JSON of its parameters.
type brokerConnection1 struct {
	bun.BaseModel `bun:"table:broker_connections"`
	AgentID       string    `bun:"agent_id,pk"`
	ID            string    `bun:"id,notnull,unique"`
	BrokerType    string    `bun:"broker_type,notnull"`
	Params        []byte    `bun:"params,notnull"`
	ConnectedAt   time.Time `bun:"connected_at,notnull"`
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			fk := `("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE`
			table := func(model any, fks ...string) func() error {
				return func() error {
					q := tx.NewCreateTable().Model(model)
					for _, f := range fks {
						q = q.ForeignKey(f)
					}
					_, err := q.Exec(ctx)
					return err
				}
			}
			index := func(model any, name string, columns ...string) func() error {
				return func() error {
					_, err := tx.NewCreateIndex().Model(model).Index(name).Column(columns...).Exec(ctx)
					return err
				}
			}
			steps := []func() error{
				table((*workspaceUsage1)(nil), fk),
				table((*memory1)(nil), fk),
				index((*memory1)(nil), "memories_agent_category_idx", "agent_id", "category_hash"),
				table((*memoryTerm1)(nil), fk, `("memory_id") REFERENCES "memories" ("id") ON DELETE CASCADE`),
				// Covering: a search reads its postings from the index alone.
				index((*memoryTerm1)(nil), "memory_terms_agent_term_idx", "agent_id", "term_hash", "memory_id", "occurrences"),
				table((*journalTrade1)(nil), fk),
				index((*journalTrade1)(nil), "journal_trades_agent_idx", "agent_id", "closed_at", "id"),
				index((*journalTrade1)(nil), "journal_trades_symbol_idx", "agent_id", "symbol_hash", "closed_at", "id"),
				index((*journalTrade1)(nil), "journal_trades_strategy_idx", "agent_id", "strategy_hash", "closed_at", "id"),
				table((*brokerConnection1)(nil), fk),
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, m := range []any{(*brokerConnection1)(nil), (*journalTrade1)(nil), (*memoryTerm1)(nil), (*memory1)(nil),
				(*workspaceUsage1)(nil)} {
				if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
