package bunstore

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPanickingCommitAnswersEveryCaller: a commit that panics answers
// every charge of its batch (none waits forever), gives its slot back, and
// the panic reaches the committing caller.
func TestPanickingCommitAnswersEveryCaller(t *testing.T) {
	b := newChargeBatcher(8, 1, func(*committerSlot, []*pendingCharge) { panic("boom") })
	pending := func(agent string) *pendingCharge {
		p := &pendingCharge{req: billing.ChargeRequest{AgentID: agent}, result: make(chan chargeResult, 1)}
		require.NoError(t, b.enqueue(p))
		return p
	}
	others := []*pendingCharge{pending("agt_a"), pending("agt_b"), pending("agt_c")}
	leader := pending("agt_leader")
	assert.PanicsWithValue(t, "boom", func() { b.wait(context.Background(), leader) })
	for _, p := range append(others, leader) {
		r := <-p.result
		assert.Equal(t, toolkit.Internal, toolkit.KindOf(r.err), p.req.AgentID)
	}
	assert.Len(t, b.slots, 1, "the slot is free again")
}
