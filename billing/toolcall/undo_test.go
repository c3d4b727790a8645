package toolcall

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/guardian/guardiantest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// afterRunMeter runs the call, then answers as the charge did: with err
// (the charge failed) or as a replay of a concurrent retry's answer.
type afterRunMeter struct {
	err      error
	replayed bool
}

func (f afterRunMeter) Meter(ctx context.Context, _ billing.MeterRequest, run func(context.Context) (billing.Outcome, error)) (billing.Metered, error) {
	out, err := run(ctx)
	if err != nil {
		return billing.Metered{}, err
	}
	if f.err != nil {
		return billing.Metered{}, f.err
	}
	return billing.Metered{Response: out.Response, Replayed: f.replayed}, nil
}

// writes is a stand-in workspace: the "write" tool adds a row and registers
// its undo; the "write_then_slow" tool writes and then outlives its deadline.
type writes struct {
	mu      sync.Mutex
	rows    int
	undoErr error
}

func (w *writes) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rows
}

func (w *writes) tools(t *testing.T) *catalog.Catalog {
	t.Helper()
	write := func(ctx context.Context, call catalog.Call) {
		w.mu.Lock()
		w.rows++
		w.mu.Unlock()
		call.Undo.Add(func(context.Context) error {
			w.mu.Lock()
			defer w.mu.Unlock()
			if w.undoErr != nil {
				return w.undoErr
			}
			w.rows--
			return nil
		})
	}
	c, err := catalog.New(
		catalog.NewTool(catalog.Spec{Name: "write", Description: "write", Category: "test", Operation: "store_memory"},
			func(ctx context.Context, call catalog.Call, _ valueInput) (any, error) {
				write(ctx, call)
				return map[string]any{"ok": true}, nil
			}, nil),
		catalog.NewTool(catalog.Spec{Name: "write_then_slow", Description: "write_then_slow", Category: "test", Operation: "store_memory"},
			func(ctx context.Context, call catalog.Call, _ valueInput) (any, error) {
				write(ctx, call)
				<-ctx.Done()
				return map[string]any{"ok": true}, nil
			}, nil),
	)
	require.NoError(t, err)
	return c
}

func TestWritesOfDiscardedAnswersAreUndone(t *testing.T) {
	cases := []struct {
		name  string
		tool  string
		meter afterRunMeter
		kept  bool
	}{
		{"charged", "write", afterRunMeter{}, true},
		{"balance spent meanwhile", "write", afterRunMeter{err: toolkit.Errorf(toolkit.InsufficientCredits, "Insufficient balance")}, false},
		{"cap reached meanwhile", "write", afterRunMeter{err: toolkit.Errorf(toolkit.Forbidden, "over the daily limit")}, false},
		{"idempotency conflict", "write", afterRunMeter{err: toolkit.Errorf(toolkit.Conflict, "key reused")}, false},
		{"a concurrent retry answered", "write", afterRunMeter{replayed: true}, false},
		{"the run outlived its deadline", "write_then_slow", afterRunMeter{}, false},
		{"the caller went away before the store took the charge", "write",
			afterRunMeter{err: &toolkit.Error{Kind: toolkit.Unavailable, Err: context.Canceled}}, false},
		{"a store fault may have committed the charge", "write", afterRunMeter{err: toolkit.Errorf(toolkit.Unavailable, "connection lost")}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &writes{}
			s := New(w.tools(t), tc.meter, Options{Timeout: 20 * time.Millisecond})
			_, _ = s.Call(context.Background(), agent, Request{Tool: tc.tool, Arguments: []byte(`{"value":"1"}`)})
			if tc.kept {
				assert.Equal(t, 1, w.count(), "the write stands")
			} else {
				assert.Zero(t, w.count(), "the write was taken back")
			}
		})
	}
}

func TestFailedUndoIsRecorded(t *testing.T) {
	w := &writes{undoErr: errors.New("database gone")}
	rec := &guardiantest.Recorder{}
	s := New(w.tools(t), afterRunMeter{err: toolkit.Errorf(toolkit.InsufficientCredits, "Insufficient balance")}, Options{Recorder: rec})
	_, err := s.Call(context.Background(), agent, Request{Tool: "write", Arguments: []byte(`{"value":"1"}`)})
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err), "the caller still gets the charge's answer")
	assert.Equal(t, []guardian.Type{guardian.TypeUnchargedWriteKept, guardian.TypeInsufficientCredits}, rec.Types())
	assert.Contains(t, rec.Events()[0].Description, "database gone")
}
