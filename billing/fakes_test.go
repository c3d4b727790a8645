package billing

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
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
	balances  map[string]int64 // real funds
	test      map[string]int64 // test funds
	updatedAt time.Time
	limits    SpendLimits
	spent     map[time.Time]int64 // consumption since a window start
	stored    map[string]IdempotentResponse
	charges   []ChargeRequest
	credits   []CreditRequest
	txs       []Transaction // newest first
	lastQuery TransactionQuery
	usage     []UsageLine
	calls     map[string]int
	errs      map[string][]error
	onCharge  func(f *fakeStore, req ChargeRequest) error // called with mu held
	prunedAt  time.Time                                   // the cutoff of the last PruneStoredResponses
}

func newFakeStore() *fakeStore {
	return &fakeStore{
		balances: map[string]int64{}, test: map[string]int64{}, spent: map[time.Time]int64{}, stored: map[string]IdempotentResponse{},
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
	return BalanceRecord{AgentID: agentID, Micros: f.balances[agentID], TestMicros: f.test[agentID], UpdatedAt: f.updatedAt}, nil
}

func (f *fakeStore) ChargeCheck(_ context.Context, agentID string, dayStart, monthStart time.Time) (ChargeCheck, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("ChargeCheck"); err != nil {
		return ChargeCheck{}, err
	}
	return ChargeCheck{
		Balance: BalanceRecord{AgentID: agentID, Micros: f.balances[agentID], TestMicros: f.test[agentID], UpdatedAt: f.updatedAt},
		Limits:  f.limits, SpentDay: f.spent[dayStart], SpentMonth: f.spent[monthStart],
	}, nil
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
	bal := f.class(req.Funds)
	if bal[req.AgentID] < req.Micros {
		return Transaction{}, toolkit.Errorf(toolkit.InsufficientCredits, "insufficient balance")
	}
	bal[req.AgentID] -= req.Micros
	f.charges = append(f.charges, req)
	if req.Idempotency != nil {
		r := *req.Idempotency
		r.Response = bytes.Clone(r.Response)
		f.stored[req.Idempotency.Key] = r
	}
	return Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: TypeConsumption, Funds: req.Funds.normal(), AmountMicros: -req.Micros,
		BalanceAfter: bal[req.AgentID], CreatedAt: req.At}, nil
}

func (f *fakeStore) Credit(_ context.Context, req CreditRequest) (Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Credit"); err != nil {
		return Transaction{}, err
	}
	bal := f.class(req.Funds)
	bal[req.AgentID] += req.Micros
	f.credits = append(f.credits, req)
	return Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: TypeDeposit, Funds: req.Funds.normal(), AmountMicros: req.Micros,
		BalanceAfter: bal[req.AgentID], CreatedAt: req.At}, nil
}

// class returns the balances of a class of funds. mu is held.
func (f *fakeStore) class(funds Funds) map[string]int64 {
	if funds == FundsTest {
		return f.test
	}
	return f.balances
}

func (f *fakeStore) Transactions(_ context.Context, q TransactionQuery) ([]Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.call("Transactions"); err != nil {
		return nil, err
	}
	f.lastQuery = q
	txs := f.txs // newest first
	if q.BeforeSeq > 0 {
		txs = slices.DeleteFunc(slices.Clone(txs), func(tx Transaction) bool { return tx.Seq >= q.BeforeSeq })
	}
	return txs[:min(q.Limit, len(txs))], nil
}

func (f *fakeStore) Usage(context.Context, string) ([]UsageLine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.usage, f.call("Usage")
}

func (f *fakeStore) DailyUsage(context.Context, UsageQuery) ([]DailyUsage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return nil, f.call("DailyUsage")
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

// fakeChain is a scripted DepositVerifier.
type fakeChain struct {
	mu    sync.Mutex
	d     VerifiedDeposit
	err   error
	calls []DepositQuery
}

func (c *fakeChain) VerifyDeposit(_ context.Context, q DepositQuery) (VerifiedDeposit, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, q)
	return c.d, c.err
}

// usdc is a verified USDC deposit of sig paying micros.
func usdc(sig string, micros uint64) VerifiedDeposit {
	return VerifiedDeposit{Signature: sig, Asset: USDC, BaseUnits: micros, Decimals: 6, Sender: "wallet1", BoundBy: BoundByWallet}
}

// fakeOracle is a scripted PriceOracle.
type fakeOracle struct {
	price Price
	err   error
	calls int
}

func (o *fakeOracle) PriceUSD(context.Context, Asset) (Price, error) {
	o.calls++
	return o.price, o.err
}

// fakeWallets is a scripted WalletSource.
type fakeWallets struct {
	wallets []string
	err     error
}

func (w fakeWallets) AgentWallets(context.Context, string) ([]string, error) { return w.wallets, w.err }

// testKeys is a deterministic cryptovault.KeyManager from the standard
// library: AES-GCM per agent, HMAC-SHA256 lookups.
type testKeys struct{}

func (testKeys) AgentAEAD(_ context.Context, agentID string) (cryptovault.AEAD, error) {
	k := sha256.Sum256([]byte("aead:" + agentID))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, err
	}
	g, err := cipher.NewGCM(block)
	return gcm{g}, err
}

func (testKeys) LookupHash(data []byte) ([]byte, error) {
	m := hmac.New(sha256.New, []byte("lookup key"))
	m.Write(data)
	return m.Sum(nil), nil
}

type gcm struct{ cipher.AEAD }

func (g gcm) Encrypt(plaintext, ad []byte) ([]byte, error) {
	nonce := make([]byte, g.NonceSize())
	return g.Seal(nonce, nonce, plaintext, ad), nil
}

func (g gcm) Decrypt(ciphertext, ad []byte) ([]byte, error) {
	if len(ciphertext) < g.NonceSize() {
		return nil, errors.New("short ciphertext")
	}
	return g.Open(nil, ciphertext[:g.NonceSize()], ciphertext[g.NonceSize():], ad)
}

// testVault is a vault over testKeys.
var testVault = cryptovault.New(testKeys{})

// sigRef is the ledger reference of a transaction signature: its keyed
// hash under the tx_signature field, in hex.
func sigRef(t *testing.T, sig string) *string {
	t.Helper()
	h, err := testVault.Hash(TxSignatureField, []byte(sig))
	require.NoError(t, err)
	ref := hex.EncodeToString(h)
	return &ref
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

// testPrices are the prices of the tests: the catalog's table as the
// platform gives it to billing (billing cannot import the catalog).
func testPrices() Prices {
	return Prices{"position_sizing": amount("0.003"), "risk_check": amount("0.004"), "basic_eval": amount("0.10"),
		"full_eval": amount("0.50"), "comprehensive_eval": amount("1.00"), "pre_trade_gate": amount("0.01"),
		"assess_trading_system": amount("2.00"), "run_monte_carlo": amount("0.008"), "store_memory": amount("0.002"),
		"search_memory": amount("0.001"), "record_trade_journal": amount("0.003")}
}

// newService returns a Service over store with the test clock and
// testPrices; edit adjusts the config first.
func newService(t *testing.T, store Store, edit ...func(*Config)) *Service {
	t.Helper()
	cfg := Config{Now: func() time.Time { return testNow }, Prices: testPrices()}
	for _, e := range edit {
		e(&cfg)
	}
	svc, err := NewService(store, cfg)
	require.NoError(t, err)
	return svc
}

func amount(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

func ptr[T any](v T) *T { return &v }
