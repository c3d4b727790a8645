package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walletCases returns the cases of wallet sign-in and linking: each signed
// challenge is accepted once, a wallet's first sign-in creates its agent
// and later ones rotate its key, and link-wallet sets the presale status.
func walletCases() []Case {
	return []Case{
		{Name: "WalletSignInCreatesThenRotates", Test: testWalletSignInCreatesThenRotates},
		{Name: "WalletChallengeUsedOnce", Test: testWalletChallengeUsedOnce},
		{Name: "WalletChallengesPruned", Test: testWalletChallengesPruned},
		{Name: "WalletOfTerminatedAgent", Test: testWalletOfTerminatedAgent},
		{Name: "LinkWalletPresale", Test: testLinkWalletPresale},
		{Name: "PresaleBuyerRoundTrip", Test: testPresaleBuyerRoundTrip},
		{Name: "ConcurrentWalletChallengeOnce", Test: testConcurrentWalletChallengeOnce},
		{Name: "LinkSignatureUsedOnce", Test: testLinkSignatureUsedOnce},
		{Name: "LinkSignaturesPruned", Test: testLinkSignaturesPruned},
		{Name: "ConcurrentLinkSignatureOnce", Test: testConcurrentLinkSignatureOnce},
	}
}

// linkRecord returns a link-wallet write of agentID with a fresh signature
// digest and a message without a time.
func linkRecord(agentID, wallet string, presale *bool) agents.WalletLinkRecord {
	n := seq.Add(1)
	return agents.WalletLinkRecord{AgentID: agentID, SignatureDigest: digest(fmt.Sprintf("link-signature-%d", n)),
		WalletHash: digest("wallet-hash:" + wallet), SealedWallet: []byte(fmt.Sprintf("sealed:%s:%d", wallet, n)),
		Presale: presale, At: t0, PruneBefore: t0.Add(-10 * time.Minute)}
}

// signIn returns a register-wallet write for wallet with a fresh
// challenge and a fresh new agent and key.
func signIn(wallet string) agents.WalletSignIn {
	n := seq.Add(1)
	id := fmt.Sprintf("agt_wallet%08d", n)
	return agents.WalletSignIn{
		ChallengeDigest: digest(fmt.Sprintf("challenge-%d", n)), SignedAt: t0,
		WalletHash: digest("wallet-hash:" + wallet), SealedWallet: []byte("sealed:" + wallet + ":" + id),
		NewAgent: agents.Agent{ID: id, OwnerID: "wallet:" + wallet, Name: "wallet agent", Type: agents.TypeTrading,
			Mode: agents.ModeSandbox, CreatedAt: t0},
		KeyDigest: digest("key-" + id), PruneBefore: t0.Add(-10 * time.Minute),
	}
}

func testWalletSignInCreatesThenRotates(t *testing.T, h Harness) {
	s := openOne(t, h)
	wallet := fmt.Sprintf("w%d", seq.Add(1))
	first := signIn(wallet)
	a, created, err := s.RegisterWallet(ctx, first)
	require.NoError(t, err)
	assert.True(t, created)
	assert.Equal(t, first.NewAgent.ID, a.ID)
	assert.Equal(t, "wallet:"+wallet, a.OwnerID)
	assert.Equal(t, []string{}, a.AuthorizedActions, "like any stored agent")
	got, err := s.AgentByKeyDigest(ctx, first.KeyDigest)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Zero(t, b.Micros)
	assert.Zero(t, b.TestMicros)
	list, err := s.ListAgentsByOwner(ctx, a.OwnerID, 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	w, err := s.AgentWallets(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, first.SealedWallet, w.Registered)
	assert.Nil(t, w.Linked)

	again := signIn(wallet)
	a2, created, err := s.RegisterWallet(ctx, again)
	require.NoError(t, err)
	assert.False(t, created, "a known wallet rotates its agent's key")
	assert.Equal(t, a.ID, a2.ID)
	_, err = s.AgentByKeyDigest(ctx, first.KeyDigest)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "the old key stops working at once")
	got, err = s.AgentByKeyDigest(ctx, again.KeyDigest)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
	_, err = s.AgentByID(ctx, again.NewAgent.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "no second agent")
	w, err = s.AgentWallets(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, first.SealedWallet, w.Registered, "the stored address is the first one's")

	none, err := s.AgentWallets(ctx, "agt_missing")
	require.NoError(t, err)
	assert.Equal(t, agents.WalletRecords{}, none)
}

