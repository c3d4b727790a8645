package billing

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/internal/changecache"
)

// Account is who a billing call is for and which funds pay for it
// (agents.Agent.Account builds it).
type Account struct {
	AgentID string
	// Presale buyers pay 80 % of list on every operation, and get the
	// presale rate on native-token deposits.
	Presale bool
	// Funds is the class the account's calls are paid from: FundsTest for
	// a sandbox agent, FundsReal for a live one. Empty means FundsReal. A
	// test account may also self-credit test funds when the policy allows.
	Funds Funds
}

// Sandbox reports whether the account pays from test funds.
func (a Account) Sandbox() bool { return a.Funds.normal() == FundsTest }

// Config configures a Service. Zero fields take defaults.
type Config struct {
	// Prices is the price table: the list price of each priced operation
	// (platform.New takes it from the tool catalog, catalog.Catalog.Prices).
	// An operation not in it is free, so nil makes every call free.
	Prices Prices
	// LowBalance is the threshold below which a balance is reported as
	// low (default 0.01).
	LowBalance toolkit.Amount
	// SandboxSelfCredit lets sandbox agents credit themselves test funds
	// through the generic deposit without a verified payment (library
	// default: off; the reference server turns it on).
	SandboxSelfCredit bool
	// SandboxCreditCap bounds an agent's total self-credited test funds
	// (default 100.00).
	SandboxCreditCap toolkit.Amount
	// Deposits verifies on-chain deposit transactions: the deposit-usdc,
	// -usdt, -pyusd, -sol and native-token endpoints, and direct_transfer
	// and x402 generic deposits (as USDC). Nil: those deposits are
	// toolkit.Unavailable, naming the missing setup. Requires Vault.
	Deposits DepositVerifier
	// Oracle prices SOL deposits. Nil: SOL deposits are
	// toolkit.Unavailable.
	Oracle PriceOracle
	// NativeToken is the service's own token and its credit rates
	// (default DefaultNativeTokenConfig()).
	NativeToken NativeToken
	// Vault seals deposit transaction signatures per agent and computes
	// their keyed hash, the ledger's replay key. Required with Deposits.
	Vault *cryptovault.Vault
	// Wallets lists an agent's wallets, to bind a deposit to the agent by
	// its sender (agents.Service implements it). Nil: deposits bind by
	// their memo only.
	Wallets WalletSource
	// Onramp verifies onramp deposits. Nil: such deposits are refused.
	Onramp OnrampVerifier
	// IdempotencyRetention is how long a stored answer of a priced call is
	// kept for Idempotency-Key retries before PruneStoredResponses may
	// delete it (default 24 h, as Stripe does).
	IdempotencyRetention time.Duration
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of transaction ids (default crypto/rand).
	Random io.Reader
	// Recorder receives security events: replayed payments and failed
	// payment verifications (default: discarded).
	Recorder guardian.Recorder
	// Cache tunes the cache of pre-charge checks (balances, caps and
	// running totals per agent), kept when the store implements
	// agents.ChangeFeed (see check_cache.go).
	Cache agents.CacheConfig
}

// Service is the billing domain service.
type Service struct {
	store Store
	cfg   Config
	// checks caches the pre-charge checks; nil when the store has no
	// change feed.
	checks *changecache.Cache[string, cachedCheck]
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) (*Service, error) {
	if cfg.Prices == nil {
		cfg.Prices = Prices{}
	}
	if err := cfg.Prices.validate(); err != nil {
		return nil, err
	}
	if cfg.LowBalance.IsZero() {
		cfg.LowBalance = toolkit.MustParseAmount("0.01")
	}
	if cfg.SandboxCreditCap.IsZero() {
		cfg.SandboxCreditCap = toolkit.MustParseAmount("100")
	}
	if _, err := cfg.SandboxCreditCap.Micros(); err != nil {
		return nil, fmt.Errorf("billing: sandbox credit cap: %w", err)
	}
	if err := cfg.NativeToken.setDefaults(); err != nil {
		return nil, err
	}
	if cfg.Deposits != nil && cfg.Vault == nil {
		return nil, fmt.Errorf("billing: on-chain deposits need a Vault (to seal signatures and hash them for replay protection)")
	}
	if cfg.IdempotencyRetention <= 0 {
		cfg.IdempotencyRetention = 24 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	cfg.Recorder = guardian.OrDiscard(cfg.Recorder)
	return &Service{store: store, cfg: cfg, checks: newCheckCache(store, cfg.Cache, cfg.Now)}, nil
}

// Prices returns the price table.
func (s *Service) Prices() Prices { return s.cfg.Prices }

// Price returns what account pays for one call of operation.
func (s *Service) Price(operation string, presale bool) toolkit.Amount {
	return USD(s.cfg.Prices.Micros(operation, presale))
}

// Balance is an agent's balance as reported to clients.
type Balance struct {
	AgentID string
	// Balance is what the account's calls are paid from now (PaysFrom):
	// the test funds in sandbox mode, the real funds otherwise.
	Balance toolkit.Amount
	// RealBalance is the real funds (verified deposits).
	RealBalance toolkit.Amount
	// SandboxBalance is the test funds (sandbox self-credit).
	SandboxBalance toolkit.Amount
	// PaysFrom is the class the account's calls are paid from.
	PaysFrom Funds
	// IsLow reports whether Balance is below the low-balance threshold.
	IsLow     bool
	UpdatedAt time.Time
}

// Balance returns the account's balances.
func (s *Service) Balance(ctx context.Context, acct Account) (Balance, error) {
	rec, err := s.store.Balance(ctx, acct.AgentID)
	if err != nil {
		return Balance{}, toolkit.WithOp("billing.Balance", err)
	}
	return s.balanceOf(rec, acct.Funds), nil
}

func (s *Service) balanceOf(rec BalanceRecord, paysFrom Funds) Balance {
	paysFrom = paysFrom.normal()
	paying := USD(rec.Of(paysFrom))
	return Balance{AgentID: rec.AgentID, Balance: paying, RealBalance: USD(rec.Micros), SandboxBalance: USD(rec.TestMicros),
		PaysFrom: paysFrom, IsLow: paying.Cmp(s.cfg.LowBalance) < 0, UpdatedAt: rec.UpdatedAt.UTC()}
}

// Usage returns the agent's usage totals by operation.
func (s *Service) Usage(ctx context.Context, agentID string) ([]UsageLine, error) {
	lines, err := s.store.Usage(ctx, agentID)
	return lines, toolkit.WithOp("billing.Usage", err)
}

// PruneStoredResponses deletes the stored answers of priced calls older
// than Config.IdempotencyRetention; a retry with such a key is then a new
// call. It reports how many it deleted. Run it periodically (the reference
// server does so every hour).
func (s *Service) PruneStoredResponses(ctx context.Context) (int64, error) {
	n, err := s.store.PruneStoredResponses(ctx, s.cfg.Now().Add(-s.cfg.IdempotencyRetention))
	return n, toolkit.WithOp("billing.PruneStoredResponses", err)
}

// newTxID returns a transaction id (toolkit.NewID).
func (s *Service) newTxID() (string, error) {
	return toolkit.NewID(s.cfg.Random, "tx_")
}
