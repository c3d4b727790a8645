package agents_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specSignIn sends only the spec's three fields, the challenge signed at
// signedAt.
func (e *walletEnv) specSignIn(w testWallet, signedAt time.Time) (agents.WalletAgent, error) {
	msg := fmt.Sprintf("aft-auth:%s:%d", w.address, signedAt.Unix())
	return e.svc.RegisterWallet(context.Background(), agents.WalletRegistration{WalletAddress: w.address, Signature: w.sign(msg), Chain: "solana"})
}

// TestRegisterWalletWithTheSpecFields: wallet_address, signature and chain
// are enough; the server finds the signed second, the challenge is still
// accepted once, and a later challenge rotates the key.
func TestRegisterWalletWithTheSpecFields(t *testing.T) {
	e := newWalletEnv(t)
	w := walletOf("spec")
	first, err := e.specSignIn(w, e.now.Add(-2*time.Second))
	require.NoError(t, err)
	assert.True(t, first.Created)

	_, err = e.specSignIn(w, e.now.Add(-2*time.Second))
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "the same signed challenge again is a replay")

	e.now = e.now.Add(time.Minute)
	again, err := e.specSignIn(w, e.now.Add(-59*time.Second))
	require.NoError(t, err)
	assert.False(t, again.Created)
	assert.Equal(t, first.Agent.ID, again.Agent.ID)

	_, err = e.specSignIn(w, e.now.Add(-6*time.Minute))
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "of any second within 5 minutes of server time")
}

// TestWalletSearchesAreCapped: with every search slot taken a request
// without message or timestamp is 503 with a retry hint, and nothing is
// consumed; the one-verification forms are not capped.
func TestWalletSearchesAreCapped(t *testing.T) {
	e := newWalletEnv(t, func(c *agents.Config) { c.WalletSearches = 2 })
	w := walletOf("capped")
	release := agents.TakeWalletSearches(e.svc)
	_, err := e.specSignIn(w, e.now)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	assert.Equal(t, time.Second, toolkit.RetryAfterOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "retry in a second")

	_, err = e.signIn(walletOf("fast path"))
	require.NoError(t, err, "a request with the signed message needs no search slot")

	release()
	got, err := e.specSignIn(w, e.now)
	require.NoError(t, err, "the refused request consumed nothing")
	assert.True(t, got.Created)
}
