// Package wiring assembles the toolkit for the example programs: a
// bunstore on SQLite or Postgres, the domain services, and the catalog.
// It is the one place that shows how adapters plug into the services.
package wiring

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/httpapi"
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
	// IdempotencyRetention is how long answers are kept for
	// Idempotency-Key retries (default 24 h).
	IdempotencyRetention time.Duration
}

// Open opens the store and builds the services over it. Close the
// returned store when done.
func Open(ctx context.Context, cfg Config) (httpapi.Services, *bunstore.Store, error) {
	if !strings.HasPrefix(cfg.DB, "postgres://") && !strings.HasPrefix(cfg.DB, "postgresql://") {
		if err := os.MkdirAll(filepath.Dir(cfg.DB), 0o700); err != nil {
			return httpapi.Services{}, nil, fmt.Errorf("creating the data directory: %w", err)
		}
	}
	store, err := bunstore.Open(ctx, cfg.DB, bunstore.Options{})
	if err != nil {
		return httpapi.Services{}, nil, err
	}
	ag, err := agents.NewService(store, agents.Config{KeyPrefix: cfg.KeyPrefix})
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	bill, err := billing.NewService(store, billing.Config{
		SandboxSelfCredit: cfg.SandboxSelfCredit, SandboxCreditCap: cfg.SandboxCreditCap, LowBalance: cfg.LowBalance,
		IdempotencyRetention: cfg.IdempotencyRetention,
	})
	if err != nil {
		store.Close()
		return httpapi.Services{}, nil, err
	}
	return httpapi.Services{Agents: ag, Billing: bill, Catalog: catalog.Default()}, store, nil
}
