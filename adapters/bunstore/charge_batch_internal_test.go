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

// TestLostBatchAnswerResolvedFromTheLedger: after a Postgres batch whose
// answer was lost, the charges found in the ledger stand and the others
// are answered as not recorded (retry); none found means the batch did
// not commit, which lets the caller run it again.
func TestLostBatchAnswerResolvedFromTheLedger(t *testing.T) {
	batch := []*pendingCharge{
		{req: billing.ChargeRequest{TxID: "tx_a", AgentID: "agt_a", Micros: 3000}},
		{req: billing.ChargeRequest{TxID: "tx_b", AgentID: "agt_a", Micros: 3000}},
		{req: billing.ChargeRequest{TxID: "tx_c", AgentID: "agt_b", Micros: 3000}},
	}
	results := make([]chargeResult, len(batch))
	assert.False(t, fillCommitted(batch, results, nil), "nothing in the ledger: not committed")
	assert.Equal(t, make([]chargeResult, len(batch)), results, "and nothing answered yet")

	op := "position_sizing"
	rows := []ledgerRow{
		{Seq: 7, TxID: "tx_c", AgentID: "agt_b", Type: billing.TypeConsumption, Funds: "real", AmountMicros: -3000, BalanceAfter: 10, Operation: &op},
		{Seq: 6, TxID: "tx_a", AgentID: "agt_a", Type: billing.TypeConsumption, Funds: "real", AmountMicros: -3000, BalanceAfter: 20, Operation: &op},
	}
	require.True(t, fillCommitted(batch, results, rows))
	require.NoError(t, results[0].err)
	assert.Equal(t, int64(6), results[0].tx.Seq)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(results[1].err), "refused in a batch that committed")
	assert.Contains(t, toolkit.MessageOf(results[1].err), "not recorded")
	require.NoError(t, results[2].err)
	assert.Equal(t, int64(10), results[2].tx.BalanceAfter)
}
