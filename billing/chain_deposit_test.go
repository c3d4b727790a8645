package billing

import (
	"bytes"
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/guardian/guardiantest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainCase is one on-chain deposit through DepositOnChain. The default
// verifier answers a deposit of the asked asset; the default oracle quotes
// SOL at 140.25.
type chainCase struct {
	name    string
	asset   Asset
	presale bool
	d       VerifiedDeposit
	cfg     func(c *Config, o *fakeOracle)
	setup   func(f *fakeStore)

	wantKind     toolkit.Kind
	wantMsg      string
	wantCredited string
	wantPrice    string // SOL price or native rate recorded ("" for none)
	chainCalls   int
	oracleCalls  int
}

func TestDepositOnChain(t *testing.T) {
	sol := func(lamports uint64) VerifiedDeposit {
		return VerifiedDeposit{Signature: "sig1", Asset: SOL, BaseUnits: lamports, Decimals: 9, Sender: "w"}
	}
	osr := func(units uint64) VerifiedDeposit {
		return VerifiedDeposit{Signature: "sig1", Asset: DefaultNativeToken, BaseUnits: units, Decimals: 9, Sender: "w"}
	}
	cases := []chainCase{
		{name: "USDC 1:1", asset: USDC, d: usdc("sig1", 25_000_000), wantCredited: "25.00", chainCalls: 1},
		{name: "USDT 1:1", asset: USDT, d: VerifiedDeposit{Signature: "sig1", Asset: USDT, BaseUnits: 9_000_001, Decimals: 6},
			wantCredited: "9.000001", chainCalls: 1},
		{name: "PYUSD 1:1", asset: PYUSD, d: VerifiedDeposit{Signature: "sig1", Asset: PYUSD, BaseUnits: 12_500_000, Decimals: 6},
			wantCredited: "12.50", chainCalls: 1},
		{name: "SOL at the oracle price", asset: SOL, d: sol(1_500_000_000), wantCredited: "210.375", wantPrice: "140.25",
			chainCalls: 1, oracleCalls: 1},
		{name: "SOL rounded down to the micro", asset: SOL, d: sol(1_500_000_000),
			cfg:          func(_ *Config, o *fakeOracle) { o.price.USD = amount("140.123456789") },
			wantCredited: "210.185185", wantPrice: "140.123456789", chainCalls: 1, oracleCalls: 1},
		{name: "SOL worth less than a micro-USD", asset: SOL, d: sol(1),
			wantKind: toolkit.Invalid, wantMsg: "tx_signature: the deposit is worth less than $0.000001", chainCalls: 1, oracleCalls: 1},
		{name: "native token at the standard rate", asset: DefaultNativeToken, d: osr(10_000_000_000_000),
			wantCredited: "50.00", wantPrice: "0.005", chainCalls: 1},
		{name: "native token at the presale rate", asset: DefaultNativeToken, presale: true, d: osr(10_000_000_000_000),
			wantCredited: "40.00", wantPrice: "0.004", chainCalls: 1},
		{name: "native token rounded down", asset: DefaultNativeToken, d: osr(1_999_999_999),
			wantCredited: "0.009999", wantPrice: "0.005", chainCalls: 1},
		{name: "a configured native token", asset: "ABC",
			cfg: func(c *Config, _ *fakeOracle) {
				c.NativeToken = NativeToken{Asset: "ABC", Rate: amount("0.01"), PresaleRate: amount("0.008")}
			},
			d: VerifiedDeposit{Signature: "sig1", Asset: "ABC", BaseUnits: 300, Decimals: 0}, wantCredited: "3.00", wantPrice: "0.01", chainCalls: 1},
		{name: "the published ticker when another is configured", asset: DefaultNativeToken,
			cfg:      func(c *Config, _ *fakeOracle) { c.NativeToken.Asset = "ABC" },
			wantKind: toolkit.Invalid, wantMsg: "OSR deposits are not accepted by this server"},
		{name: "an unknown asset", asset: "DOGE", wantKind: toolkit.Invalid, wantMsg: "DOGE deposits are not accepted by this server"},
		{name: "no verifier", asset: USDC, cfg: func(c *Config, _ *fakeOracle) { c.Deposits = nil },
			wantKind: toolkit.Unavailable, wantMsg: "on-chain deposits are not set up on this server: it has no Solana RPC endpoint configured"},
		{name: "SOL without an oracle", asset: SOL, cfg: func(c *Config, _ *fakeOracle) { c.Oracle = nil },
			wantKind: toolkit.Unavailable, wantMsg: "SOL deposits are not set up on this server: it has no SOL price feed configured"},
		{name: "the oracle is down", asset: SOL, d: sol(1_000_000_000), cfg: func(_ *Config, o *fakeOracle) { o.err = errBoom },
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable", chainCalls: 1, oracleCalls: 1},
		{name: "the oracle's price is stale", asset: SOL, d: sol(1_000_000_000),
			cfg: func(_ *Config, o *fakeOracle) {
				o.err = toolkit.Errorf(toolkit.Unavailable, "the SOL price is 12 minutes old; retry later")
			},
			wantKind: toolkit.Unavailable, wantMsg: "the SOL price is 12 minutes old", chainCalls: 1, oracleCalls: 1},
		{name: "the oracle quotes nothing", asset: SOL, d: sol(1_000_000_000),
			cfg:      func(_ *Config, o *fakeOracle) { o.price.USD = amount("0") },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1, oracleCalls: 1},
		{name: "the oracle quotes another asset", asset: SOL, d: sol(1_000_000_000),
			cfg:      func(_ *Config, o *fakeOracle) { o.price.Asset = USDC },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1, oracleCalls: 1},
		{name: "replayed", asset: USDC, d: usdc("sig1", 1_000_000),
			setup:    func(f *fakeStore) { f.fail("Credit", toolkit.Errorf(toolkit.Conflict, "already exists")) },
			wantKind: toolkit.Conflict, wantMsg: "tx_signature: this transaction was already credited (replay refused)", chainCalls: 1},
		{name: "not finalized yet", asset: USDC,
			cfg: func(c *Config, _ *fakeOracle) {
				c.Deposits = &fakeChain{err: toolkit.Errorf(toolkit.Unavailable, "tx_signature: not found or not finalized yet")}
			},
			wantKind: toolkit.Unavailable, wantMsg: "tx_signature: not found or not finalized yet"},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

// run deposits through DepositOnChain for a sandbox account holding 1.50
// of test funds and checks the refusal or the credit.
func (c chainCase) run(t *testing.T) {
	store := newFakeStore()
	chain := &fakeChain{d: c.d}
	oracle := &fakeOracle{price: Price{Asset: SOL, USD: amount("140.25"), ObservedAt: testNow}}
	svc := newService(t, store, func(cfg *Config) {
		cfg.Deposits, cfg.Oracle, cfg.Vault = chain, oracle, testVault
		cfg.Random = bytes.NewReader(make([]byte, 16))
		if c.cfg != nil {
			c.cfg(cfg, oracle)
		}
	})
	if c.setup != nil {
		c.setup(store)
	}
	store.test[agentID] += 1_500_000 // the sandbox account's test funds
	d, err := svc.DepositOnChain(context.Background(), Account{AgentID: agentID, Funds: FundsTest, Presale: c.presale}, c.asset, "sig1")
	assert.Len(t, chain.calls, c.chainCalls, "verifier calls")
	assert.Equal(t, c.oracleCalls, oracle.calls, "oracle calls")
	if c.wantMsg != "" {
		require.Error(t, err)
		assert.Equal(t, c.wantKind, toolkit.KindOf(err), "%v", err)
		assert.Contains(t, toolkit.MessageOf(err), c.wantMsg)
		if c.wantKind == toolkit.Unavailable && c.chainCalls > 0 {
			assert.Positive(t, toolkit.RetryAfterOf(err), "a retry hint")
		}
		if c.setup == nil {
			assert.Empty(t, store.credits, "nothing written")
		}
		return
	}
	require.NoError(t, err)
	c.assertCredited(t, d, store)
}

// assertCredited checks a credited deposit: real funds, the balances as a
// sandbox account sees them, and the ledger row.
func (c chainCase) assertCredited(t *testing.T, d ChainDeposit, store *fakeStore) {
	assert.Equal(t, c.wantCredited, d.Credited.String())
	assert.Equal(t, c.wantCredited, d.Balances.RealBalance.String(), "real funds, whatever the mode")
	assert.Equal(t, "1.50", d.Balances.Balance.String(), "a sandbox account's calls are paid from its test funds")
	assert.Equal(t, "1.50", d.Balances.SandboxBalance.String())
	assert.Equal(t, FundsTest, d.Balances.PaysFrom)
	assert.Equal(t, c.asset, d.Asset)
	assert.Equal(t, "tx_aaaaaaaaaaaaaaaa", d.TxID)
	assert.Equal(t, c.presale && c.asset == DefaultNativeToken, d.Presale)
	require.Len(t, store.credits, 1)
	cr := store.credits[0]
	assert.Equal(t, FundsReal, cr.Funds, "a verified deposit is real money, even in sandbox mode")
	assert.Equal(t, sigRef(t, "sig1"), cr.ExternalRef)
	assert.Equal(t, string(c.asset), *cr.Currency)
	if c.wantPrice == "" {
		assert.Nil(t, cr.PriceUSD)
		assert.Nil(t, d.PriceUSD)
		assert.Nil(t, d.Rate)
	} else {
		require.NotNil(t, cr.PriceUSD)
		assert.Equal(t, c.wantPrice, cr.PriceUSD.String(), "the price used is on the ledger row")
	}
	if c.asset == SOL {
		assert.Equal(t, c.wantPrice, d.PriceUSD.String())
	}
	if c.asset != SOL && c.wantPrice != "" {
		assert.Equal(t, c.wantPrice, d.Rate.String())
	}
}

// TestDepositOnChainHashesTheVerifiedSignature: the replay key is the
// keyed hash of the signature as the verifier read it from the chain.
func TestDepositOnChainHashesTheVerifiedSignature(t *testing.T) {
	store := newFakeStore()
	svc := newService(t, store, func(cfg *Config) {
		cfg.Deposits, cfg.Vault = &fakeChain{d: usdc("canonical", 1_000_000)}, testVault
	})
	d, err := svc.DepositOnChain(context.Background(), Account{AgentID: agentID}, USDC, "as-sent")
	require.NoError(t, err)
	assert.Equal(t, "canonical", d.Signature)
	require.Len(t, store.credits, 1)
	assert.Equal(t, sigRef(t, "canonical"), store.credits[0].ExternalRef)
	sig, err := testVault.OpenString(context.Background(), agentID, TxSignatureField, store.credits[0].SealedSignature)
	require.NoError(t, err)
	assert.Equal(t, "canonical", sig)
	_, err = testVault.OpenString(context.Background(), "agt_other", TxSignatureField, store.credits[0].SealedSignature)
	assert.Error(t, err, "sealed for this agent only")
}

func TestDepositOnChainRefusesBadSignatureText(t *testing.T) {
	chain := &fakeChain{}
	svc := newService(t, newFakeStore(), func(cfg *Config) { cfg.Deposits, cfg.Vault = chain, testVault })
	for sig, want := range map[string]string{
		"":                       "tx_signature: required",
		string(make([]byte, 89)): "tx_signature: at most 88 characters",
	} {
		_, err := svc.DepositOnChain(context.Background(), Account{AgentID: agentID}, USDC, sig)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), want)
	}
	assert.Empty(t, chain.calls, "nothing reaches the verifier")
}

func TestNewServiceValidatesDeposits(t *testing.T) {
	bad := map[string]func(*Config){
		"a verifier without a vault": func(c *Config) { c.Deposits = &fakeChain{} },
		"a lower-case ticker":        func(c *Config) { c.NativeToken.Asset = "osr" },
		"a one-letter ticker":        func(c *Config) { c.NativeToken.Asset = "X" },
		"a long ticker":              func(c *Config) { c.NativeToken.Asset = "ABCDEFGHIJK" },
		"a stablecoin's ticker":      func(c *Config) { c.NativeToken.Asset = USDC },
		"SOL as the native token":    func(c *Config) { c.NativeToken.Asset = SOL },
		"a negative rate":            func(c *Config) { c.NativeToken.Rate = amount("-0.005") },
	}
	for name, edit := range bad {
		cfg := Config{}
		edit(&cfg)
		_, err := NewService(newFakeStore(), cfg)
		assert.Error(t, err, name)
	}
	svc, err := NewService(newFakeStore(), Config{NativeToken: NativeToken{Asset: "ABC"}})
	require.NoError(t, err)
	assert.Equal(t, NativeToken{Asset: "ABC", Rate: amount("0.005"), PresaleRate: amount("0.004")}, svc.NativeRates(), "rates default")
	assert.Equal(t, Asset("ABC"), svc.NativeToken())
}

// TestDepositSecurityEvents: a replayed signature and a transaction that
// fails a check are recorded for the guardian; an outage is not.
func TestDepositSecurityEvents(t *testing.T) {
	rec := &guardiantest.Recorder{}
	chain := &fakeChain{d: usdc("sig1", 1_000_000)}
	store := newFakeStore()
	svc := newService(t, store, func(c *Config) { c.Deposits, c.Vault, c.Recorder = chain, testVault, rec })
	acct := Account{AgentID: agentID}
	_, err := svc.DepositOnChain(context.Background(), acct, USDC, "sig1")
	require.NoError(t, err)
	store.fail("Credit", toolkit.Errorf(toolkit.Conflict, "already exists"))
	_, err = svc.DepositOnChain(context.Background(), acct, USDC, "sig1")
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	chain.err = toolkit.Errorf(toolkit.Invalid, "tx_signature: the transfer's mint is X")
	_, err = svc.DepositOnChain(context.Background(), acct, USDC, "sig2")
	require.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	chain.err = errBoom
	_, err = svc.DepositOnChain(context.Background(), acct, USDC, "sig3")
	require.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	chain.err = nil
	_, err = svc.Deposit(context.Background(), acct, DepositInput{Amount: amount("2"), FundingPath: FundingDirectTransfer, OnChainTxHash: "sig4"})
	require.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "pays 1.00, claims 2")
	assert.Equal(t, []guardian.Type{guardian.TypeDepositReplay, guardian.TypeDepositVerificationFailed, guardian.TypeDepositVerificationFailed}, rec.Types())
	for _, ev := range rec.Events() {
		assert.Equal(t, agentID, ev.AgentID)
	}
}
