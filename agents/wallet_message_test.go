package agents_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newWalletAuth(t *testing.T, service string) *agents.WalletAuth {
	t.Helper()
	a, err := agents.NewWalletAuth(service)
	require.NoError(t, err)
	return a
}

func mustWallet(t *testing.T, s string) agents.WalletAddress {
	t.Helper()
	w, err := agents.ParseWalletAddress("wallet_address", s)
	require.NoError(t, err)
	return w
}

func TestNewWalletAuthValidatesServiceName(t *testing.T) {
	assert.Equal(t, agents.DefaultWalletService, newWalletAuth(t, "").Service())
	assert.Equal(t, "My.svc_1-x", newWalletAuth(t, "My.svc_1-x").Service())
	for _, bad := range []string{"a:b", "a b", "é", strings.Repeat("s", 33)} {
		_, err := agents.NewWalletAuth(bad)
		assert.Error(t, err, bad)
	}
}

func TestWalletMessagesRoundTrip(t *testing.T) {
	a := newWalletAuth(t, "svc")
	w := mustWallet(t, "8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	auth := a.AuthChallenge(w, at)
	assert.Equal(t, "svc-auth:8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ:1767225600", auth)
	m, err := a.ParseWalletMessage("message", auth)
	require.NoError(t, err)
	assert.Equal(t, agents.WalletMessage{Purpose: "auth", Wallet: w.String(), SignedAt: at}, m)

	link := a.LinkMessage("agt_abc", w, at)
	assert.Equal(t, "svc-link:agt_abc:8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ:1767225600", link)
	m, err = a.ParseWalletMessage("message", link)
	require.NoError(t, err)
	assert.Equal(t, agents.WalletMessage{Purpose: "link", AgentID: "agt_abc", Wallet: w.String(), SignedAt: at}, m)
}

func TestCheckAuthChallenge(t *testing.T) {
	a := newWalletAuth(t, "aft")
	const wallet = "8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ"
	const other = "FWYKRdSWmrcjAqJxtC1FsUmj74qh6xZ2WN47nV6Fxd5z"
	w := mustWallet(t, wallet)
	now := time.Unix(1767225600, 0)
	tests := []struct {
		name, msg, want string
	}{
		{"now", "aft-auth:" + wallet + ":1767225600", ""},
		{"5 minutes old", "aft-auth:" + wallet + ":1767225300", ""},
		{"5 minutes ahead", "aft-auth:" + wallet + ":1767225900", ""},
		{"5 minutes and 1 s old", "aft-auth:" + wallet + ":1767225299", "message: the timestamp 1767225299 is 301 seconds from server time 1767225600; it must be within 5 minutes"},
		{"5 minutes and 1 s ahead", "aft-auth:" + wallet + ":1767225901", "message: the timestamp 1767225901 is 301 seconds from server time"},
		{"another wallet", "aft-auth:" + other + ":1767225600", "message: its wallet part is not the wallet_address of the request"},
		{"another service", "xyz-auth:" + wallet + ":1767225600", `message: must be exactly "aft-auth:` + wallet + `:<unix seconds>"`},
		{"a link message", "aft-link:agt_x:" + wallet + ":1767225600", "message: must be exactly"},
		{"extra part", "aft-auth:" + wallet + ":1767225600:x", "message: must be exactly"},
		{"milliseconds", "aft-auth:" + wallet + ":1767225600000", "message: the timestamp must be unix seconds, not milliseconds"},
		{"leading zero", "aft-auth:" + wallet + ":01767225600", "message: the timestamp must be unix seconds in plain digits"},
		{"sign", "aft-auth:" + wallet + ":+1767225600", "message: the timestamp must be unix seconds in plain digits"},
		{"space", "aft-auth:" + wallet + ": 1767225600", "message: the timestamp must be unix seconds in plain digits"},
		{"empty timestamp", "aft-auth:" + wallet + ":", "message: the timestamp must be unix seconds in plain digits"},
		{"far future", "aft-auth:" + wallet + ":999999999999", "message: the timestamp 999999999999 is"},
		{"prefix only", "aft-auth", "message: must be exactly"},
		{"substring", "please sign aft-auth:" + wallet + ":1767225600", "message: must be exactly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.CheckAuthChallenge("message", tt.msg, w, now)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.want), toolkit.MessageOf(err))
		})
	}
}