func testWalletChallengeUsedOnce(t *testing.T, h Harness) {
	s := openOne(t, h)
	in := signIn(fmt.Sprintf("w%d", seq.Add(1)))
	a, _, err := s.RegisterWallet(ctx, in)
	require.NoError(t, err)

	replay := signIn("another wallet")
	replay.ChallengeDigest = in.ChallengeDigest
	_, _, err = s.RegisterWallet(ctx, replay)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	_, err = s.AgentByID(ctx, replay.NewAgent.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "a replay creates nothing")
	_, err = s.AgentByKeyDigest(ctx, replay.KeyDigest)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "a replay mints no key")

	rotate := signIn("unused")
	rotate.WalletHash, rotate.ChallengeDigest = in.WalletHash, in.ChallengeDigest
	_, _, err = s.RegisterWallet(ctx, rotate)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	_, err = s.AgentByKeyDigest(ctx, in.KeyDigest)
	require.NoError(t, err, "a replay rotates nothing")
	got, err := s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
}

func testWalletChallengesPruned(t *testing.T, h Harness) {
	s := openOne(t, h)
	old := signIn(fmt.Sprintf("w%d", seq.Add(1)))
	old.SignedAt = t0.Add(-time.Hour)
	_, _, err := s.RegisterWallet(ctx, old)
	require.NoError(t, err)
	recent := signIn(fmt.Sprintf("w%d", seq.Add(1)))
	_, _, err = s.RegisterWallet(ctx, recent) // prunes before t0 − 10 min
	require.NoError(t, err)

	reuse := signIn(fmt.Sprintf("w%d", seq.Add(1)))
	reuse.ChallengeDigest = old.ChallengeDigest
	_, _, err = s.RegisterWallet(ctx, reuse)
	require.NoError(t, err, "a pruned digest is gone (its message fails the time window long before)")
	reuse = signIn(fmt.Sprintf("w%d", seq.Add(1)))
	reuse.ChallengeDigest = recent.ChallengeDigest
	_, _, err = s.RegisterWallet(ctx, reuse)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a recent digest is kept")
}

func testWalletOfTerminatedAgent(t *testing.T, h Harness) {
	s := openOne(t, h)
	in := signIn(fmt.Sprintf("w%d", seq.Add(1)))
	a, _, err := s.RegisterWallet(ctx, in)
	require.NoError(t, err)
	_, err = s.SetMode(ctx, a.ID, agents.ModeTerminated)
	require.NoError(t, err)
	again := signIn("unused")
	again.WalletHash = in.WalletHash
	for range 2 {
		_, _, err = s.RegisterWallet(ctx, again)
		assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "refused, and the challenge stays unused")
	}
	_, err = s.AgentByKeyDigest(ctx, again.KeyDigest)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func testLinkWalletPresale(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	link := func(wallet string, presale *bool) (agents.Agent, error) {
		n := seq.Add(1)
		return s.LinkWallet(ctx, agents.WalletLinkRecord{AgentID: a.ID, SignatureDigest: digest(fmt.Sprintf("link-%d", n)),
			SignedAt: t0, WalletHash: digest("wallet-hash:" + wallet), SealedWallet: []byte(fmt.Sprintf("sealed:%s:%d", wallet, n)),
			Presale: presale, At: t0, PruneBefore: t0.Add(-10 * time.Minute)})
	}
	steps := []struct {
		name    string
		wallet  string
		presale *bool
		want    bool
	}{
		{"a verified buyer", "buyer", ptr(true), true},
		{"relinking it while the chain cannot answer keeps the status", "buyer", nil, true},
		{"another wallet while the chain cannot answer", "other", nil, false},
		{"the buyer again, unchecked: the status found before was replaced", "buyer", nil, false},
		{"checked again", "buyer", ptr(true), true},
		{"the chain says no", "buyer", ptr(false), false},
	}
	for _, st := range steps {
		got, err := link(st.wallet, st.presale)
		require.NoError(t, err, st.name)
		assert.Equal(t, st.want, got.PresaleBuyer, st.name)
		stored, err := s.AgentByKeyDigest(ctx, digest(a.ID))
		require.NoError(t, err)
		assert.Equal(t, st.want, stored.PresaleBuyer, st.name)
		w, err := s.AgentWallets(ctx, a.ID)
		require.NoError(t, err)
		assert.Contains(t, string(w.Linked), "sealed:"+st.wallet+":", "one linked wallet, the latest")
	}
	other := newAgent(t, s)
	got, err := s.LinkWallet(ctx, agents.WalletLinkRecord{AgentID: other.ID, SignatureDigest: digest("link-other-agent"),
		SignedAt: t0, WalletHash: digest("wallet-hash:buyer"), SealedWallet: []byte("sealed"), Presale: ptr(true), At: t0, PruneBefore: t0})
	require.NoError(t, err)
	assert.True(t, got.PresaleBuyer, "one presale wallet may be linked to several agents")

	missing := agents.WalletLinkRecord{AgentID: "agt_missing", SignatureDigest: digest("link-missing"), SignedAt: t0,
		WalletHash: digest("w"), SealedWallet: []byte("s"), At: t0, PruneBefore: t0}
	_, err = s.LinkWallet(ctx, missing)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	missing.AgentID = a.ID
	_, err = s.LinkWallet(ctx, missing)
	require.NoError(t, err, "the refused link left its signature unused")
}

func testPresaleBuyerRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := agents.Agent{ID: fmt.Sprintf("agt_presale%d", seq.Add(1)), OwnerID: fmt.Sprintf("owner-presale-%d", seq.Add(1)),
		Name: "bot", Type: agents.TypeTrading, Mode: agents.ModeLive, CreatedAt: t0, PresaleBuyer: true}
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest(a.ID), NewOwner: true}))
	got, err := s.AgentByID(ctx, a.ID)
	require.NoError(t, err)
	assert.True(t, got.PresaleBuyer)
	got, err = s.SetMode(ctx, a.ID, agents.ModeSandbox)
	require.NoError(t, err)
	assert.True(t, got.PresaleBuyer, "a mode change keeps the presale status")
}

// testConcurrentWalletChallengeOnce: 20 sign-ins racing with one signed
// challenge (each minting its own key) create one agent with one key.
func testConcurrentWalletChallengeOnce(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	wallet := fmt.Sprintf("w%d", seq.Add(1))
	template := signIn(wallet)
	ins := make([]agents.WalletSignIn, 20)
	for i := range ins {
		ins[i] = signIn(wallet)
		ins[i].ChallengeDigest = template.ChallengeDigest
	}
	onceAmong(t, len(ins), func(i int) error {
		_, _, err := stores[i%2].RegisterWallet(ctx, ins[i])
		return err
	})
	keys := 0
	for _, in := range ins {
		if _, err := stores[0].AgentByKeyDigest(ctx, in.KeyDigest); err == nil {
			keys++
		}
	}
	assert.Equal(t, 1, keys, "one key minted")
}

func ptr[T any](v T) *T { return &v }

// testLinkSignatureUsedOnce: a link-wallet signature is accepted once, by
// any agent, and a refused replay writes nothing.
func testLinkSignatureUsedOnce(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	first := linkRecord(a.ID, "first", ptr(false))
	_, err := s.LinkWallet(ctx, first)
	require.NoError(t, err)
	before, err := s.AgentWallets(ctx, a.ID)
	require.NoError(t, err)

	for _, replay := range []agents.WalletLinkRecord{linkRecord(a.ID, "second", ptr(true)), linkRecord(b.ID, "second", ptr(true))} {
		replay.SignatureDigest = first.SignatureDigest
		_, err = s.LinkWallet(ctx, replay)
		assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "the same signature again, for %s", replay.AgentID)
		got, err := s.AgentByID(ctx, replay.AgentID)
		require.NoError(t, err)
		assert.False(t, got.PresaleBuyer, "a refused link writes nothing")
	}
	after, err := s.AgentWallets(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the linked wallet is unchanged")
	none, err := s.AgentWallets(ctx, b.ID)
	require.NoError(t, err)
	assert.Nil(t, none.Linked)
}

// testLinkSignaturesPruned: a used signature whose message carries a time
// is deleted once that time is before PruneBefore (the message then fails
// the window); one whose message carries no time is kept for good.
func testLinkSignaturesPruned(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	timed := linkRecord(a.ID, "w", nil)
	timed.SignedAt = t0.Add(-time.Hour)
	timed.PruneBefore = t0.Add(-2 * time.Hour)
	_, err := s.LinkWallet(ctx, timed)
	require.NoError(t, err)
	untimed := linkRecord(a.ID, "w", nil)
	_, err = s.LinkWallet(ctx, untimed)
	require.NoError(t, err)

	late := linkRecord(a.ID, "w", nil)
	late.PruneBefore = t0.Add(365 * 24 * time.Hour) // prunes every timed signature
	_, err = s.LinkWallet(ctx, late)
	require.NoError(t, err)

	reuse := linkRecord(a.ID, "w", nil)
	reuse.SignatureDigest = timed.SignatureDigest
	_, err = s.LinkWallet(ctx, reuse)
	require.NoError(t, err, "a pruned timed signature is gone (its message fails the time window long before)")
	reuse = linkRecord(a.ID, "w", nil)
	reuse.SignatureDigest = untimed.SignatureDigest
	_, err = s.LinkWallet(ctx, reuse)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a signature without a time is kept")
}

// testConcurrentLinkSignatureOnce: 20 links racing with one signature,
// on two handles of one database, link once.
func testConcurrentLinkSignatureOnce(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	a := newAgent(t, stores[0])
	template := linkRecord(a.ID, "w", ptr(true))
	onceAmong(t, 20, func(i int) error {
		in := linkRecord(a.ID, fmt.Sprintf("w%d", i), ptr(true))
		in.SignatureDigest = template.SignatureDigest
		_, err := stores[i%2].LinkWallet(ctx, in)
		return err
	})
}
