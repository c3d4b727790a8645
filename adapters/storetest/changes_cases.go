package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// changeCases returns the cases of the change feed (agents.ChangeFeed):
// every method that changes an agent announces it, to its own instance
// before it returns and to the other instances once committed; a change
// that failed is announced to no other instance.
func changeCases() []Case {
	return []Case{
		{Name: "AgentChangesAnnounced", Test: testAgentChangesAnnounced},
		{Name: "FailedChangesNotAnnouncedElsewhere", Test: testFailedChangesNotAnnounced},
	}
}

// heard records what a ChangeListener is told.
type heard struct {
	mu     sync.Mutex
	agents []string
	up     bool
}

func (h *heard) AgentChanged(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.agents = append(h.agents, id)
}
func (h *heard) FeedDown() { h.mu.Lock(); defer h.mu.Unlock(); h.up = false }
func (h *heard) FeedUp()   { h.mu.Lock(); defer h.mu.Unlock(); h.up = true }

// has reports whether the agent's change was heard, and forgets it.
func (h *heard) has(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.agents)
	h.agents = slices.DeleteFunc(h.agents, func(x string) bool { return x == id })
	return len(h.agents) < n
}

func (h *heard) isUp() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.up }

// feedTimeout bounds the wait for another instance to hear a change: a
// liveness bound for loaded CI machines, not the feed's latency.
const feedTimeout = 10 * time.Second

// listening subscribes a recorder on s and waits for the feed to be up.
func listening(t *testing.T, s Store) *heard {
	t.Helper()
	h := &heard{}
	stop := s.Subscribe(h)
	t.Cleanup(stop)
	require.Eventually(t, h.isUp, feedTimeout, 5*time.Millisecond, "the feed comes up")
	return h
}

func testAgentChangesAnnounced(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	here, there := listening(t, stores[0]), listening(t, stores[1])
	s := stores[0]
	wallet := fmt.Sprintf("w%d", seq.Add(1))
	walletAgent, _, err := s.RegisterWallet(ctx, signIn(wallet))
	require.NoError(t, err)
	daily := int64(10_000)
	changes := map[string]func(a agents.Agent){
		"SetMode": func(a agents.Agent) {
			_, err := s.SetMode(ctx, a.ID, agents.ModeSuspended)
			require.NoError(t, err)
		},
		"ReplaceKeyDigest": func(a agents.Agent) { require.NoError(t, s.ReplaceKeyDigest(ctx, a.ID, digest("rotated-"+a.ID), t0)) },
		"SetSpendLimits": func(a agents.Agent) {
			require.NoError(t, s.SetSpendLimits(ctx, a.ID, billing.SpendLimits{DailyMicros: &daily}))
		},
		"LinkWallet": func(a agents.Agent) {
			yes := true
			_, err := s.LinkWallet(ctx, linkRecord(a.ID, "linked-"+a.ID, &yes))
			require.NoError(t, err)
		},
	}
	for name, change := range changes {
		a := newAgent(t, s)
		change(a)
		assert.True(t, here.has(a.ID), "%s: announced on its own instance before returning", name)
		assert.Eventually(t, func() bool { return there.has(a.ID) }, feedTimeout, 5*time.Millisecond,
			"%s: announced to the other instance", name)
	}
	_, _, err = s.RegisterWallet(ctx, signIn(wallet))
	require.NoError(t, err)
	assert.True(t, here.has(walletAgent.ID), "RegisterWallet rotating a key: announced on its own instance")
	assert.Eventually(t, func() bool { return there.has(walletAgent.ID) }, feedTimeout, 5*time.Millisecond,
		"RegisterWallet rotating a key: announced to the other instance")
}

func testFailedChangesNotAnnounced(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	there := listening(t, stores[1])
	s := stores[0]
	failed, mark, ok := newAgent(t, s), newAgent(t, s), newAgent(t, s)
	daily := int64(10_000)
	require.NoError(t, s.SetSpendLimits(ctx, failed.ID, billing.SpendLimits{DailyMicros: &daily}))
	_, err := s.SetMode(ctx, failed.ID, agents.ModeTerminated)
	require.NoError(t, err)
	_, err = s.SetMode(ctx, mark.ID, agents.ModeLive) // heard after failed's two changes
	require.NoError(t, err)
	require.Eventually(t, func() bool { return there.has(mark.ID) }, feedTimeout, 5*time.Millisecond)
	require.True(t, there.has(failed.ID))

	require.Error(t, s.SetSpendLimits(ctx, failed.ID, billing.SpendLimits{DailyMicros: &daily, Version: 7}), "a stale version")
	_, err = s.SetMode(ctx, failed.ID, agents.ModeLive)
	require.Error(t, err, "terminated is final")
	require.Error(t, s.ReplaceKeyDigest(ctx, "agt_missing", digest("x"), t0))
	_, err = s.SetMode(ctx, ok.ID, agents.ModeLive) // announced after the failures: heard after them
	require.NoError(t, err)
	require.Eventually(t, func() bool { return there.has(ok.ID) }, feedTimeout, 5*time.Millisecond)
	if stores[0] != stores[1] { // an in-memory store's instances are one: it hears its own attempts
		assert.False(t, there.has(failed.ID), "changes that failed are announced to no other instance")
		assert.False(t, there.has("agt_missing"))
	}
}
