package agents_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/guardian/guardiantest"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walletEnv is an agents.Service with a vault, a settable clock and a
// scripted presale checker over memstore.
type walletEnv struct {
	svc     *agents.Service
	store   *memstore.Store
	vault   *cryptovault.Vault
	now     time.Time
	presale *fakePresale
}

type fakePresale struct {
	buyer bool
	err   error
	calls int
}

func (p *fakePresale) IsPresaleBuyer(context.Context, agents.WalletAddress) (bool, error) {
	p.calls++
	return p.buyer, p.err
}

func newWalletEnv(t testing.TB, edit ...func(*agents.Config)) *walletEnv {
	t.Helper()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	e := &walletEnv{store: memstore.New(), vault: cryptovault.New(keys), now: time.Unix(1767225600, 0), presale: &fakePresale{}}
	cfg := agents.Config{Now: func() time.Time { return e.now }, Vault: e.vault, Presale: e.presale}
	for _, f := range edit {
		f(&cfg)
	}
	e.svc, err = agents.NewService(e.store, cfg)
	require.NoError(t, err)
	return e
}

type testWallet struct {
	key     ed25519.PrivateKey
	address string
}

func walletOf(seed string) testWallet {
	k := ed25519.NewKeyFromSeed([]byte(fmt.Sprintf("%-32s", seed)[:32]))
	return testWallet{key: k, address: base58.Encode(k.Public().(ed25519.PublicKey))}
}

func (w testWallet) sign(msg string) string { return base58.Encode(ed25519.Sign(w.key, []byte(msg))) }

func (e *walletEnv) signIn(w testWallet) (agents.WalletAgent, error) {
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, e.now.Unix())
	return e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg), Message: msg})
}

func (e *walletEnv) link(a agents.Agent, w testWallet) (agents.WalletLinkResult, error) {
	msg := fmt.Sprintf("aft-link:%s:%s:%d", a.ID, w.address, e.now.Unix())
	return e.svc.LinkWallet(context.Background(), a, agents.WalletLink{WalletAddress: w.address, Signature: w.sign(msg), Message: msg})
}

func TestRegisterWalletCreatesThenRotates(t *testing.T) {
	e := newWalletEnv(t)
	w := walletOf("alice")
	first, err := e.signIn(w)
	require.NoError(t, err)
	assert.True(t, first.Created)
	a := first.Agent
	assert.Equal(t, agents.ModeSandbox, a.Mode)
	assert.Equal(t, agents.DefaultWalletAgentName, a.Name)
	assert.Equal(t, agents.TypeTrading, a.Type)
	hash, err := e.vault.Hash(agents.WalletHashField, []byte(w.address))
	require.NoError(t, err)
	assert.Equal(t, "wallet:"+hex.EncodeToString(hash[:16]), a.OwnerID, "the owner comes from the keyed hash, not the address")
	assert.Equal(t, billing.Account{AgentID: a.ID, Funds: billing.FundsTest}, billing.AccountOf(a))
	got, err := e.svc.Authenticate(context.Background(), first.APIKey)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)

	_, err = e.signIn(w)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "the same challenge again")
	assert.Contains(t, toolkit.MessageOf(err), "already used")

	e.now = e.now.Add(time.Second)
	again, err := e.signIn(w)
	require.NoError(t, err)
	assert.False(t, again.Created)
	assert.Equal(t, a.ID, again.Agent.ID)
	_, err = e.svc.Authenticate(context.Background(), first.APIKey)
	assert.Equal(t, toolkit.Unauthenticated, toolkit.KindOf(err), "the old key stops working at once")
	_, err = e.svc.Authenticate(context.Background(), again.APIKey)
	require.NoError(t, err)

	wallets, err := e.svc.AgentWallets(context.Background(), a.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{w.address}, wallets)

	_, err = e.store.SetMode(context.Background(), a.ID, agents.ModeTerminated)
	require.NoError(t, err)
	e.now = e.now.Add(time.Second)
	_, err = e.signIn(w)
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "terminated")
}

