package billing

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cap windows of testNow (2026-11-22 23:30 at UTC-5 = Nov 23 04:30 UTC).
var (
	testDayStart   = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	testMonthStart = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
)

const (
	body     = `{"equity":"100000"}`
	response = `{"shares":5000}`
)

// chargeable is the default run: a billable answer.
func chargeable(context.Context) (Outcome, error) {
	return Outcome{Response: []byte(response), Chargeable: true}, nil
}

func TestMeter(t *testing.T) {
	hash := requestHash("position_sizing", []byte(body))
	winner := func(h string) func(*fakeStore, ChargeRequest) error {
		return func(f *fakeStore, req ChargeRequest) error {
			f.stored[req.Idempotency.Key] = IdempotentResponse{Key: req.Idempotency.Key, RequestHash: h, Response: []byte(`{"winner":true}`)}
			return toolkit.Errorf(toolkit.Conflict, "already exists")
		}
	}
	drain := func(left int64) func(*fakeStore, ChargeRequest) error {
		return func(f *fakeStore, req ChargeRequest) error {
			f.balances[req.AgentID] = left // spent by a concurrent call between check and debit
			return nil
		}
	}
	cases := []struct {
		name      string
		setup     func(f *fakeStore)
		req       func(r *MeterRequest)
		run       func(context.Context) (Outcome, error)
		wantKind  toolkit.Kind // checked when wantMsg is set or wantErr
		wantErr   bool
		wantMsg   string
		wantRuns  int
		wantResp  string
		charged   string // "0" when nothing was charged
		replayed  bool
		wantLeft  int64 // balance afterwards
		noStoreIO bool
	}{
		{name: "charged", wantRuns: 1, wantResp: response, charged: "0.003", wantLeft: 997_000},
		{name: "presale pays 80 %", req: func(r *MeterRequest) { r.Account.Presale = true },
			wantRuns: 1, wantResp: response, charged: "0.0024", wantLeft: 997_600},
		{name: "free operation skips billing", req: func(r *MeterRequest) { r.Operation = "calculate_expected_value" },
			setup:    func(f *fakeStore) { f.fail("ChargeCheck", errBoom) },
			wantRuns: 1, wantResp: response, charged: "0", wantLeft: 1_000_000, noStoreIO: true},
		{name: "free operation error is returned as is", req: func(r *MeterRequest) { r.Operation = "calculate_expected_value" },
			run: func(context.Context) (Outcome, error) {
				return Outcome{}, toolkit.Errorf(toolkit.Invalid, "win_rate: must be in [0, 1]")
			},
			wantErr: true, wantKind: toolkit.Invalid, wantMsg: "win_rate: must be in [0, 1]", wantRuns: 1, charged: "0",
			wantLeft: 1_000_000, noStoreIO: true},
		{name: "idempotency key too long", req: func(r *MeterRequest) { r.IdempotencyKey = strings.Repeat("k", 256) },
			wantErr: true, wantKind: toolkit.Invalid, wantMsg: "Idempotency-Key: at most 255 characters",
			charged: "0", wantLeft: 1_000_000, noStoreIO: true},
		{name: "idempotency key at its limit", req: func(r *MeterRequest) { r.IdempotencyKey = strings.Repeat("k", 255) },
			wantRuns: 1, wantResp: response, charged: "0.003", wantLeft: 997_000},
		{name: "replay with the same body",
			setup: func(f *fakeStore) {
				f.stored["k1"] = IdempotentResponse{Key: "k1", RequestHash: hash, Response: []byte(`{"first":true}`)}
			},
			req:      func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantResp: `{"first":true}`, charged: "0", replayed: true, wantLeft: 1_000_000},
		{name: "same key with another body",
			setup: func(f *fakeStore) {
				f.stored["k1"] = IdempotentResponse{Key: "k1", RequestHash: "other", Response: []byte(`{}`)}
			},
			req:     func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantErr: true, wantKind: toolkit.Conflict,
			wantMsg: `Idempotency-Key "k1" was already used with a different request body`, charged: "0", wantLeft: 1_000_000},
		{name: "idempotency lookup fails", setup: func(f *fakeStore) { f.fail("StoredResponse", errBoom) },
			req:     func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantErr: true, wantKind: toolkit.Internal, charged: "0", wantLeft: 1_000_000},
		{name: "pre-run check fails", setup: func(f *fakeStore) { f.fail("ChargeCheck", errBoom) },
			wantErr: true, wantKind: toolkit.Internal, charged: "0", wantLeft: 1_000_000},
		{name: "operation not allowed",
			setup:   func(f *fakeStore) { f.limits.AllowedOperations = []string{"risk_check"} },
			wantErr: true, wantKind: toolkit.Forbidden,
			wantMsg: "Operation position_sizing is not in this agent's allowed operations", charged: "0", wantLeft: 1_000_000},
		{name: "operation allowed",
			setup:    func(f *fakeStore) { f.limits.AllowedOperations = []string{"position_sizing", "risk_check"} },
			wantRuns: 1, wantResp: response, charged: "0.003", wantLeft: 997_000},
		{name: "daily cap would be exceeded",
			setup:   func(f *fakeStore) { f.limits.DailyMicros = ptr(int64(10_000)); f.spent[testDayStart] = 7_001 },
			wantErr: true, wantKind: toolkit.Forbidden,
			wantMsg: "Daily spend limit of $0.01 would be exceeded: spent $0.007001, this call costs $0.003", charged: "0", wantLeft: 1_000_000},
		{name: "daily cap exactly reached",
			setup:    func(f *fakeStore) { f.limits.DailyMicros = ptr(int64(10_000)); f.spent[testDayStart] = 7_000 },
			wantRuns: 1, wantResp: response, charged: "0.003", wantLeft: 997_000},
		{name: "monthly cap would be exceeded",
			setup: func(f *fakeStore) {
				f.limits.DailyMicros = ptr(int64(1_000_000))
				f.limits.MonthlyMicros = ptr(int64(5_000))
				f.spent[testMonthStart] = 2_500
			},
			wantErr: true, wantKind: toolkit.Forbidden,
			wantMsg: "Monthly spend limit of $0.005 would be exceeded: spent $0.0025, this call costs $0.003", charged: "0", wantLeft: 1_000_000},
		{name: "balance too low", setup: func(f *fakeStore) { f.balances[agentID] = 2_999 },
			wantErr: true, wantKind: toolkit.InsufficientCredits,
			wantMsg: "Insufficient balance. Required: $0.003, Available: $0.002999", charged: "0", wantLeft: 2_999},
		{name: "balance exactly the price", setup: func(f *fakeStore) { f.balances[agentID] = 3_000 },
			wantRuns: 1, wantResp: response, charged: "0.003", wantLeft: 0},
		{name: "run error is returned and nothing charged",
			run: func(context.Context) (Outcome, error) {
				return Outcome{Response: []byte(`{"partial":1}`)}, toolkit.Errorf(toolkit.Invalid, "entry_price: must be positive")
			},
			wantErr: true, wantKind: toolkit.Invalid, wantMsg: "entry_price: must be positive", wantRuns: 1,
			charged: "0", wantLeft: 1_000_000},
		{name: "not chargeable answer is not charged",
			run: func(context.Context) (Outcome, error) {
				return Outcome{Response: []byte(`{"insufficient_history":true}`)}, nil
			},
			wantRuns: 1, wantResp: `{"insufficient_history":true}`, charged: "0", wantLeft: 1_000_000},
		{name: "lost race after the run: 402 and the result discarded", setup: func(f *fakeStore) { f.onCharge = drain(1_000) },
			wantErr: true, wantKind: toolkit.InsufficientCredits,
			wantMsg: "Insufficient balance. Required: $0.003, Available: $0.001", wantRuns: 1, charged: "0", wantLeft: 1_000},
		{name: "lost race and the balance re-read fails",
			setup:   func(f *fakeStore) { f.onCharge = drain(1_000); f.fail("Balance", errBoom) },
			wantErr: true, wantKind: toolkit.Internal, wantRuns: 1, charged: "0", wantLeft: 1_000},
		{name: "concurrent retry with the same key won: replay its answer",
			setup:    func(f *fakeStore) { f.onCharge = winner(hash) },
			req:      func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantRuns: 1, wantResp: `{"winner":true}`, charged: "0", replayed: true, wantLeft: 1_000_000},
		{name: "concurrent retry with the same key but another body won",
			setup:   func(f *fakeStore) { f.onCharge = winner("other") },
			req:     func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantErr: true, wantKind: toolkit.Conflict, wantMsg: "already used with a different request body",
			wantRuns: 1, charged: "0", wantLeft: 1_000_000},
		{name: "conflict on the key, then the stored answer cannot be read",
			setup:   func(f *fakeStore) { f.onCharge = winner(hash); f.fail("StoredResponse", nil, errBoom) },
			req:     func(r *MeterRequest) { r.IdempotencyKey = "k1" },
			wantErr: true, wantKind: toolkit.Internal, wantRuns: 1, charged: "0", wantLeft: 1_000_000},
		{name: "spend cap hit inside the debit (concurrent calls)",
			setup:   func(f *fakeStore) { f.fail("Charge", CapExceeded("daily", 10_000, 9_000, 3_000)) },
			wantErr: true, wantKind: toolkit.Forbidden, wantMsg: "Daily spend limit of $0.01 would be exceeded",
			wantRuns: 1, charged: "0", wantLeft: 1_000_000},
		{name: "debit fails", setup: func(f *fakeStore) { f.fail("Charge", errBoom) },
			wantErr: true, wantKind: toolkit.Internal, wantRuns: 1, charged: "0", wantLeft: 1_000_000},
		{name: "conflict without an idempotency key is no replay",
			setup:   func(f *fakeStore) { f.fail("Charge", toolkit.Errorf(toolkit.Conflict, "already exists")) },
			wantErr: true, wantKind: toolkit.Conflict, wantRuns: 1, charged: "0", wantLeft: 1_000_000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			store.balances[agentID] = 1_000_000
			if c.setup != nil {
				c.setup(store)
			}
			svc := newService(t, store)
			req := MeterRequest{Account: Account{AgentID: agentID}, Operation: "position_sizing", Body: []byte(body)}
			if c.req != nil {
				c.req(&req)
			}
			run := c.run
			if run == nil {
				run = chargeable
			}
			runs := 0
			m, err := svc.Meter(context.Background(), req, func(ctx context.Context) (Outcome, error) {
				runs++
				return run(ctx)
			})

			if c.wantErr {
				require.Error(t, err)
				assert.Equal(t, c.wantKind, toolkit.KindOf(err), "%v", err)
				assert.Nil(t, m.Response, "no response with an error")
			} else {
				require.NoError(t, err)
			}
			if c.wantMsg != "" {
				assert.Contains(t, toolkit.MessageOf(err), c.wantMsg)
			}
			assert.Equal(t, c.wantRuns, runs, "runs")
			if c.wantResp != "" {
				assert.JSONEq(t, c.wantResp, string(m.Response))
			}
			assert.Equal(t, c.charged, m.Charged.String(), "charged")
			assert.Equal(t, c.replayed, m.Replayed, "replayed")
			assert.Equal(t, c.wantLeft, store.balances[agentID], "balance afterwards")
			if c.noStoreIO {
				assert.Empty(t, store.calls, "the store is not consulted")
			}
		})
	}
}

