package platform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/support"
)

// Store is everything the services keep: one adapter (adapters/bunstore,
// adapters/memstore) implements every domain's store.
type Store interface {
	agents.Store
	billing.Store
	support.Store
	guardian.Store
	workspace.Store
	broker.Store
}

// Ports are the adapters the platform runs on. Store and Keys are
// required; the others are optional.
type Ports struct {
	// Store keeps every record. Platform.Close closes it when it is an
	// io.Closer.
	Store Store
	// Keys derives each agent's encryption key (adapters/tinkkeys).
	Keys cryptovault.KeyManager
	// Deposits verifies on-chain deposits (adapters/solanarpc). Nil: only
	// sandbox self-credit (when enabled) adds funds.
	Deposits billing.DepositVerifier
	// Oracle prices SOL deposits (adapters/coingecko). Nil: SOL deposits
	// are refused.
	Oracle billing.PriceOracle
	// Presale tells presale buyers of the native token (adapters/solanarpc).
	// Nil: link-wallet never grants the presale discount.
	Presale agents.PresaleChecker
	// Ready reports whether the store answers (readiness probe). Nil:
	// always ready.
	Ready func(ctx context.Context) error
	// Now is the clock of every service (default time.Now).
	Now func() time.Time
}

// Config are the policies of the services. Zero fields take defaults.
type Config struct {
	// KeyPrefix is the API key prefix, ending in "agent_" (default
	// agents.DefaultKeyPrefix).
	KeyPrefix string
	// WalletService is the service name in signed wallet messages
	// ("<service>-auth:<wallet>:<unix seconds>"; default "aft").
	WalletService string
	// SandboxSelfCredit lets sandbox agents credit themselves test funds,
	// at most SandboxCreditCap each (default 100).
	SandboxSelfCredit bool
	SandboxCreditCap  toolkit.Amount
	// LowBalance is the is_low threshold (default 0.01).
	LowBalance toolkit.Amount
	// IdempotencyRetention is how long answers are kept for
	// Idempotency-Key retries (default 24 h).
	IdempotencyRetention time.Duration
	// NativeToken is the service's own token and its rates (default
	// billing.DefaultNativeTokenConfig).
	NativeToken billing.NativeToken
	// MaxMemories, MaxMemoryBytes and MaxTrades are the per-agent
	// workspace quotas (defaults: workspace.DefaultMaxMemories,
	// DefaultMaxMemoryBytes and DefaultMaxTrades).
	MaxMemories    int64
	MaxMemoryBytes int64
	MaxTrades      int64
	// Calls tunes the tool-call path (timeouts, heavy-call capacity,
	// response cap). Its Recorder and Observe are set by New (Observe is
	// chained after the guardian's tool-call count).
	Calls toolcall.Options
	// Version is the platform version the guardian reports (default
	// Version()).
	Version string
	// Logger receives the guardian's recording errors and the background
	// work's failures (default slog.Default()).
	Logger *slog.Logger
}

// Services are the domain services of the toolkit: what httpapi serves.
// Agents, Billing, Catalog and Calls are always set by New; a hand-built
// Services may leave Support, Workspace, Brokers and Guardian nil, and
// the endpoints of a nil service are not served.
type Services struct {
	Agents  *agents.Service
	Billing *billing.Service
	// Catalog is every tool: the 41 finance tools and the 4 workspace
	// tools.
	Catalog *catalog.Catalog
	// Calls runs every tool call (REST shortcuts, /v1/tools/call, MCP,
	// Go callers): metered, authorized, counted.
	Calls     *toolcall.Service
	Support   *support.Service
	Workspace *workspace.Service
	Brokers   *broker.Service
	// Guardian serves status, reports, events, alerts and metrics, and
	// records the security events of the others.
	Guardian *guardian.Service
}

// Platform is every service of the toolkit built over one set of ports.
// Start its background work with Run; Close stops it and closes the store.
type Platform struct {
	Services
	store  Store
	logger *slog.Logger

	mu      sync.Mutex
	stop    context.CancelFunc
	stopped chan struct{}
	closed  bool
}

