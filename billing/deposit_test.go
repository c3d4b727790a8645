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

// depositCase is one row of TestDeposit. The default is a live agent
// depositing 25 USD by direct_transfer with tx hash "sig1", with a deposit
// verifier confirming a USDC transfer of exactly that.
type depositCase struct {
	name    string
	sandbox bool
	in      func(in *DepositInput)
	cfg     func(c *Config, chain *fakeChain, onramp *fakeOnramp)
	setup   func(f *fakeStore)

	wantKind    toolkit.Kind
	wantMsg     string // empty: the deposit succeeds
	wantCredit  *CreditRequest
	wantBalance string // the real balance after
	wantTest    string // the test balance after ("" means "0.00")
	chainCalls  int
	onrampCalls int
}

// chainCredit is the credit of a verified USDC deposit of micros by sig.
func chainCredit(t *testing.T, sig, path string, micros int64, quantity string) *CreditRequest {
	q, usdc := amount(quantity), string(USDC)
	return &CreditRequest{Funds: FundsReal, Micros: micros, FundingPath: path, ExternalRef: sigRef(t, sig), Currency: &usdc, Quantity: &q}
}

func TestDeposit(t *testing.T) {
	runDepositCases(t, []depositCase{
		{name: "verified on chain as USDC", chainCalls: 1, wantBalance: "25.00",
			wantCredit: chainCredit(t, "sig1", FundingDirectTransfer, 25_000_000, "25.000000")},
		{name: "x402 verified on chain", in: func(in *DepositInput) { in.FundingPath = FundingX402 }, chainCalls: 1,
			wantBalance: "25.00", wantCredit: chainCredit(t, "sig1", FundingX402, 25_000_000, "25.000000")},
		{name: "the transaction pays more than claimed: what it paid is credited",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.d = usdc("sig1", 30_000_000) }, chainCalls: 1,
			wantBalance: "30.00", wantCredit: chainCredit(t, "sig1", FundingDirectTransfer, 30_000_000, "30.000000")},
		{name: "the transaction pays less than claimed",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.d = usdc("sig1", 24_990_000) },
			wantKind: toolkit.Invalid, wantMsg: "amount: the transaction pays 24.99 USDC, less than the 25 claimed; nothing was credited", chainCalls: 1},
		{name: "onramp verified by its provider",
			in: func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" },
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.paid = VerifiedPayment{Amount: amount("25"), Ref: "onramp:pay_1"}
				c.Onramp = o
			},
			onrampCalls: 1, wantBalance: "25.00",
			wantCredit: &CreditRequest{Funds: FundsReal, Micros: 25_000_000, FundingPath: FundingOnramp, ExternalRef: ptr("onramp:pay_1")}},
		{name: "onramp amount differs",
			in: func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" },
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.paid = VerifiedPayment{Amount: amount("24.99"), Ref: "onramp:pay_1"}
				c.Onramp = o
			},
			onrampCalls: 1, wantKind: toolkit.Invalid, wantMsg: "amount: the verified payment is 24.99, not 25"},
		{name: "onramp without a reference",
			in: func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" },
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.paid = VerifiedPayment{Amount: amount("25")}
				c.Onramp = o
			},
			onrampCalls: 1, wantKind: toolkit.Internal, wantMsg: "internal error"},
		{name: "sandbox self-credit is test money", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg:         func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			wantBalance: "0.00", wantTest: "25.00",
			wantCredit: &CreditRequest{Funds: FundsTest, Micros: 25_000_000, FundingPath: FundingDirectTransfer, SelfCreditCapMicros: 100_000_000}},
		{name: "sandbox self-credit under a configured cap", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) {
				c.SandboxSelfCredit, c.SandboxCreditCap = true, amount("30.5")
			},
			wantBalance: "0.00", wantTest: "25.00",
			wantCredit: &CreditRequest{Funds: FundsTest, Micros: 25_000_000, FundingPath: FundingDirectTransfer, SelfCreditCapMicros: 30_500_000}},
		{name: "sandbox self-credit over the cap", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			setup: func(f *fakeStore) {
				f.fail("Credit", toolkit.Errorf(toolkit.Forbidden, "amount: sandbox test credits are capped at $100.00 per agent ($90.00 already credited)"))
			},
			wantKind: toolkit.Forbidden, wantMsg: "sandbox test credits are capped at $100.00"},
		{name: "a sandbox deposit with a tx hash is verified and real", sandbox: true,
			cfg:        func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			chainCalls: 1, wantBalance: "25.00",
			wantCredit: chainCredit(t, "sig1", FundingDirectTransfer, 25_000_000, "25.000000")},
		{name: "sandbox without the self-credit policy needs a payment", sandbox: true,
			in:       func(in *DepositInput) { in.OnChainTxHash = "" },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: required for direct_transfer deposits"},
		{name: "live agent cannot self-credit", in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg:      func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: required for direct_transfer deposits (the payment is verified on chain before crediting); self-credited test funds are for sandbox mode only"},
		{name: "no deposit verifier configured", cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.Deposits = nil },
			wantKind: toolkit.Unavailable, wantMsg: "no Solana RPC endpoint configured"},
		{name: "no onramp provider configured", in: func(in *DepositInput) { in.FundingPath = FundingOnramp },
			wantKind: toolkit.Invalid, wantMsg: "funding_path: onramp deposits need an onramp payment provider"},
		{name: "verifier refuses the payment, naming the generic field",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.Invalid, "tx_signature: the transaction does not pay the treasury")
			},
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: the transaction does not pay the treasury", chainCalls: 1},
		{name: "verifier's own kind is kept",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.NotFound, "no finalized transaction with this signature")
			},
			wantKind: toolkit.NotFound, wantMsg: "no finalized transaction", chainCalls: 1},
		{name: "verifier answers another asset",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.d.Asset = SOL },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
		{name: "verifier answers nothing received",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.d.BaseUnits = 0 },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
		{name: "the agent's wallets cannot be read",
			cfg:      func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.Wallets = fakeWallets{err: errBoom} },
			wantKind: toolkit.Internal, wantMsg: "internal error"},
		{name: "payment already credited",
			setup:    func(f *fakeStore) { f.fail("Credit", toolkit.Errorf(toolkit.Conflict, "already exists")) },
			wantKind: toolkit.Conflict, wantMsg: "on_chain_tx_hash: this transaction was already credited (replay refused)", chainCalls: 1},
		{name: "credit fails", setup: func(f *fakeStore) { f.fail("Credit", errBoom) },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
		{name: "balance read after the credit fails", setup: func(f *fakeStore) { f.fail("Balance", errBoom) },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1,
			wantCredit: chainCredit(t, "sig1", FundingDirectTransfer, 25_000_000, "25.000000")},
		{name: "transaction id randomness fails",
			cfg:      func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.Random = failingReader{} },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
	})
}