// TestMeterChargeRequest: the debit carries the price, the UTC time and
// cap windows, the limits that were checked, and the idempotency record.
func TestMeterChargeRequest(t *testing.T) {
	store := newFakeStore()
	store.balances[agentID] = 1_000_000
	store.limits = SpendLimits{DailyMicros: ptr(int64(50_000)), AllowedOperations: []string{"risk_check"}}
	svc := newService(t, store, func(c *Config) { c.Random = bytes.NewReader(make([]byte, 16)) })
	_, err := svc.Meter(context.Background(), MeterRequest{Account: Account{AgentID: agentID, Presale: true},
		Operation: "risk_check", IdempotencyKey: "key-1", Body: []byte(body)}, chargeable)
	require.NoError(t, err)

	require.Len(t, store.charges, 1)
	got := store.charges[0]
	assert.Equal(t, "tx_aaaaaaaaaaaaaaaa", got.TxID, "the id comes from the injected randomness")
	assert.Equal(t, agentID, got.AgentID)
	assert.Equal(t, "risk_check", got.Operation)
	assert.Equal(t, int64(3_200), got.Micros, "80 % of 0.004")
	assert.True(t, got.At.Equal(testNow))
	assert.Equal(t, time.UTC, got.At.Location())
	assert.Equal(t, testDayStart, got.DayStart, "the UTC day, not the local one")
	assert.Equal(t, testMonthStart, got.MonthStart)
	assert.Equal(t, store.limits, got.Limits, "the store re-checks the same caps")
	require.NotNil(t, got.Idempotency)
	assert.Equal(t, IdempotentResponse{Key: "key-1", RequestHash: requestHash("risk_check", []byte(body)),
		Response: []byte(response)}, *got.Idempotency)
}