func TestCheckLinkMessage(t *testing.T) {
	a := newWalletAuth(t, "aft")
	const wallet = "8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ"
	w := mustWallet(t, wallet)
	now := time.Unix(1767225600, 0)
	exact := `message: must be exactly "aft-link:agt_me:` + wallet + `:<unix seconds>"`
	tests := []struct {
		name, msg, want string
	}{
		{"ok", "aft-link:agt_me:" + wallet + ":1767225600", ""},
		{"published free text", "Link wallet to agent agt_me", exact},
		{"agent id appended", "aft-link:agt_other:" + wallet + ":1767225600 agt_me", "message: the timestamp must be unix seconds in plain digits"},
		{"another agent", "aft-link:agt_other:" + wallet + ":1767225600", `message: names agent "agt_other", not the calling agent agt_me`},
		{"another wallet", "aft-link:agt_me:FWYKRdSWmrcjAqJxtC1FsUmj74qh6xZ2WN47nV6Fxd5z:1767225600", "message: its wallet part is not the solana_wallet_address"},
		{"an auth challenge", "aft-auth:" + wallet + ":1767225600", exact},
		{"stale", "aft-link:agt_me:" + wallet + ":1767224000", "message: the timestamp 1767224000 is 1600 seconds from server time"},
		{"too long", "aft-link:agt_me:" + wallet + ":" + strings.Repeat("1", 600), "message: at most 512 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.CheckLinkMessage("message", tt.msg, "agt_me", w, now)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.want), toolkit.MessageOf(err))
		})
	}
}

// TestLinkWalletFreeText: any signed text naming the calling agent as a
// word links; a 10-digit number in it is unix seconds that must be within
// the window; a text in the structured prefix must be the structured form.
func TestLinkWalletFreeText(t *testing.T) {
	e := newWalletEnv(t)
	w := walletOf("free text")
	reg, err := e.svc.Register(context.Background(), agents.RegisterInput{OwnerID: "acme", AgentName: "x", AgentType: "trading"}, "")
	require.NoError(t, err)
	a := reg.Agent
	now := e.now.Unix()
	tests := []struct {
		name, msg, want string
	}{
		{"published form", "Link wallet to agent " + a.ID, ""},
		{"id in punctuation, with a time", fmt.Sprintf("I link my wallet to (%s) at %d.", a.ID, now-30), ""},
		{"a time 5 minutes ahead", fmt.Sprintf("%s %d", a.ID, now+300), ""},
		{"a stale time", fmt.Sprintf("Link wallet to agent %s at %d", a.ID, now-301), "message: the timestamp"},
		{"any stale time", fmt.Sprintf("%s %d %d", a.ID, now, now-3600), "message: the timestamp"},
		{"other numbers are not times", fmt.Sprintf("%s order 12345 v2 %d123", a.ID, now), ""},
		{"no agent id", "Link wallet to my agent", "message: must contain the calling agent's agent_id " + a.ID},
		{"agent id inside a longer id", "Link wallet to agent " + a.ID + "x", "message: must contain"},
		{"agent id after an identifier character", "Link wallet to agent x-" + a.ID, "message: must contain"},
		{"structured prefix, free text after it", "aft-link:Link wallet to agent " + a.ID, "message: must be exactly"},
		{"empty", "", "message: required"},
		{"too long", "Link wallet to agent " + a.ID + strings.Repeat(" ", 600), "message: at most 512 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := w.sign(tt.msg)
			if tt.msg == "" {
				sig = w.sign("x")
			}
			_, err := e.svc.LinkWallet(context.Background(), a, agents.WalletLink{WalletAddress: w.address, Signature: sig, Message: tt.msg})
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.want), toolkit.MessageOf(err))
		})
	}
}
