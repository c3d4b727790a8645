package billing

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/require"
)

// errBoom is an unclassified failure (a store or verifier outage).
var errBoom = errors.New("boom: connection reset")

// fakeStore is a hand-written Store for the service's unit tests. It keeps
// just enough state to answer like a real store, records every write, and
// can be scripted: errs queues one result per call of a method (nil lets
// that call through), and onCharge replaces Charge to play a race.
type fakeStore struct {
	mu        sync.Mutex
	balances  map[string]int64
	updatedAt time.Time
	limits    SpendLimits
	spent     map[time.Time]int64 // consumption since a window start
	stored    map[string]IdempotentResponse
	charges   []ChargeRequest
	credits   []CreditRequest
	txs       []Transaction
	usage     []UsageLine
	calls     map[string]int
	errs      map[string][]error
	onCharge  func(f *fakeStore, req ChargeRequest) error // called with mu held
	prunedAt  time.Time                                   // the cutoff of the last PruneStoredResponses
}

func newFakeStore() *fakeStore {
	return &fakeStore{
		balances: map[string]int64{}, spent: map[time.Time]int64{}, stored: map[string]IdempotentResponse{},
		calls: map[string]int{}, errs: map[string][]error{},
		updatedAt: time.Date(2026, 11, 22, 8, 0, 0, 0, time.FixedZone("X", 3600)),
	}
}

// fail scripts the next calls of method: one error (or nil) per call.
func (f *fakeStore) fail(method string, errs ...error) *fakeStore {
	f.errs[method] = append(f.errs[method], errs...)
	return f
}

// call counts a call of method and pops its scripted error. mu is held.
func (f *fakeStore) call(method string) error {
	f.calls[method]++
	q := f.errs[method]
	if len(q) == 0 {
		return nil
	}
	f.errs[method] = q[1:]
	return q[0]
}

func (f *fakeStore) Balance(_ context.Context, agentID string) (BalanceRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Balance"); err != nil {
		return BalanceRecord{}, err
	}
	return BalanceRecord{AgentID: agentID, Micros: f.balances[agentID], UpdatedAt: f.updatedAt}, nil
}

func (f *fakeStore) Charge(_ context.Context, req ChargeRequest) (Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Charge"); err != nil {
		return Transaction{}, err
	}
	if f.onCharge != nil {
		if err := f.onCharge(f, req); err != nil {
			return Transaction{}, err
		}
	}
	if f.balances[req.AgentID] < req.Micros {
		return Transaction{}, toolkit.Errorf(toolkit.InsufficientCredits, "insufficient balance")
	}
	f.balances[req.AgentID] -= req.Micros
	f.charges = append(f.charges, req)
	if req.Idempotency != nil {
		r := *req.Idempotency
		r.Response = bytes.Clone(r.Response)
		f.stored[req.Idempotency.Key] = r
	}
	return Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: TypeConsumption, AmountMicros: -req.Micros,
		BalanceAfter: f.balances[req.AgentID], CreatedAt: req.At}, nil
}

func (f *fakeStore) Credit(_ context.Context, req CreditRequest) (Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Credit"); err != nil {
		return Transaction{}, err
	}
	f.balances[req.AgentID] += req.Micros
	f.credits = append(f.credits, req)
	return Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: TypeDeposit, AmountMicros: req.Micros,
		BalanceAfter: f.balances[req.AgentID], CreatedAt: req.At}, nil
}

func (f *fakeStore) Transactions(_ context.Context, _ string, limit int) ([]Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Transactions"); err != nil {
		return nil, err
	}
	return f.txs[:min(limit, len(f.txs))], nil
}

func (f *fakeStore) Usage(context.Context, string) ([]UsageLine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.usage, f.call("Usage")
}

func (f *fakeStore) StoredResponse(_ context.Context, _, key string) (IdempotentResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("StoredResponse"); err != nil {
		return IdempotentResponse{}, err
	}
	r, ok := f.stored[key]
	if !ok {
		return IdempotentResponse{}, toolkit.Errorf(toolkit.NotFound, "not found")
	}
	return r, nil
}

func (f *fakeStore) PruneStoredResponses(_ context.Context, before time.Time) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prunedAt = before
	return int64(len(f.stored)), f.call("PruneStoredResponses")
}

func (f *fakeStore) SpendLimits(context.Context, string) (SpendLimits, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.limits, f.call("SpendLimits")
}

func (f *fakeStore) SetSpendLimits(_ context.Context, _ string, l SpendLimits) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("SetSpendLimits"); err != nil {
		return err
	}
	f.limits = l
	return nil
}

func (f *fakeStore) Spent(_ context.Context, _ string, since time.Time) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.spent[since], f.call("Spent")
}

// fakeChain is a scripted ChainVerifier.
type fakeChain struct {
	paid  VerifiedPayment
	err   error
	calls []string // tx hashes asked about
}

func (c *fakeChain) VerifyPayment(_ context.Context, _, txHash string) (VerifiedPayment, error) {
	c.calls = append(c.calls, txHash)
	return c.paid, c.err
}

// fakeOnramp is a scripted OnrampVerifier.
type fakeOnramp struct {
	paid  VerifiedPayment
	err   error
	calls int
}

func (o *fakeOnramp) VerifyOnramp(context.Context, string, toolkit.Amount) (VerifiedPayment, error) {
	o.calls++
	return o.paid, o.err
}

// failingReader is a Random source that always fails.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errBoom }

// testNow is the injected clock: 2026-11-22 23:30 in UTC-5, so the UTC
// day (Nov 23) differs from the local one.
var testNow = time.Date(2026, 11, 22, 23, 30, 0, 0, time.FixedZone("EST", -5*3600))

const agentID = "agt_test"

// newService returns a Service over store with the test clock; edit
// adjusts the config first.
func newService(t *testing.T, store Store, edit ...func(*Config)) *Service {
	t.Helper()
	cfg := Config{Now: func() time.Time { return testNow }}
	for _, e := range edit {
		e(&cfg)
	}
	svc, err := NewService(store, cfg)
	require.NoError(t, err)
	return svc
}

func amount(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

func ptr[T any](v T) *T { return &v }
