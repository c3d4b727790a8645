// Package canceltest provides contexts for the cancellation tests of the
// finance loops. Import it from tests only.
package canceltest

import (
	"context"
	"sync/atomic"
	"time"
)

// Context is a context that is done once its Err method has been called
// more than a given number of times: a loop that checks its context lets
// exactly that many checks pass and then stops, wherever the checks are.
// It never carries values or a deadline.
type Context struct {
	allowed int64
	checks  atomic.Int64
	done    chan struct{}
	closed  atomic.Bool
}

// AfterChecks returns a Context whose first n calls of Err return nil and
// whose later calls return context.Canceled.
func AfterChecks(n int) *Context {
	return &Context{allowed: int64(n), done: make(chan struct{})}
}

// Err returns nil for the first n calls, then context.Canceled.
func (c *Context) Err() error {
	if c.checks.Add(1) <= c.allowed {
		return nil
	}
	if c.closed.CompareAndSwap(false, true) {
		close(c.done)
	}
	return context.Canceled
}

// Checks returns how many times Err has been called.
func (c *Context) Checks() int { return int(c.checks.Load()) }

// Done is closed once Err has returned context.Canceled.
func (c *Context) Done() <-chan struct{} { return c.done }

// Deadline reports no deadline.
func (*Context) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value returns nil.
func (*Context) Value(any) any { return nil }
