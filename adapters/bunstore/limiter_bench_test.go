package bunstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/guardian"
)

// BenchmarkStoreLimiterTake measures the shared rate limiter: one atomic
// upsert per request, on one hot key and on many keys, on SQLite and
// (with TOOLKIT_TEST_POSTGRES_URL) on Postgres.
func BenchmarkStoreLimiterTake(b *testing.B) {
	engines := map[string]func(b *testing.B) *bunstore.Store{
		"sqlite": func(b *testing.B) *bunstore.Store { return openBench(b, filepath.Join(b.TempDir(), "bench.db"), "") },
	}
	if dsn := os.Getenv("TOOLKIT_TEST_POSTGRES_URL"); dsn != "" {
		engines["postgres"] = func(b *testing.B) *bunstore.Store { return openBench(b, dsn, bunstoretest.FreshSchema(b, dsn)) }
	}
	limit := guardian.NewLimit(1_000_000, time.Second)
	for name, open := range engines {
		for _, keys := range []int{1, 1000} {
			b.Run(fmt.Sprintf("%s/keys=%d", name, keys), func(b *testing.B) {
				lim := guardian.NewStoreLimiter(open(b), nil)
				ctx := context.Background()
				var n atomic.Int64
				b.SetParallelism(8)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := lim.Take(ctx, fmt.Sprintf("key:%d", n.Add(1)%int64(keys)), limit); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}
