package guardian_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/require"
)

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type fixture struct {
	svc   *guardian.Service
	store *memstore.Store
	clock *clock
	logs  *syncBuffer
}

var ctx = context.Background()

// newFixture builds a Service over a fresh store with a fake clock; edit
// tunes the config.
func newFixture(t *testing.T, edit ...func(*guardian.Config)) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(), clock: newClock(), logs: &syncBuffer{}}
	cfg := guardian.Config{Version: "1.2.3", Now: f.clock.Now, Logger: slog.New(slog.NewTextHandler(f.logs, nil))}
	for _, e := range edit {
		e(&cfg)
	}
	var err error
	f.svc, err = guardian.New(f.store, cfg)
	require.NoError(t, err)
	return f
}

// events lists every stored event, newest first.
func (f *fixture) events(t *testing.T) []guardian.Event {
	t.Helper()
	got, err := f.store.ListEvents(ctx, guardian.EventQuery{Limit: 1000})
	require.NoError(t, err)
	return got
}

// failingStore is a guardian.Store whose writes fail (as a database that
// went away).
type failingStore struct{ guardian.Store }

func (failingStore) AddEvents(context.Context, []guardian.Event) error {
	return errors.New("connection refused")
}

func (failingStore) AddCounters(context.Context, []guardian.CounterDelta) error {
	return errors.New("connection refused")
}
