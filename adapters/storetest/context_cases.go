package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contextCases returns the cases about cancellation: a call whose context
// is already done does nothing and reports toolkit.Unavailable.
func contextCases() []Case {
	return []Case{
		{Name: "CancelledContextWritesNothing", Test: testCancelledContextWritesNothing},
	}
}

func testCancelledContextWritesNothing(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	done, cancel := context.WithCancel(ctx)
	cancel()

	fresh := agents.Agent{ID: "agt_cancelled", OwnerID: "owner-cancelled", Name: "x", Type: agents.TypeRisk,
		Mode: agents.ModeSandbox, CreatedAt: t0}
	daily := int64(1)
	ref := "solana:sig-cancelled"
	writes := map[string]func() error{
		"CreateAgent": func() error {
			return s.CreateAgent(done, agents.Registration{Agent: fresh, KeyDigest: digest(fresh.ID), NewOwner: true})
		},
		"SetMode": func() error {
			_, err := s.SetMode(done, a.ID, agents.ModeLive)
			return err
		},
		"ReplaceKeyDigest": func() error { return s.ReplaceKeyDigest(done, a.ID, digest("k-cancelled"), time.Now()) },
		"Charge": func() error {
			_, err := s.Charge(done, chargeReq(a.ID, "risk_check", 4000))
			return err
		},
		"Credit": func() error {
			_, err := s.Credit(done, billing.CreditRequest{TxID: "tx_cancelled", AgentID: a.ID, Micros: 5,
				FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, At: t0})
			return err
		},
		"SetSpendLimits": func() error {
			return s.SetSpendLimits(done, a.ID, billing.SpendLimits{DailyMicros: &daily})
		},
		"RegisterWallet": func() error {
			_, _, err := s.RegisterWallet(done, signIn("cancelled"))
			return err
		},
		"LinkWallet": func() error {
			_, err := s.LinkWallet(done, agents.WalletLinkRecord{AgentID: a.ID, SignatureDigest: digest("link-cancelled"),
				SignedAt: t0, WalletHash: digest("w"), SealedWallet: []byte("s"), Presale: ptr(true), At: t0, PruneBefore: t0})
			return err
		},
	}
	for name, write := range writes {
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(write()), name)
	}

	_, err := s.AgentByID(ctx, fresh.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "no agent created")
	got, err := s.AgentByKeyDigest(ctx, digest(a.ID))
	require.NoError(t, err, "key unchanged")
	assert.Equal(t, agents.ModeSandbox, got.Mode, "mode unchanged")
	assert.False(t, got.PresaleBuyer, "no wallet linked")
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000), b.Micros, "balance unchanged")
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: a.ID, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, txs, 1, "ledger unchanged")
	l, err := s.SpendLimits(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, billing.SpendLimits{}, l, "limits unchanged")
}
