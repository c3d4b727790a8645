package storetest

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fundsCases returns the cases of the two classes of funds: test money
// (sandbox self-credit) and real money (verified deposits) are separate
// balances, every ledger row names its class, and an on-chain deposit is
// credited once across every deposit endpoint.
func fundsCases() []Case {
	return []Case{
		{Name: "FundsKeptApart", Test: testFundsKeptApart},
		{Name: "SelfCreditCapCountsTestFunds", Test: testSelfCreditCapCountsTestFunds},
		{Name: "DepositDetailsRoundTrip", Test: testDepositDetailsRoundTrip},
		{Name: "ConcurrentChainDepositsCreditOnce", Test: testConcurrentChainDepositsCreditOnce},
	}
}

func creditFunds(t *testing.T, s Store, agentID string, f billing.Funds, micros int64, ref *string) billing.Transaction {
	t.Helper()
	tx, err := s.Credit(ctx, billing.CreditRequest{TxID: fmt.Sprintf("tx_f%d", seq.Add(1)), AgentID: agentID, Funds: f,
		Micros: micros, FundingPath: billing.FundingDirectTransfer, ExternalRef: ref, At: t0})
	require.NoError(t, err)
	return tx
}

func testFundsKeptApart(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	dep := creditFunds(t, s, a.ID, billing.FundsTest, 5_000_000, nil)
	assert.Equal(t, billing.FundsTest, dep.Funds)
	assert.Equal(t, int64(5_000_000), dep.BalanceAfter, "balance_after is the class's balance")
	ref := "ref-real-1"
	dep = creditFunds(t, s, a.ID, billing.FundsReal, 3_000_000, &ref)
	assert.Equal(t, billing.FundsReal, dep.Funds)
	assert.Equal(t, int64(3_000_000), dep.BalanceAfter)
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(3_000_000), b.Micros)
	assert.Equal(t, int64(5_000_000), b.TestMicros)

	req := chargeReq(a.ID, "assess_trading_system", 2_000_000)
	req.Funds = billing.FundsTest
	tx, err := s.Charge(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, billing.FundsTest, tx.Funds)
	assert.Equal(t, int64(3_000_000), tx.BalanceAfter)

	big := chargeReq(a.ID, "assess_trading_system", 4_000_000)
	big.Funds = billing.FundsReal
	_, err = s.Charge(ctx, big)
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err), "3.00 real cannot pay 4.00, whatever the test funds")
	big.Funds = billing.FundsTest
	_, err = s.Charge(ctx, big)
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err), "3.00 test cannot pay 4.00, whatever the real funds")

	empty := chargeReq(a.ID, "assess_trading_system", 3_000_000) // no class: real funds
	tx, err = s.Charge(ctx, empty)
	require.NoError(t, err)
	assert.Equal(t, billing.FundsReal, tx.Funds, "an empty class is real funds")
	assert.Zero(t, tx.BalanceAfter)

	b, err = s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Zero(t, b.Micros)
	assert.Equal(t, int64(3_000_000), b.TestMicros, "the test funds were never touched by the real charge")
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, []billing.UsageLine{{Operation: "assess_trading_system", Count: 2, TotalMicros: 5_000_000}}, usage)
	checkLedger(t, s, a.ID)
}

func testSelfCreditCapCountsTestFunds(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	ref := "ref-real-cap"
	creditFunds(t, s, a.ID, billing.FundsReal, 50_000_000, &ref)
	req := func(m int64) billing.CreditRequest {
		return billing.CreditRequest{TxID: fmt.Sprintf("tx_s%d", seq.Add(1)), AgentID: a.ID, Funds: billing.FundsTest, Micros: m,
			FundingPath: billing.FundingDirectTransfer, SelfCreditCapMicros: 10_000_000, At: t0}
	}
	_, err := s.Credit(ctx, req(10_000_000))
	require.NoError(t, err, "real deposits do not count against the test cap")
	spend := chargeReq(a.ID, "full_eval", 500_000)
	spend.Funds = billing.FundsTest
	_, err = s.Charge(ctx, spend)
	require.NoError(t, err)
	_, err = s.Credit(ctx, req(1))
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the cap bounds what was credited, not what is left")
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(9_500_000), b.TestMicros)
	assert.Equal(t, int64(50_000_000), b.Micros)
	checkLedger(t, s, a.ID)
}

func testDepositDetailsRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	ref, currency := "4f2a-sol-ref", "SOL"
	qty, price := toolkit.MustParseAmount("1.500000000"), toolkit.MustParseAmount("140.2512345678")
	sealed := []byte{0x01, 0x00, 0xff, 0x7f}
	tx, err := s.Credit(ctx, billing.CreditRequest{TxID: "tx_details", AgentID: a.ID, Funds: billing.FundsReal,
		Micros: 210_376_851, FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, SealedSignature: sealed,
		Currency: &currency, Quantity: &qty, PriceUSD: &price, At: t0})
	require.NoError(t, err)
	sealed[0] = 9 // the store kept its own copy
	for _, got := range []billing.Transaction{tx, ledgerRow(t, s, a.ID)} {
		require.NotNil(t, got.Currency)
		require.NotNil(t, got.Quantity)
		require.NotNil(t, got.PriceUSD)
		assert.Equal(t, "SOL", *got.Currency)
		assert.Equal(t, "1.500000000", got.Quantity.String(), "the quantity keeps its decimals")
		assert.Equal(t, "140.2512345678", got.PriceUSD.String(), "the price is exact")
		assert.Equal(t, billing.FundsReal, got.Funds)
	}
	charge, err := s.Charge(ctx, chargeReq(a.ID, "risk_check", 4000))
	require.NoError(t, err)
	assert.Nil(t, charge.Currency)
	assert.Nil(t, charge.Quantity)
	assert.Nil(t, charge.PriceUSD)
}

