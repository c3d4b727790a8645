package billing

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// depositCase is one row of TestDeposit. The default is a live agent
// depositing 25 USD by direct_transfer with tx hash "sig1", with a chain
// verifier confirming exactly that.
type depositCase struct {
	name    string
	sandbox bool
	in      func(in *DepositInput)
	cfg     func(c *Config, chain *fakeChain, onramp *fakeOnramp)
	setup   func(f *fakeStore)

	wantKind    toolkit.Kind
	wantMsg     string // empty: the deposit succeeds
	wantCredit  *CreditRequest
	wantBalance string
	chainCalls  int
	onrampCalls int
}

func TestDeposit(t *testing.T) {
	runDepositCases(t, []depositCase{
		{name: "verified on chain", chainCalls: 1, wantBalance: "25.00",
			wantCredit: &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, ExternalRef: ptr("solana:sig1")}},
		{name: "x402 verified on chain", in: func(in *DepositInput) { in.FundingPath = FundingX402 }, chainCalls: 1,
			wantBalance: "25.00",
			wantCredit:  &CreditRequest{Micros: 25_000_000, FundingPath: FundingX402, ExternalRef: ptr("solana:sig1")}},
		{name: "verified amount in another decimal form",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.paid.Amount = amount("25.000000") }, chainCalls: 1,
			wantBalance: "25.00",
			wantCredit:  &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, ExternalRef: ptr("solana:sig1")}},
		{name: "onramp verified by its provider",
			in: func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" },
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.paid = VerifiedPayment{Amount: amount("25"), Ref: "onramp:pay_1"}
				c.Onramp = o
			},
			onrampCalls: 1, wantBalance: "25.00",
			wantCredit: &CreditRequest{Micros: 25_000_000, FundingPath: FundingOnramp, ExternalRef: ptr("onramp:pay_1")}},
		{name: "sandbox self-credit", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg:         func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			wantBalance: "25.00",
			wantCredit:  &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, SelfCreditCapMicros: 100_000_000}},
		{name: "sandbox self-credit under a configured cap", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) {
				c.SandboxSelfCredit, c.SandboxCreditCap = true, amount("30.5")
			},
			wantBalance: "25.00",
			wantCredit:  &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, SelfCreditCapMicros: 30_500_000}},
		{name: "sandbox self-credit over the cap", sandbox: true, in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			setup: func(f *fakeStore) {
				f.fail("Credit", toolkit.Errorf(toolkit.Forbidden, "amount: sandbox test credits are capped at $100.00 per agent ($90.00 already credited)"))
			},
			wantKind: toolkit.Forbidden, wantMsg: "sandbox test credits are capped at $100.00"},
		{name: "sandbox deposit with a tx hash is verified", sandbox: true,
			cfg:        func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			chainCalls: 1, wantBalance: "25.00",
			wantCredit: &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, ExternalRef: ptr("solana:sig1")}},
		{name: "sandbox without the self-credit policy needs a payment", sandbox: true,
			in:       func(in *DepositInput) { in.OnChainTxHash = "" },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: required for direct_transfer deposits"},
		{name: "live agent cannot self-credit", in: func(in *DepositInput) { in.OnChainTxHash = "" },
			cfg:      func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.SandboxSelfCredit = true },
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: required for direct_transfer deposits"},
		{name: "no chain verifier configured", cfg: func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.Chain = nil },
			wantKind: toolkit.Invalid, wantMsg: "funding_path: direct_transfer deposits need on-chain verification"},
		{name: "no onramp provider configured", in: func(in *DepositInput) { in.FundingPath = FundingOnramp },
			wantKind: toolkit.Invalid, wantMsg: "funding_path: onramp deposits need an onramp payment provider"},
		{name: "verified amount differs",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.paid.Amount = amount("24.99") },
			wantKind: toolkit.Invalid, wantMsg: "amount: the verified payment is 24.99, not 25", chainCalls: 1},
		{name: "verifier refuses the payment",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.Invalid, "on_chain_tx_hash: the transaction does not pay the treasury")
			},
			wantKind: toolkit.Invalid, wantMsg: "on_chain_tx_hash: the transaction does not pay the treasury", chainCalls: 1},
		{name: "verifier does not find the transaction",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.NotFound, "on_chain_tx_hash: no finalized transaction with this signature")
			},
			wantKind: toolkit.NotFound, wantMsg: "no finalized transaction", chainCalls: 1},
		{name: "verifier returns no payment reference",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.paid.Ref = "" },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
		{name: "payment already credited",
			setup:    func(f *fakeStore) { f.fail("Credit", toolkit.Errorf(toolkit.Conflict, "already exists")) },
			wantKind: toolkit.Conflict, wantMsg: "This payment was already credited (replay refused)", chainCalls: 1},
		{name: "credit fails", setup: func(f *fakeStore) { f.fail("Credit", errBoom) },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
		{name: "balance read after the credit fails", setup: func(f *fakeStore) { f.fail("Balance", errBoom) },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1,
			wantCredit: &CreditRequest{Micros: 25_000_000, FundingPath: FundingDirectTransfer, ExternalRef: ptr("solana:sig1")}},
		{name: "transaction id randomness fails",
			cfg:      func(c *Config, _ *fakeChain, _ *fakeOnramp) { c.Random = failingReader{} },
			wantKind: toolkit.Internal, wantMsg: "internal error", chainCalls: 1},
	})
}

