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
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/require"
)

// Store is everything a complete store adapter implements, its change
// feed included.
type Store interface {
	agents.Store
	agents.ChangeFeed
	billing.Store
	support.Store
	guardian.Store
	workspace.Store
	broker.Store
}

// Harness opens stores for the suite.
type Harness struct {
	// Open returns n handles on one fresh, empty store, closed by
	// t.Cleanup. A database adapter returns independent handles (each with
	// its own connection pool, like separate servers on one database); an
	// in-memory adapter may return the same store n times.
	Open func(t *testing.T, n int) []Store
}

// Case is one conformance check. Each feature contributes its cases from
// its own file (agentCases in agents_cases.go, billingCases in
// billing_cases.go, ...), so adding a check never edits a shared list.
type Case struct {
	// Name is the subtest name; names are unique across the suite.
	Name string
	// Test runs the check against stores opened through the harness.
	Test func(t *testing.T, h Harness)
}

// cases returns every conformance case, one feature file per line.
func cases() []Case {
	return slices.Concat(
		agentCases(),
		changeCases(),
		billingCases(),
		concurrencyCases(),
		spendCases(),
		contextCases(),
		ledgerMachineCases(),
		supportCases(),
		guardianCases(),
		ledgerPageCases(),
		fundsCases(),
		walletCases(),
		workspaceCases(),
		ownerCases(),
	)
}

// Run runs every conformance case as a subtest.
func Run(t *testing.T, h Harness) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cases() {
		require.False(t, seen[c.Name], "storetest: case %s is listed twice", c.Name)
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) { c.Test(t, h) })
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
	require.NoError(t, s.CreateAgent(context.Background(), agents.Registration{Agent: a, KeyDigest: digest(a.ID), NewOwner: true}))
	return a
}

// digest returns a distinct key digest per name; newAgent stores agent a
// under digest(a.ID).
func digest(name string) []byte {
	d := sha256.Sum256([]byte(name))
	return d[:]
}

var ctx = context.Background()