// ledgerRow returns the agent's newest ledger row.
func ledgerRow(t *testing.T, s Store, agentID string) billing.Transaction {
	t.Helper()
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: agentID, Limit: 1})
	require.NoError(t, err)
	require.Len(t, txs, 1)
	return txs[0]
}

// sameSignature is a DepositVerifier confirming one transaction of any
// asked asset, as if one transfer were submitted to every deposit
// endpoint.
type sameSignature struct{ calls atomic.Int64 }

func (v *sameSignature) VerifyDeposit(_ context.Context, q billing.DepositQuery) (billing.VerifiedDeposit, error) {
	v.calls.Add(1)
	d := billing.VerifiedDeposit{Signature: q.Signature, Asset: q.Asset, BaseUnits: 2_000_000, Decimals: 6, BoundBy: billing.BoundByMemo}
	if q.Asset == billing.SOL || q.Asset == billing.DefaultNativeToken {
		d.BaseUnits, d.Decimals = 2_000_000_000, 9
	}
	return d, nil
}

type fixedPrice struct{}

func (fixedPrice) PriceUSD(context.Context, billing.Asset) (billing.Price, error) {
	return billing.Price{Asset: billing.SOL, USD: toolkit.MustParseAmount("150"), ObservedAt: t0}, nil
}

// testConcurrentChainDepositsCreditOnce submits one transaction signature
// 50 times at once, through every deposit endpoint's domain call (USDC,
// USDT, PYUSD, SOL, the native token and the generic deposit) and for two
// agents: exactly one credit, 49 replays, the ledger intact.
func testConcurrentChainDepositsCreditOnce(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	a, b := newAgent(t, stores[0]), newAgent(t, stores[0])
	verifier := &sameSignature{}
	services := make([]*billing.Service, len(stores))
	vault := cryptovault.New(newTestKeys())
	for i, s := range stores {
		svc, err := billing.NewService(s, billing.Config{Deposits: verifier, Oracle: fixedPrice{}, Vault: vault})
		require.NoError(t, err)
		services[i] = svc
	}
	const sig = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
	assets := []billing.Asset{billing.USDC, billing.USDT, billing.PYUSD, billing.SOL, billing.DefaultNativeToken, ""}
	onceAmong(t, 50, func(i int) error {
		svc, agent := services[i%2], []string{a.ID, b.ID}[i/2%2]
		acct := billing.Account{AgentID: agent}
		if asset := assets[i%len(assets)]; asset != "" {
			_, err := svc.DepositOnChain(ctx, acct, asset, sig)
			return err
		}
		_, err := svc.Deposit(ctx, acct, billing.DepositInput{Amount: toolkit.MustParseAmount("1"),
			FundingPath: billing.FundingDirectTransfer, OnChainTxHash: sig})
		return err
	})
	assert.Equal(t, int64(50), verifier.calls.Load())
	var credits int
	for _, id := range []string{a.ID, b.ID} {
		bal, err := stores[1].Balance(ctx, id)
		require.NoError(t, err)
		assert.Zero(t, bal.TestMicros, "a chain deposit is never test money")
		txs, err := stores[1].Transactions(ctx, billing.TransactionQuery{AgentID: id, Limit: 10})
		require.NoError(t, err)
		credits += len(txs)
		checkLedger(t, stores[1], id)
	}
	assert.Equal(t, 1, credits, "one ledger row across both agents")
}

// testKeys is a cryptovault.KeyManager from the standard library (AES-GCM
// per agent, HMAC-SHA256 lookups), enough for the suite.
type testKeys struct{ secret []byte }

func newTestKeys() *testKeys {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return &testKeys{secret: k}
}

func (k *testKeys) AgentAEAD(_ context.Context, agentID string) (cryptovault.AEAD, error) {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte("aead:" + agentID))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, err
	}
	g, err := cipher.NewGCM(block)
	return gcm{g}, err
}

func (k *testKeys) LookupHash(data []byte) ([]byte, error) {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte("lookup:"))
	m.Write(data)
	return m.Sum(nil), nil
}

type gcm struct{ cipher.AEAD }

func (g gcm) Encrypt(plaintext, ad []byte) ([]byte, error) {
	nonce := make([]byte, g.NonceSize())
	_, _ = rand.Read(nonce)
	return g.Seal(nonce, nonce, plaintext, ad), nil
}

func (g gcm) Decrypt(ciphertext, ad []byte) ([]byte, error) {
	if len(ciphertext) < g.NonceSize() {
		return nil, fmt.Errorf("ciphertext too short")
	}
	return g.Open(nil, ciphertext[:g.NonceSize()], ciphertext[g.NonceSize():], ad)
}
