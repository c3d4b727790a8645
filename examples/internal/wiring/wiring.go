// Package wiring assembles the toolkit for the example programs: a
// bunstore on SQLite or Postgres, the vault's keys (adapters/tinkkeys),
// the domain services, and the catalog.
// It is the one place that shows how adapters plug into the services.
package wiring

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/support"
)

// Config selects the database and the policies of the services.
type Config struct {
	// DB is a Postgres URL (postgres://...) or a SQLite file path.
	DB string
	// KeyPrefix is the API key prefix (default "aft_agent_").
	KeyPrefix string
	// SandboxSelfCredit lets sandbox agents self-credit test funds.
	SandboxSelfCredit bool
	// SandboxCreditCap bounds those test funds per agent (default 100).
	SandboxCreditCap toolkit.Amount
	// LowBalance is the is_low threshold (default 0.01).
	LowBalance toolkit.Amount
	// Logger receives the guardian's recording errors (default
	// slog.Default()).
	Logger *slog.Logger
	// OnStoreError is told about database faults (for metrics).
	OnStoreError bunstore.ErrorObserver
	// IdempotencyRetention is how long answers are kept for
	// Idempotency-Key retries (default 24 h).
	IdempotencyRetention time.Duration
	// Keys is the path of the vault's key file (required). Without
	// KEKFile it is a development key file, created on first start.
	Keys string
	// KEKFile, when set, selects production protection: the key file is
	// encrypted under the AEAD keyset in this file (see
	// tinkkeys.LoadLocalKEK), which stands in for a KMS key.
	KEKFile string
	// KeysAD is the deployment name bound to a KEK-protected key file
	// (required with KEKFile), e.g. "prod/agentfin-keys".
	KeysAD string
	// CreateKeys lets a missing KEK-protected key file be created. It is
	// off by default so that a mistyped path fails at start instead of
	// sealing new data under new keys.
	CreateKeys bool
	// WalletService is the service name in signed wallet messages
	// ("<service>-auth:<wallet>:<unix seconds>"; default "aft").
	WalletService string
	// Solana configures on-chain deposits and presale checks.
	Solana Solana
}

// Open opens the store and builds the services over it, the guardian
// recording the security events of the others. Run svc.Guardian.Run while
// serving, and close the returned store when done.
func Open(ctx context.Context, cfg Config) (httpapi.Services, *bunstore.Store, error) {
	if !strings.HasPrefix(cfg.DB, "postgres://") && !strings.HasPrefix(cfg.DB, "postgresql://") {
		if err := os.MkdirAll(filepath.Dir(cfg.DB), 0o700); err != nil {
			return httpapi.Services{}, nil, fmt.Errorf("creating the data directory: %w", err)
		}
	}
	keys, err := OpenKeys(cfg)
	if err != nil {
		return httpapi.Services{}, nil, err
	}
	chain, oracle, err := solanaAdapters(cfg.Solana)
	if err != nil {
		return httpapi.Services{}, nil, err
	}
	store, err := bunstore.Open(ctx, cfg.DB, bunstore.Options{OnError: cfg.OnStoreError})
	if err != nil {
		return httpapi.Services{}, nil, err
	}
	guard, err := guardian.New(store, guardian.Config{Version: httpapi.Version, Probe: store.Ready, Logger: cfg.Logger})
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	vault := cryptovault.New(keys, cryptovault.WithTamperObserver(guardian.TamperObserver(guard)))
	agentsCfg := agents.Config{KeyPrefix: cfg.KeyPrefix, Recorder: guard, WalletService: cfg.WalletService, Vault: vault}
	billingCfg := billing.Config{
		SandboxSelfCredit: cfg.SandboxSelfCredit, SandboxCreditCap: cfg.SandboxCreditCap, LowBalance: cfg.LowBalance,
		IdempotencyRetention: cfg.IdempotencyRetention, Recorder: guard, Vault: vault,
		NativeToken: billing.NativeToken{Asset: billing.Asset(cfg.Solana.NativeToken), Rate: cfg.Solana.NativeRate,
			PresaleRate: cfg.Solana.NativePresaleRate},
	}
	if chain != nil { // nil interfaces, not typed nils, when Solana is off
		agentsCfg.Presale, billingCfg.Deposits, billingCfg.Oracle = chain, chain, oracle
	}
	ag, err := agents.NewService(store, agentsCfg)
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	billingCfg.Wallets = ag
	bill, err := billing.NewService(store, billingCfg)
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	desk, err := support.NewService(store, support.Config{Vault: vault})
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	return httpapi.Services{Agents: ag, Billing: bill, Catalog: catalog.Default(), Support: desk, Guardian: guard}, store, nil
}

// OpenKeys returns the vault's key manager: the development key file at
// cfg.Keys (created on first start), or with cfg.KEKFile the key file
// encrypted under that KEK and the deployment name cfg.KeysAD (created
// only with cfg.CreateKeys). A wrong KEK or deployment name fails here, at
// start.
func OpenKeys(cfg Config) (*tinkkeys.KeyManager, error) {
	if cfg.Keys == "" {
		return nil, errors.New("wiring: the key file path is empty")
	}
	if cfg.KEKFile == "" {
		if cfg.KeysAD != "" {
			return nil, errors.New("wiring: a deployment name (keys AD) only applies to a KEK-protected key file")
		}
		return tinkkeys.LoadOrCreateDevKeys(cfg.Keys)
	}
	if cfg.KeysAD == "" {
		return nil, errors.New("wiring: a KEK-protected key file needs a deployment name (keys AD), e.g. prod/agentfin-keys")
	}
	kek, err := tinkkeys.LoadLocalKEK(cfg.KEKFile)
	if err != nil {
		return nil, err
	}
	km, err := tinkkeys.LoadEncryptedKeys(cfg.Keys, kek, []byte(cfg.KeysAD))
	if errors.Is(err, fs.ErrNotExist) {
		if !cfg.CreateKeys {
			return nil, fmt.Errorf("wiring: key file %s does not exist; create it once with -keys-create (TOOLKIT_KEYS_CREATE=true)", cfg.Keys)
		}
		if err := os.MkdirAll(filepath.Dir(cfg.Keys), 0o700); err != nil {
			return nil, fmt.Errorf("creating the key file directory: %w", err)
		}
		return tinkkeys.CreateEncryptedKeys(cfg.Keys, kek, []byte(cfg.KeysAD))
	}
	return km, err
}