func TestDepositValidation(t *testing.T) {
	long := strings.Repeat("s", MaxTxHashLen+1)
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
		{name: "deposit maximum and longest hash are accepted",
			in: func(in *DepositInput) {
				in.Amount, in.OnChainTxHash = USD(MaxDepositMicros), long[1:]
			},
			cfg:        func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.paid.Amount = USD(MaxDepositMicros) },
			chainCalls: 1, wantBalance: "1000000.00",
			wantCredit: &CreditRequest{Micros: 1_000_000_000_000, FundingPath: FundingDirectTransfer, ExternalRef: ptr("solana:sig1")}},
	})
}

func runDepositCases(t *testing.T, cases []depositCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			chain := &fakeChain{paid: VerifiedPayment{Amount: amount("25"), Ref: "solana:sig1"}}
			onramp := &fakeOnramp{}
			svc := newService(t, store, func(cfg *Config) {
				cfg.Chain = chain
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
			bal, err := svc.Deposit(context.Background(), Account{AgentID: agentID, Sandbox: c.sandbox}, in)

			if c.wantMsg != "" {
				require.Error(t, err)
				assert.Equal(t, c.wantKind, toolkit.KindOf(err), "%v", err)
				assert.Contains(t, toolkit.MessageOf(err), c.wantMsg)
			} else {
				require.NoError(t, err)
				assert.Equal(t, c.wantBalance, bal.Balance.String())
				assert.Equal(t, agentID, bal.AgentID)
			}
			assert.Len(t, chain.calls, c.chainCalls, "chain verifier calls")
			assert.Equal(t, c.onrampCalls, onramp.calls, "onramp verifier calls")
			if c.wantCredit == nil {
				assert.Empty(t, store.credits, "nothing credited")
				return
			}
			require.Len(t, store.credits, 1)
			want := *c.wantCredit
			want.TxID, want.AgentID, want.At = "tx_aaaaaaaaaaaaaaaa", agentID, testNow.UTC()
			assert.Equal(t, want, store.credits[0])
		})
	}
}

// TestDepositVerifierOutage: a verifier that cannot answer is a 503 the
// client may retry, never a 400 blaming the request; a verifier's own
// classification is kept.
func TestDepositVerifierOutage(t *testing.T) {
	onramp := func(in *DepositInput) { in.FundingPath, in.OnChainTxHash = FundingOnramp, "" }
	runDepositCases(t, []depositCase{
		{name: "chain verifier outage",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.err = errBoom },
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable; retry later", chainCalls: 1},
		{name: "chain verifier timeout",
			cfg:      func(_ *Config, chain *fakeChain, _ *fakeOnramp) { chain.err = context.DeadlineExceeded },
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable; retry later", chainCalls: 1},
		{name: "onramp provider outage", in: onramp,
			cfg: func(c *Config, _ *fakeChain, o *fakeOnramp) {
				o.err = errBoom
				c.Onramp = o
			},
			wantKind: toolkit.Unavailable, wantMsg: "payment verification is unavailable; retry later", onrampCalls: 1},
		{name: "verifier reports its own outage",
			cfg: func(_ *Config, chain *fakeChain, _ *fakeOnramp) {
				chain.err = toolkit.Errorf(toolkit.Unavailable, "the Solana RPC node is unreachable; retry later")
			},
			wantKind: toolkit.Unavailable, wantMsg: "the Solana RPC node is unreachable", chainCalls: 1},
	})
}
