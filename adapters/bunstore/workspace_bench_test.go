package bunstore_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/stretchr/testify/require"
)

// BenchmarkMemoryIndex measures the store's half of a memory search: the
// corpus figures, document frequencies and candidate postings of 3 terms
// over 2,000 memories of 30 distinct terms drawn from 200 (each term in
// about 300 memories, 780 candidates) with 2 KB of sealed content each, on
// SQLite and (with TOOLKIT_TEST_POSTGRES_URL) Postgres.
func BenchmarkMemoryIndex(b *testing.B) {
	engines := map[string]func(b *testing.B) *bunstore.Store{
		"sqlite": func(b *testing.B) *bunstore.Store { return openBench(b, filepath.Join(b.TempDir(), "bench.db"), "") },
	}
	if dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL"); dsn != "" {
		engines["postgres"] = func(b *testing.B) *bunstore.Store { return openBench(b, dsn, bunstoretest.FreshSchema(b, dsn)) }
	}
	hash := func(term int) []byte { h := sha256.Sum256(fmt.Appendf(nil, "term-%d", term)); return h[:] }
	for name, open := range engines {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			ctx := context.Background()
			a := agents.Agent{ID: "agt_bench", OwnerID: "bench", Name: "b", Type: agents.TypeTrading,
				Mode: agents.ModeSandbox, CreatedAt: time.Now().UTC()}
			require.NoError(b, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("bench-digest"), NewOwner: true}))
			r := rand.New(rand.NewPCG(5, 6))
			quota := workspace.MemoryQuota{MaxCount: 1 << 40, MaxBytes: 1 << 50}
			content := make([]byte, 2048)
			for i := range 2000 {
				m := workspace.MemoryRecord{ID: fmt.Sprintf("mem_%016d", i), AgentID: a.ID, Content: content, Category: []byte("c"),
					CategoryHash: hash(-1), Bytes: 100, Length: 30, StoredAt: time.Now().UTC()}
				for _, term := range r.Perm(200)[:30] {
					m.Postings = append(m.Postings, workspace.Posting{TermHash: hash(term), Count: 1})
				}
				require.NoError(b, s.AddMemory(ctx, m, quota))
			}
			q := workspace.IndexQuery{AgentID: a.ID, TermHashes: [][]byte{hash(1), hash(2), hash(3)}}
			b.ReportAllocs()
			for b.Loop() {
				snap, err := s.MemoryIndex(ctx, q)
				if err != nil || len(snap.Matches) == 0 {
					b.Fatal(err, len(snap.Matches))
				}
			}
		})
	}
}
