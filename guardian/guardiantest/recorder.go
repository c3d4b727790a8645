// Package guardiantest helps tests of packages that record security
// events: Recorder keeps every event it is given.
package guardiantest

import (
	"context"
	"sync"

	"github.com/agentfinance/toolkit/guardian"
)

// Recorder is a guardian.Recorder that keeps every event, in order, for
// tests to inspect. It is safe for concurrent use; the zero value is ready.
type Recorder struct {
	mu     sync.Mutex
	events []guardian.Event
}

var _ guardian.Recorder = (*Recorder)(nil)

// Record keeps e, with its Source taken from ctx when unset.
func (r *Recorder) Record(ctx context.Context, e guardian.Event) {
	if e.Source == "" {
		e.Source = guardian.SourceFrom(ctx)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// Events returns a copy of the events recorded so far.
func (r *Recorder) Events() []guardian.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]guardian.Event(nil), r.events...)
}

// Types returns the types of the events recorded so far, in order.
func (r *Recorder) Types() []guardian.Type {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]guardian.Type, len(r.events))
	for i, e := range r.events {
		out[i] = e.Type
	}
	return out
}