func TestRegisterWalletRefusals(t *testing.T) {
	e := newWalletEnv(t)
	w := walletOf("bob")
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, e.now.Unix())
	tests := []struct {
		name string
		in   agents.WalletRegistration
		want string
	}{
		{"bad name", agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg), Message: msg, AgentName: " x"}, "agent_name"},
		{"bad type", agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg), Message: msg, AgentType: "bot"}, "agent_type"},
		{"bad signature", agents.WalletRegistration{WalletAddress: w.address, Signature: walletOf("eve").sign(msg), Message: msg}, "signature: does not verify"},
		{"stale", agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg), Timestamp: e.now.Unix() - 301}, "within 5 minutes"},
	}
	for _, tt := range tests {
		_, err := e.svc.RegisterWallet(context.Background(), tt.in)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), tt.name)
		assert.Contains(t, toolkit.MessageOf(err), tt.want, tt.name)
	}
	got, err := e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg),
		Timestamp: e.now.Unix(), AgentName: "Desk", AgentType: "risk"})
	require.NoError(t, err, "nothing refused above consumed the challenge")
	assert.Equal(t, "Desk", got.Agent.Name)
	assert.Equal(t, agents.TypeRisk, got.Agent.Type)

	noVault := newWalletEnv(t, func(c *agents.Config) { c.Vault = nil })
	_, err = noVault.signIn(w)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	_, err = noVault.link(got.Agent, w)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
}

func TestWalletOwnersAreReserved(t *testing.T) {
	e := newWalletEnv(t)
	for _, owner := range []string{"wallet:0123", "ｗａｌｌｅｔ:0123"} {
		_, err := e.svc.Register(context.Background(), agents.RegisterInput{OwnerID: owner, AgentName: "x", AgentType: "risk"}, "")
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), owner)
		assert.Contains(t, toolkit.MessageOf(err), `owner_id: the prefix "wallet:" is reserved`, owner)
	}

	signed, err := e.signIn(walletOf("carol"))
	require.NoError(t, err)
	reg2, err := e.svc.Register(context.Background(), agents.RegisterInput{OwnerID: signed.Agent.OwnerID, AgentName: "sibling", AgentType: "analysis"}, signed.APIKey)
	sibling := reg2.Agent
	require.NoError(t, err, "a wallet owner's agent may add agents to its owner")
	assert.Equal(t, signed.Agent.OwnerID, sibling.OwnerID)
}

func TestLinkWalletPresale(t *testing.T) {
	e := newWalletEnv(t)
	reg3, err := e.svc.Register(context.Background(), agents.RegisterInput{OwnerID: "acme", AgentName: "x", AgentType: "trading"}, "")
	a := reg3.Agent
	require.NoError(t, err)
	w := walletOf("dave")
	steps := []struct {
		name    string
		buyer   bool
		err     error
		want    bool
		message string
	}{
		{"not a buyer", false, nil, false, "No presale purchase was found"},
		{"a buyer", true, nil, true, "80 % of list prices"},
		{"the node is down: the status found for this wallet stays", true, toolkit.Errorf(toolkit.Unavailable, "down"), true, "keeps the presale status"},
		{"the chain says no", false, nil, false, "No presale purchase"},
		{"down again", true, toolkit.Errorf(toolkit.Unavailable, "down"), false, "could not be checked on chain (the Solana node could not be reached)"},
	}
	for _, st := range steps {
		e.now = e.now.Add(time.Second)
		e.presale.buyer, e.presale.err = st.buyer, st.err
		res, err := e.link(a, w)
		require.NoError(t, err, st.name)
		assert.Equal(t, st.want, res.Agent.PresaleBuyer, st.name)
		assert.Contains(t, res.Message, st.message, st.name)
		assert.Equal(t, w.address, res.Wallet.String())
		stored, err := e.svc.Me(context.Background(), a.ID)
		require.NoError(t, err)
		assert.Equal(t, st.want, billing.AccountOf(stored).Presale, "%s: the price follows through Account()", st.name)
	}
	_, err = e.link(a, w)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "a link message is accepted once")

	free := agents.WalletLink{WalletAddress: w.address, Signature: w.sign("Link wallet to agent " + a.ID), Message: "Link wallet to agent " + a.ID}
	res, err := e.svc.LinkWallet(context.Background(), a, free)
	require.NoError(t, err, "the published free-text form")
	assert.False(t, res.Agent.PresaleBuyer)
	_, err = e.svc.LinkWallet(context.Background(), a, free)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "each signature is accepted once, also without a time")
	e.now = e.now.Add(time.Hour)
	_, err = e.svc.LinkWallet(context.Background(), a, free)
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "and for good")

	wallets, err := e.svc.AgentWallets(context.Background(), a.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{w.address}, wallets)

	noRPC := newWalletEnv(t, func(c *agents.Config) { c.Presale = nil })
	reg4, err := noRPC.svc.Register(context.Background(), agents.RegisterInput{OwnerID: "acme", AgentName: "x", AgentType: "trading"}, "")
	b := reg4.Agent
	require.NoError(t, err)
	res, err = noRPC.link(b, w)
	require.NoError(t, err)
	assert.False(t, res.Agent.PresaleBuyer)
	assert.Contains(t, res.Message, "this server has no Solana RPC endpoint configured")
}

