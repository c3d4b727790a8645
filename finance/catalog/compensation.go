package catalog

import (
	"context"
	"errors"
	"sync"
)

// Compensation collects how to undo the writes of a tool call. A tool that
// writes (a workspace tool storing a memory or a journal trade) adds the
// undo of each write it made; the caller runs them when it discards the
// call's answer (the call was not charged: its balance was spent
// meanwhile, a cap was reached, a concurrent retry with the same
// idempotency key won, or the caller went away), so a refused call leaves
// nothing behind. The zero value is ready; a nil *Compensation discards
// what is added (a direct Go call keeps its writes). It is safe for
// concurrent use.
type Compensation struct {
	mu   sync.Mutex
	undo []func(context.Context) error
}

// Add records the undo of one write.
func (c *Compensation) Add(undo func(context.Context) error) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.undo = append(c.undo, undo)
}

// Pending reports whether there are writes to undo.
func (c *Compensation) Pending() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.undo) > 0
}

// Run undoes the recorded writes, newest first, once: it runs every undo
// even when one fails and returns the failures joined.
func (c *Compensation) Run(ctx context.Context) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	undo := c.undo
	c.undo = nil
	c.mu.Unlock()
	var errs []error
	for i := len(undo) - 1; i >= 0; i-- {
		errs = append(errs, undo[i](ctx))
	}
	return errors.Join(errs...)
}