func TestMeterWithoutKeyStoresNoResponse(t *testing.T) {
	store := newFakeStore()
	store.balances[agentID] = 1_000_000
	_, err := newService(t, store).Meter(context.Background(),
		MeterRequest{Account: Account{AgentID: agentID}, Operation: "risk_check"}, chargeable)
	require.NoError(t, err)
	require.Len(t, store.charges, 1)
	assert.Nil(t, store.charges[0].Idempotency)
	assert.Zero(t, store.calls["StoredResponse"], "no replay lookup without a key")
}

func TestRequestHashSeparatesOperationAndBody(t *testing.T) {
	assert.NotEqual(t, requestHash("ab", []byte("c")), requestHash("a", []byte("bc")))
	assert.NotEqual(t, requestHash("risk_check", []byte("{}")), requestHash("risk_check", []byte("{} ")))
	assert.Equal(t, requestHash("risk_check", []byte("{}")), requestHash("risk_check", []byte("{}")))
	assert.Len(t, requestHash("", nil), 64, "hex SHA-256")
}

func TestMeterTxIDFailure(t *testing.T) {
	store := newFakeStore()
	store.balances[agentID] = 1_000_000
	svc := newService(t, store, func(c *Config) { c.Random = failingReader{} })
	runs := 0
	m, err := svc.Meter(context.Background(), MeterRequest{Account: Account{AgentID: agentID}, Operation: "risk_check"},
		func(ctx context.Context) (Outcome, error) { runs++; return chargeable(ctx) })
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
	assert.Nil(t, m.Response)
	assert.Equal(t, 1, runs)
	assert.Empty(t, store.charges)
}
