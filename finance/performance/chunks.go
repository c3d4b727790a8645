package performance

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/agentfinance/toolkit"
)

// forChunks calls work(lo, hi) on consecutive chunks [lo, hi) of 0..n-1,
// of chunk indexes each, on up to workers goroutines (0 means GOMAXPROCS)
// that take the next chunk from a shared counter, so a worker slowed by a
// busy core does not hold the others up. Before each chunk it checks ctx:
// once ctx is done no new chunk starts and forChunks returns ctx.Err(). A
// panic in a worker becomes a toolkit.Internal error instead of ending the
// process. work must write only its own indexes, so the split never
// changes the result.
func forChunks(ctx context.Context, n, chunk, workers int, work func(lo, hi int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, (n+chunk-1)/chunk))
	var next atomic.Int64
	run := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = &toolkit.Error{Kind: toolkit.Internal, Op: "performance.forChunks", Err: fmt.Errorf("panic: %v", p)}
			}
		}()
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return nil
			}
			work(lo, min(lo+chunk, n))
		}
	}
	if workers == 1 {
		return run()
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs[w] = run() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
