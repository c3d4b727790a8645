// Package storetest is the conformance suite every store adapter must
// pass. An adapter's test calls Run with a Harness that opens fresh, empty
// stores; the same cases then run on every engine (SQLite and Postgres for
// adapters/bunstore).
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, storetest.Harness{Open: openFreshStores})
//	}
package storetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/require"
)

// Store is everything a complete store adapter implements.
type Store interface {
	agents.Store
	billing.Store
	guardian.Store
}

// Harness opens stores for the suite.
type Harness struct {
	// Open returns n independent handles (each with its own connection
	// pool) on one fresh, empty, migrated database. The handles are closed
	// by t.Cleanup.
	Open func(t *testing.T, n int) []Store
}

// Run runs every conformance case as a subtest.
func Run(t *testing.T, h Harness) {
	t.Helper()
	cases := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"AgentRoundTrip", testAgentRoundTrip},
		{"AgentNotFound", testAgentNotFound},
		{"OwnerClaims", testOwnerClaims},
		{"DuplicateKeyDigest", testDuplicateKeyDigest},
		{"ListOrderingAndLimit", testListOrderingAndLimit},
		{"ModesAndTermination", testModesAndTermination},
		{"ReplaceKeyDigest", testReplaceKeyDigest},
		{"BalanceStartsAtZero", testBalanceStartsAtZero},
		{"ChargeAndCredit", testChargeAndCredit},
		{"ChargeInsufficientWritesNothing", testChargeInsufficientWritesNothing},
		{"LedgerOrderAndLimit", testLedgerOrderAndLimit},
		{"CreditExternalRefOnce", testCreditExternalRefOnce},
		{"SelfCreditCap", testSelfCreditCap},
		{"SpendLimitsRoundTrip", testSpendLimitsRoundTrip},
		{"IdempotencyStored", testIdempotencyStored},
		{"ConcurrentChargesExact", testConcurrentChargesExact},
		{"ConcurrentIdempotencyChargesOnce", testConcurrentIdempotencyChargesOnce},
		{"ConcurrentDepositsCreditOnce", testConcurrentDepositsCreditOnce},
		{"ConcurrentDailyCapExact", testConcurrentDailyCapExact},
		{"TwoInstancesMixedPrices", testTwoInstancesMixedPrices},
		{"GuardianEventRoundTrip", testGuardianEventRoundTrip},
		{"GuardianEventFiltersAndKeyset", testGuardianEventFiltersAndKeyset},
		{"GuardianAcknowledge", testGuardianAcknowledge},
		{"GuardianMaintenance", testGuardianMaintenance},
		{"GuardianCounters", testGuardianCounters},
		{"GuardianActiveAgents", testGuardianActiveAgents},
		{"GuardianRateTokens", testGuardianRateTokens},
		{"GuardianSharedRateLimit", testGuardianSharedRateLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.fn(t, h) })
	}
}

func openOne(t *testing.T, h Harness) Store {
	t.Helper()
	stores := h.Open(t, 1)
	require.Len(t, stores, 1)
	return stores[0]
}

var seq atomic.Int64

// newAgent stores a new agent of a new owner and returns it.
func newAgent(t *testing.T, s Store) agents.Agent {
	t.Helper()
	n := seq.Add(1)
	a := agents.Agent{
		ID: fmt.Sprintf("agt_test%08d", n), OwnerID: fmt.Sprintf("owner-%d", n), Name: "bot",
		Type: agents.TypeTrading, Mode: agents.ModeSandbox,
		CreatedAt: time.Date(2026, 11, 22, 10, 0, 0, int(n)*1000, time.UTC),
	}
	require.NoError(t, s.CreateAgent(context.Background(), a, digest(a.ID), true))
	return a
}

// digest returns a distinct key digest per name; newAgent stores agent a
// under digest(a.ID).
func digest(name string) []byte {
	d := sha256.Sum256([]byte(name))
	return d[:]
}

var ctx = context.Background()
