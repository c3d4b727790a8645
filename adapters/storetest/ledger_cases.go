package storetest

import (
	"fmt"
	"testing"

	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ledgerPageCases returns the cases of the ledger's keyset pages
// (billing.TransactionQuery).
func ledgerPageCases() []Case {
	return []Case{
		{Name: "LedgerSeqIncreases", Test: testLedgerSeqIncreases},
		{Name: "LedgerPagesWithoutLossOrRepetition", Test: testLedgerPagesWithoutLossOrRepetition},
	}
}

func testLedgerSeqIncreases(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	first := credit(t, s, a.ID, 10_000, nil)
	other := credit(t, s, b.ID, 10_000, nil)
	charged, err := s.Charge(ctx, chargeReq(a.ID, "risk_check", 1000))
	require.NoError(t, err)
	assert.Positive(t, first.Seq)
	assert.Greater(t, other.Seq, first.Seq, "one sequence for every agent")
	assert.Greater(t, charged.Seq, other.Seq)
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	require.Len(t, txs, 2)
	assert.Equal(t, []int64{charged.Seq, first.Seq}, []int64{txs[0].Seq, txs[1].Seq}, "rows read back carry the Seq written")
	older, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10, BeforeSeq: charged.Seq})
	require.NoError(t, err)
	require.Len(t, older, 1)
	assert.Equal(t, first.TxID, older[0].TxID, "BeforeSeq excludes the row itself")
	none, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10, BeforeSeq: first.Seq})
	require.NoError(t, err)
	assert.Empty(t, none)
}

// ledgerRows is the size of the paged ledger: more than a maximum page
// (the HTTP tests page through 2,500 rows on memstore).
const ledgerRows = 1200

func testLedgerPagesWithoutLossOrRepetition(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	var written []string // oldest first
	for i := range ledgerRows {
		tx, err := s.Credit(ctx, billing.CreditRequest{TxID: fmt.Sprintf("tx_p%d", seq.Add(1)), AgentID: a.ID,
			Micros: int64(1 + i), FundingPath: billing.FundingDirectTransfer, At: t0})
		require.NoError(t, err)
		written = append(written, tx.TxID)
		if i%300 == 0 { // another agent's rows interleave
			credit(t, s, b.ID, 1, nil)
		}
	}
	var read []string
	before := int64(0)
	for page := 0; ; page++ {
		require.Less(t, page, ledgerRows, "paging ends")
		txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 450, BeforeSeq: before})
		require.NoError(t, err)
		if len(txs) == 0 {
			break
		}
		for _, tx := range txs {
			read = append(read, tx.TxID)
		}
		before = txs[len(txs)-1].Seq
		// Rows written while the client pages never appear on later pages
		// nor push older rows off them.
		credit(t, s, a.ID, 1, nil)
	}
	require.Len(t, read, ledgerRows)
	for i, id := range read {
		if id != written[ledgerRows-1-i] {
			t.Fatalf("row %d of the pages is %s, want %s", i, id, written[ledgerRows-1-i])
		}
	}
}