// New builds every service over ports, in the order their dependencies
// need: the guardian first (the others record to it), the vault, agents,
// support, the workspace, brokers, the catalog (the finance tools and the
// workspace tools), billing (which reads agents' wallets and takes the
// catalog's prices) and the call path. Nothing runs in the background
// until Run.
func New(ports Ports, cfg Config) (*Platform, error) {
	if ports.Store == nil || ports.Keys == nil {
		return nil, errors.New("platform: Ports.Store and Ports.Keys are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Version == "" {
		cfg.Version = Version()
	}
	p := &Platform{store: ports.Store, logger: cfg.Logger}
	if err := p.build(ports, cfg); err != nil {
		return nil, fmt.Errorf("platform: %w", err)
	}
	return p, nil
}

func (p *Platform) build(ports Ports, cfg Config) error {
	store, now := ports.Store, ports.Now
	var probe guardian.Probe
	if ports.Ready != nil {
		probe = ports.Ready
	}
	guard, err := guardian.New(store, guardian.Config{Version: cfg.Version, Probe: probe, Logger: cfg.Logger, Now: now})
	if err != nil {
		return err
	}
	vault := cryptovault.New(ports.Keys, cryptovault.WithTamperObserver(guardian.TamperObserver(guard)))
	ag, err := agents.NewService(store, agents.Config{KeyPrefix: cfg.KeyPrefix, Recorder: guard,
		WalletService: cfg.WalletService, Vault: vault, Presale: ports.Presale, Now: now})
	if err != nil {
		return err
	}
	desk, err := support.NewService(store, support.Config{Vault: vault, Now: now})
	if err != nil {
		return err
	}
	ws, err := workspace.NewService(store, workspace.Config{Vault: vault, Now: now,
		MaxMemories: cfg.MaxMemories, MaxMemoryBytes: cfg.MaxMemoryBytes, MaxTrades: cfg.MaxTrades})
	if err != nil {
		return err
	}
	brokers, err := broker.NewService(store, broker.Config{Vault: vault})
	if err != nil {
		return err
	}
	tools, err := Catalog(ws)
	if err != nil {
		return err
	}
	bill, err := billing.NewService(store, billing.Config{Prices: tools.Prices(),
		SandboxSelfCredit: cfg.SandboxSelfCredit, SandboxCreditCap: cfg.SandboxCreditCap, LowBalance: cfg.LowBalance,
		IdempotencyRetention: cfg.IdempotencyRetention, Recorder: guard, Vault: vault, NativeToken: cfg.NativeToken,
		Deposits: ports.Deposits, Oracle: ports.Oracle, Wallets: ag, Now: now,
	})
	if err != nil {
		return err
	}
	calls := cfg.Calls
	calls.Recorder = guard
	calls.Observe = countCalls(guard, cfg.Calls.Observe)
	p.Services = Services{Agents: ag, Billing: bill, Catalog: tools, Calls: toolcall.New(tools, bill, calls),
		Support: desk, Workspace: ws, Brokers: brokers, Guardian: guard}
	return nil
}

// countCalls counts every call in the guardian's 24-hour tool-call count,
// then tells next (when set).
func countCalls(guard *guardian.Service, next func(toolcall.Result, error)) func(toolcall.Result, error) {
	return func(res toolcall.Result, err error) {
		guard.CountToolCall()
		if next != nil {
			next(res, err)
		}
	}
}

// Catalog returns the served tool catalog: the 41 finance tools of
// catalog.Default and the 4 workspace tools of ws (45), with their
// categories. Its Prices are billing's price table.
func Catalog(ws *workspace.Service) (*catalog.Catalog, error) {
	c := catalog.Default()
	for _, cat := range workspace.Categories() {
		if err := c.DescribeCategory(cat); err != nil {
			return nil, err
		}
	}
	for _, t := range ws.Tools() {
		if err := c.Register(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Run does the platform's background work until ctx ends or Close is
// called: the guardian's event windows and the pruning of expired
// idempotency records (hourly). It returns once that work has stopped.
func (p *Platform) Run(ctx context.Context) {
	p.mu.Lock()
	if p.closed || p.stop != nil {
		p.mu.Unlock()
		return
	}
	ctx, p.stop = context.WithCancel(ctx)
	p.stopped = make(chan struct{})
	p.mu.Unlock()
	defer close(p.stopped)
	var wg sync.WaitGroup
	wg.Go(func() { p.Guardian.Run(ctx) })
	wg.Go(func() { p.pruneStoredResponses(ctx, time.Hour) })
	wg.Wait()
}

// pruneStoredResponses deletes expired idempotency records every interval
// until ctx ends. A failure is logged and retried at the next tick; a
// panic is logged and ends the pruning, never the process.
func (p *Platform) pruneStoredResponses(ctx context.Context, every time.Duration) {
	defer func() {
		if r := recover(); r != nil {
			p.logger.Error("idempotency pruning stopped", "panic", fmt.Sprint(r))
		}
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if n, err := p.Billing.PruneStoredResponses(ctx); err != nil && ctx.Err() == nil {
			p.logger.Error("idempotency pruning", "error", err.Error())
		} else if n > 0 {
			p.logger.Info("idempotency pruning", "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Close stops the background work (the guardian stores its open event
// windows first) and then closes the store when it is an io.Closer. It is
// safe to call more than once.
func (p *Platform) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	stop, stopped := p.stop, p.stopped
	p.mu.Unlock()
	if stop != nil {
		stop()
		<-stopped
	}
	if c, ok := p.store.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
