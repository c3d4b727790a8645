package bunstore

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// connectionLossHook drops the pool's idle connections when a query finds
// its connection lost (the database restarted, failed over, or ended the
// connection). The idle ones went to the same server and would each fail
// once, one request at a time; new ones go to whichever server answers
// now (on a multi-host URL, a promoted standby). Connections in use are
// left alone: they are dropped when they fail.
type connectionLossHook struct {
	db      *sql.DB
	maxIdle int
	last    atomic.Int64 // when the idle connections were last dropped (Unix ns)
}

var _ bun.QueryHook = (*connectionLossHook)(nil)

// connectionLossEvery bounds how often the idle connections are dropped
// while the database stays unreachable.
const connectionLossEvery = 100 * time.Millisecond

// BeforeQuery implements bun.QueryHook.
func (*connectionLossHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (h *connectionLossHook) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	if e.Err == nil || !isConnectionError(e.Err) {
		return
	}
	now, last := time.Now().UnixNano(), h.last.Load()
	if now-last < int64(connectionLossEvery) || !h.last.CompareAndSwap(last, now) {
		return
	}
	h.db.SetMaxIdleConns(0) // closes every idle connection
	h.db.SetMaxIdleConns(h.maxIdle)
}
