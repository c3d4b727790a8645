package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// adapterConfig selects the adapters the server opens: the store, the
// vault's key file and the Solana and price adapters.
type adapterConfig struct {
	// DB is a Postgres URL (postgres://...) or a SQLite file path.
	DB string
	// OnStoreError is told about database faults (for metrics).
	OnStoreError bunstore.ErrorObserver
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
	// Solana configures on-chain deposits and presale checks.
	Solana solanaConfig
}

// openPlatform opens the adapters and builds every service over them.
// Closing the platform closes the store; the store is returned for the
// operations that need it directly (the shared rate limiter).
func openPlatform(ctx context.Context, ac adapterConfig, pc platform.Config) (*platform.Platform, *bunstore.Store, error) {
	if !strings.HasPrefix(ac.DB, "postgres://") && !strings.HasPrefix(ac.DB, "postgresql://") {
		if err := os.MkdirAll(filepath.Dir(ac.DB), 0o700); err != nil {
			return nil, nil, fmt.Errorf("creating the data directory: %w", err)
		}
	}
	keys, err := openKeys(ac)
	if err != nil {
		return nil, nil, err
	}
	chain, oracle, err := solanaAdapters(ac.Solana)
	if err != nil {
		return nil, nil, err
	}
	store, err := bunstore.Open(ctx, ac.DB, bunstore.Options{OnError: ac.OnStoreError})
	if err != nil {
		return nil, nil, err
	}
	ports := platform.Ports{Store: store, Keys: keys, Ready: store.Ready}
	if chain != nil { // nil interfaces, not typed nils, when Solana is off
		ports.Deposits, ports.Presale, ports.Oracle = chain, chain, oracle
	}
	pc.NativeToken = billing.NativeToken{Asset: billing.Asset(ac.Solana.NativeToken), Rate: ac.Solana.NativeRate,
		PresaleRate: ac.Solana.NativePresaleRate}
	p, err := platform.New(ports, pc)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return p, store, nil
}

// openKeys returns the vault's key manager: the development key file at
// ac.Keys (created on first start), or with ac.KEKFile the key file
// encrypted under that KEK and the deployment name ac.KeysAD (created only
// with ac.CreateKeys). A wrong KEK or deployment name fails here, at
// start.
func openKeys(ac adapterConfig) (*tinkkeys.KeyManager, error) {
	if ac.Keys == "" {
		return nil, errors.New("keys: the key file path is empty")
	}
	if ac.KEKFile == "" {
		if ac.KeysAD != "" {
			return nil, errors.New("keys: a deployment name (keys AD) only applies to a KEK-protected key file")
		}
		return tinkkeys.LoadOrCreateDevKeys(ac.Keys)
	}
	if ac.KeysAD == "" {
		return nil, errors.New("keys: a KEK-protected key file needs a deployment name (keys AD), e.g. prod/agentfin-keys")
	}
	kek, err := tinkkeys.LoadLocalKEK(ac.KEKFile)
	if err != nil {
		return nil, err
	}
	km, err := tinkkeys.LoadEncryptedKeys(ac.Keys, kek, []byte(ac.KeysAD))
	if errors.Is(err, fs.ErrNotExist) {
		if !ac.CreateKeys {
			return nil, fmt.Errorf("keys: key file %s does not exist; create it once with -keys-create (TOOLKIT_KEYS_CREATE=true)", ac.Keys)
		}
		if err := os.MkdirAll(filepath.Dir(ac.Keys), 0o700); err != nil {
			return nil, fmt.Errorf("creating the key file directory: %w", err)
		}
		return tinkkeys.CreateEncryptedKeys(ac.Keys, kek, []byte(ac.KeysAD))
	}
	return km, err
}
