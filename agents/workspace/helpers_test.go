package workspace_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

var ctx = context.Background()

// bench is a workspace Service over memstore with an injected clock (one
// second per call), real Tink keys, and a recorder of what reaches the
// store.
type bench struct {
	svc    *workspace.Service
	store  *memstore.Store
	rec    *recordingStore
	now    time.Time
	owners map[string]bool
}

type option func(*workspace.Config)

func newBench(t testing.TB, opts ...option) *bench {
	t.Helper()
	b := &bench{store: memstore.New(), now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), owners: map[string]bool{}}
	b.rec = &recordingStore{Store: b.store}
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	cfg := workspace.Config{Vault: cryptovault.New(keys), Now: func() time.Time {
		b.now = b.now.Add(time.Second)
		return b.now
	}}
	for _, o := range opts {
		o(&cfg)
	}
	b.svc, err = workspace.NewService(b.rec, cfg)
	require.NoError(t, err)
	return b
}

// agent stores an agent of owner and returns its id.
func (b *bench) agent(t testing.TB, id, owner string) string {
	t.Helper()
	digest := sha256.Sum256([]byte(id))
	require.NoError(t, b.store.CreateAgent(ctx, agents.Registration{Agent: agents.Agent{ID: id, OwnerID: owner, Name: id,
		Type: agents.TypeTrading, Mode: agents.ModeSandbox, CreatedAt: b.now}, KeyDigest: digest[:], NewOwner: !b.owners[owner]}))
	b.owners[owner] = true
	return id
}

// recordingStore keeps every memory and trade written, as the store saw
// them.
type recordingStore struct {
	workspace.Store
	mu       sync.Mutex
	memories []workspace.MemoryRecord
	trades   []workspace.TradeRecord
}

func (r *recordingStore) AddMemory(ctx context.Context, m workspace.MemoryRecord, q workspace.MemoryQuota) error {
	r.mu.Lock()
	r.memories = append(r.memories, m)
	r.mu.Unlock()
	return r.Store.AddMemory(ctx, m, q)
}

func (r *recordingStore) AddTrade(ctx context.Context, t workspace.TradeRecord, max int64) error {
	r.mu.Lock()
	r.trades = append(r.trades, t)
	r.mu.Unlock()
	return r.Store.AddTrade(ctx, t, max)
}

// written returns every byte the store was given, for plaintext checks.
func (r *recordingStore) written() []byte {
	var all bytes.Buffer
	for _, m := range r.memories {
		for _, b := range [][]byte{m.Content, m.Category, m.Metadata, m.CategoryHash} {
			all.Write(b)
		}
		for _, p := range m.Postings {
			all.Write(p.TermHash)
		}
	}
	for _, t := range r.trades {
		for _, b := range [][]byte{t.Labels, t.Notes, t.SymbolHash, t.StrategyHash} {
			all.Write(b)
		}
	}
	return all.Bytes()
}