func TestDepositValidation(t *testing.T) {
	long := strings.Repeat("s", MaxTxHashLen+1)
	sig := strings.Repeat("5", MaxTxSignatureLen)
	runDepositCases(t, []depositCase{
		{name: "zero amount", in: func(in *DepositInput) { in.Amount = amount("0") },
			wantKind: toolkit.Invalid, wantMsg: "amount: must be greater than 0 (got 0)"},
		{name: "negative amount", in: func(in *DepositInput) { in.Amount = amount("-5") },
			wantKind: toolkit.Invalid, wantMsg: "amount: must be greater than 0 (got -5)"},
		{name: "above the deposit maximum", in: func(in *DepositInput) { in.Amount = amount("1000000.000001") },
			wantKind: toolkit.Invalid, wantMsg: "amount: at most 1000000.00 per deposit"},
		{name: "below a micro-USD", in: func(in *DepositInput) { in.Amount = amount("25.0000001") },
			wantKind: toolkit.Invalid, wantMsg: "amount: at most 6 decimal places (got 25.0000001)"},
		{name: "unknown funding path", in: func(in *DepositInput) { in.FundingPath = "paypal" },
			wantKind: toolkit.Invalid, wantMsg: `funding_path: must be one of onramp, direct_transfer, x402 (got "paypal")`},
		{name: "tx hash too long", in: func(in *DepositInput) { in.OnChainTxHash = long },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: at most 128 characters"},
		{name: "longer than a transaction signature", in: func(in *DepositInput) { in.OnChainTxHash = sig + "5" },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: at most 88 characters"},
		{name: "deposit maximum and longest signature are accepted",
			in: func(in *DepositInput) { in.Amount, in.OnChainTxHash = USD(MaxDepositMicros), sig },
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.d = usdc(sig, 1_000_000_000_000)
			},
			chainCalls: 1, wantBalance: "1000000.00",
			wantCredit: chainCredit(t, sig, FundingDirectTransfer, 1_000_000_000_000, "1000000.000000")},
	})
}

func runDepositCases(t *testing.T, cases []depositCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			chain := &fakeChain{d: usdc("sig1", 25_000_000)}
			onramp := &fakeOnramp{}
			svc := newService(t, store, func(cfg *Config) {
				cfg.Deposits, cfg.Vault, cfg.Wallets = chain, testVault, fakeWallets{wallets: []string{"wallet1"}}
				cfg.Random = bytes.NewReader(make([]byte, 16))
				if c.cfg != nil {
					c.cfg(cfg, chain, onramp)
				}
			})
			if c.setup != nil {
				c.setup(store)
			}
			in := DepositInput{Amount: amount("25"), FundingPath: FundingDirectTransfer, OnChainTxHash: "sig1"}
			if c.in != nil {
				c.in(&in)
			}
			acct := Account{AgentID: agentID, Funds: FundsReal}
			if c.sandbox {
				acct.Funds = FundsTest
			}
			bal, err := svc.Deposit(context.Background(), acct, in)

			if c.wantMsg != "" {
				require.Error(t, err)
				assert.Equal(t, c.wantKind, toolkit.KindOf(err), "%v", err)
				assert.Contains(t, toolkit.MessageOf(err), c.wantMsg)
			} else {
				require.NoError(t, err)
				assert.Equal(t, c.wantBalance, bal.RealBalance.String())
				assert.Equal(t, cmpOr(c.wantTest, "0.00"), bal.SandboxBalance.String())
				paying := bal.RealBalance
				if c.sandbox {
					paying = bal.SandboxBalance
				}
				assert.Equal(t, paying, bal.Balance, "balance is what the calls are paid from")
				assert.Equal(t, agentID, bal.AgentID)
			}
			assert.Len(t, chain.calls, c.chainCalls, "deposit verifier calls")
			for _, q := range chain.calls {
				assert.Equal(t, DepositQuery{Signature: in.OnChainTxHash, Asset: USDC, AgentID: agentID, Wallets: []string{"wallet1"}}, q)
			}
			assert.Equal(t, c.onrampCalls, onramp.calls, "onramp verifier calls")
			if c.wantCredit == nil {
				assert.Empty(t, store.credits, "nothing credited")
				return
			}
			require.Len(t, store.credits, 1)
			got := store.credits[0]
			if got.SealedSignature != nil {
				sig, err := testVault.OpenString(context.Background(), agentID, TxSignatureField, got.SealedSignature)
				require.NoError(t, err)
				assert.Equal(t, in.OnChainTxHash, sig, "the signature is stored sealed for the agent")
				got.SealedSignature = nil
			}
			want := *c.wantCredit
			want.TxID, want.AgentID, want.At = "tx_aaaaaaaaaaaaaaaa", agentID, testNow.UTC()
			assert.Equal(t, want, got)
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// TestDepositVerifierOutage: a verifier that cannot answer is a 503 with a
// retry hint, never a 400 blaming the request; a verifier's own
// classification is kept.
func TestDepositVerifierOutage(t *testing.T) {
	onramp := func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" }
	runDepositCases(t, []depositCase{
		{name: "deposit verifier outage",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.err = errBoom },
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable; nothing was recorded, retry later", chainCalls: 1},
		{name: "deposit verifier timeout",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.err = context.DeadlineExceeded },
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable", chainCalls: 1},
		{name: "onramp provider outage", in: onramp,
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.err = errBoom
				c.Onramp = o
			},
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable", onrampCalls: 1},
		{name: "verifier reports its own outage",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.Unavailable, "tx_signature: not finalized yet; retry in a minute")
			},
			wantKind: toolkit.Unavailable, wantMsg: "on_chain_tx_hash: not finalized yet; retry in a minute", chainCalls: 1},
	})
	for _, err := range []error{errBoom, toolkit.Errorf(toolkit.Unavailable, "node down"),
		&toolkit.Error{Kind: toolkit.Unavailable, Msg: "slow down", RetryAfter: 5 * time.Second}} {
		want := verifyRetryAfter
		if d := toolkit.RetryAfterOf(err); d > 0 {
			want = d
		}
		assert.Equal(t, want, toolkit.RetryAfterOf(verifierError(err)), "%v", err)
	}
}
