// Package memstore implements the toolkit's stores (agents.Store,
// billing.Store, support.Store, guardian.Store, workspace.Store,
// broker.Store) in memory, with the semantics of adapters/bunstore: the
// same uniqueness rules, the same error kinds, the same ordering, and the
// same all-or-nothing writes. It passes the full adapters/storetest suite.
//
// Every method holds one mutex for its whole run, so each call is one
// serialisable transaction; values are copied in and out, so a caller
// never shares a slice or pointer with the store.
//
// Nothing is persisted: memstore is for tests, examples and embedding
// programs that accept losing their state on exit. A server that takes
// real money uses a database store.
package memstore

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

var (
	_ agents.Store  = (*Store)(nil)
	_ billing.Store = (*Store)(nil)
)

// Store is the in-memory store. The zero value is not usable; call New.
// It is safe for concurrent use.
type Store struct {
	mu sync.Mutex

	owners      map[string]ownerRecord
	ownerKeys   map[string]string      // owner key hash (raw bytes as a string) -> owner id
	agents      map[string]agentRecord // by agent id
	keyDigests  map[string]string      // key digest (raw bytes as a string) -> agent id
	balances    map[string]billing.BalanceRecord
	ledgers     map[string][]ledgerEntry // by agent id, oldest first
	ledgerSeq   int64                    // the last ledger row's Seq
	txIDs       map[string]struct{}      // every ledger transaction id
	externalRef map[string]struct{}      // every credited external payment
	usage       map[string]map[string]billing.UsageLine
	idempotency map[idempotencyKey]storedResponse
	limits      map[string]billing.SpendLimits
	spend       map[string]billing.SpendTotals // running consumption per agent
	support     supportTables
	guardian    guardianData
	ws          workspaceTables

	feed feed // announces agent changes (agents.ChangeFeed)

	challenges     map[string]time.Time        // used wallet challenge digest -> signed at
	linkSignatures map[string]time.Time        // used link-wallet signature digest -> message time (zero: none)
	wallets        map[string]registeredWallet // wallet keyed hash -> registration
	linked         map[string]linkedWallet     // agent id -> linked wallet
}

// New returns an empty store.
func New() *Store {
	return &Store{
		owners:         map[string]ownerRecord{},
		ownerKeys:      map[string]string{},
		agents:         map[string]agentRecord{},
		keyDigests:     map[string]string{},
		balances:       map[string]billing.BalanceRecord{},
		ledgers:        map[string][]ledgerEntry{},
		txIDs:          map[string]struct{}{},
		externalRef:    map[string]struct{}{},
		usage:          map[string]map[string]billing.UsageLine{},
		idempotency:    map[idempotencyKey]storedResponse{},
		limits:         map[string]billing.SpendLimits{},
		spend:          map[string]billing.SpendTotals{},
		support:        newSupportTables(),
		guardian:       newGuardianData(),
		ws:             newWorkspaceTables(),
		challenges:     map[string]time.Time{},
		linkSignatures: map[string]time.Time{},
		wallets:        map[string]registeredWallet{},
		linked:         map[string]linkedWallet{},
	}
}

// lock takes the store's mutex unless ctx is already done; like a
// database store, a cancelled call does nothing and reports
// toolkit.Unavailable. The caller unlocks.
func (s *Store) lock(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: "the store is unavailable; retry later", Err: err}
	}
	s.mu.Lock()
	return nil
}

func notFound(op string) error {
	return &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "not found"}
}

func conflict(op, what string) error {
	return &toolkit.Error{Kind: toolkit.Conflict, Op: op, Msg: "already exists", Err: errors.New(what)}
}

// limitRows returns n bounded by limit; like SQL without a LIMIT clause,
// a limit <= 0 keeps every row.
func limitRows(n, limit int) int {
	if limit > 0 && limit < n {
		return limit
	}
	return n
}