// TestAgentWalletsListsRegisteredAndLinked: a deposit binds by either.
func TestAgentWalletsListsRegisteredAndLinked(t *testing.T) {
	e := newWalletEnv(t)
	signed, err := e.signIn(walletOf("erin"))
	require.NoError(t, err)
	res, err := e.link(signed.Agent, walletOf("frank"))
	require.NoError(t, err)
	wallets, err := e.svc.AgentWallets(context.Background(), signed.Agent.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{walletOf("erin").address, res.Wallet.String()}, wallets)

	e.now = e.now.Add(time.Second)
	_, err = e.link(signed.Agent, walletOf("erin"))
	require.NoError(t, err)
	wallets, err = e.svc.AgentWallets(context.Background(), signed.Agent.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{walletOf("erin").address}, wallets, "no duplicates")

	none, err := e.svc.AgentWallets(context.Background(), "agt_nobody")
	require.NoError(t, err)
	assert.Empty(t, none)
}

// FuzzRegisterWallet: any request reaching the service fails with
// toolkit.Invalid or Conflict (a replay), never panics, and a wrong-length
// key or signature is never accepted.
func FuzzRegisterWallet(f *testing.F) {
	e := newWalletEnv(f)
	w := walletOf("fuzz")
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, e.now.Unix())
	f.Add(w.address, w.sign(msg), msg, "solana", int64(0))
	f.Add(w.address[:20], w.sign(msg), msg, "", e.now.Unix())
	f.Add(w.address, w.sign(msg)[:40], "", "SOLANA", e.now.Unix())
	f.Add(strings.Repeat("1", 44), strings.Repeat("1", 88), msg, "solana", int64(-1))
	f.Add("", "====", "\x00", "eth", int64(1<<62))
	f.Fuzz(func(t *testing.T, address, signature, message, chain string, ts int64) {
		res, err := e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{
			WalletAddress: address, Signature: signature, Message: message, Chain: chain, Timestamp: ts})
		if err == nil {
			if addr, _ := base58.Decode(address); len(addr) != 32 || res.APIKey == "" {
				t.Fatalf("accepted %q (%d bytes)", address, len(addr))
			}
			return
		}
		if k := toolkit.KindOf(err); k != toolkit.Invalid && k != toolkit.Conflict {
			t.Fatalf("kind %v: %v", k, err)
		}
	})
}

// TestWalletReplaysAreSecurityEvents: a replayed or stale signed message
// is recorded for the guardian; a fresh one is not.
func TestWalletReplaysAreSecurityEvents(t *testing.T) {
	rec := &guardiantest.Recorder{}
	e := newWalletEnv(t, func(c *agents.Config) { c.Recorder = rec })
	w := walletOf("grace")
	signed, err := e.signIn(w)
	require.NoError(t, err)
	assert.Empty(t, rec.Types())
	_, err = e.signIn(w)
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	stale := fmt.Sprintf("aft-auth:%s:%d", w.address, e.now.Unix()-600)
	_, err = e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(stale), Message: stale})
	require.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	_, err = e.link(signed.Agent, w)
	require.NoError(t, err)
	_, err = e.link(signed.Agent, w)
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	assert.Equal(t, []guardian.Type{guardian.TypeWalletChallengeReplay, guardian.TypeWalletChallengeReplay, guardian.TypeWalletChallengeReplay}, rec.Types())
	assert.Empty(t, rec.Events()[0].AgentID)
	assert.Equal(t, signed.Agent.ID, rec.Events()[2].AgentID)
	_, err = e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{WalletAddress: w.address, Signature: walletOf("eve").sign("x"),
		Message: fmt.Sprintf("aft-auth:%s:%d", w.address, e.now.Unix())})
	require.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	assert.Len(t, rec.Types(), 3, "a bad signature within the window is no replay")
}
