package agents_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureSignature returns the base58 signature of the fixture message name.
func fixtureSignature(t *testing.T, f walletFixtures, message string) string {
	t.Helper()
	for _, c := range f.Cases {
		if c.Verifies && c.Encoding == "base58" && c.Message == f.Messages[message] {
			return c.Signature
		}
	}
	t.Fatalf("no signature for %s", message)
	return ""
}

func TestVerifyRegistration(t *testing.T) {
	f := loadWalletFixtures(t)
	a := newWalletAuth(t, f.Service)
	wallet := f.Keys[0].WalletAddress
	sig := fixtureSignature(t, f, "auth")
	signedAt := time.Unix(f.Timestamp, 0)
	tests := []struct {
		name  string
		in    agents.WalletRegistration
		now   time.Time
		want  string
		field string
	}{
		{name: "message form", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Chain: "solana", Message: f.Messages["auth"]}, now: signedAt},
		{name: "timestamp form, chain omitted", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Timestamp: f.Timestamp}, now: signedAt.Add(4 * time.Minute)},
		{name: "both forms agree, chain in capitals", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Chain: "SOLANA", Message: f.Messages["auth"], Timestamp: f.Timestamp}, now: signedAt},
		{name: "both forms disagree", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Message: f.Messages["auth"], Timestamp: f.Timestamp + 1}, now: signedAt,
			want: "timestamp: 1767225601 is not the timestamp of the signed message (1767225600)"},
		{name: "spec's three fields: signed 3 s before the server's second", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Chain: "solana"}, now: signedAt.Add(3 * time.Second)},
		{name: "spec's three fields: client clock 5 minutes ahead", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Chain: "solana"}, now: signedAt.Add(-5 * time.Minute)},
		{name: "spec's three fields: 5 minutes old", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig}, now: signedAt.Add(5 * time.Minute)},
		{name: "spec's three fields: 5 minutes and 1 second old", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig}, now: signedAt.Add(5*time.Minute + time.Second),
			want: `signature: does not verify for wallet_address over the challenge "aft-auth:` + wallet + `:<unix seconds>" of any second within 5 minutes of server time 1767225901`},
		{name: "spec's three fields: signature over the link message", in: agents.WalletRegistration{WalletAddress: wallet, Signature: fixtureSignature(t, f, "link")}, now: signedAt,
			want: `signature: does not verify for wallet_address over the challenge "aft-auth:`},
		{name: "other chain", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Chain: "ethereum", Timestamp: f.Timestamp}, now: signedAt,
			want: `chain: must be "solana" (got "ethereum")`},
		{name: "stale timestamp", in: agents.WalletRegistration{WalletAddress: wallet, Signature: sig, Timestamp: f.Timestamp}, now: signedAt.Add(6 * time.Minute),
			want: "timestamp: the timestamp 1767225600 is 360 seconds from server time"},
		{name: "signature over the link message", in: agents.WalletRegistration{WalletAddress: wallet, Signature: fixtureSignature(t, f, "link"), Timestamp: f.Timestamp}, now: signedAt,
			want: `signature: does not verify for wallet_address over the challenge "aft-auth:` + wallet + `:1767225600"`},
		{name: "other wallet", in: agents.WalletRegistration{WalletAddress: f.Keys[1].WalletAddress, Signature: sig, Message: f.Messages["auth"]}, now: signedAt,
			want: "message: its wallet part is not the wallet_address of the request"},
		{name: "bad address", in: agents.WalletRegistration{WalletAddress: "0x12", Signature: sig, Timestamp: f.Timestamp}, now: signedAt,
			want: "wallet_address: not valid base58"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := a.VerifyRegistration(tt.in, tt.now)
			if tt.want == "" {
				require.NoError(t, err)
				assert.Equal(t, wallet, p.Wallet.String())
				assert.Equal(t, f.Messages["auth"], p.Message)
				assert.Equal(t, agents.ChallengeDigest(f.Messages["auth"]), p.Digest)
				assert.True(t, p.SignedAt.Equal(signedAt))
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.want), toolkit.MessageOf(err))
		})
	}
}

func TestVerifyLink(t *testing.T) {
	f := loadWalletFixtures(t)
	a := newWalletAuth(t, f.Service)
	wallet := f.Keys[0].WalletAddress
	now := time.Unix(f.Timestamp, 0).Add(-2 * time.Minute)

	p, err := a.VerifyLink(f.AgentID, agents.WalletLink{WalletAddress: wallet, Signature: fixtureSignature(t, f, "link"), Message: f.Messages["link"]}, now)
	require.NoError(t, err)
	assert.Equal(t, wallet, p.Wallet.String())
	assert.Equal(t, agents.ChallengeDigest(f.Messages["link"]), p.Digest)
	assert.NotEqual(t, agents.ChallengeDigest(f.Messages["auth"]), p.Digest)

	// The same signed message does not link another agent.
	_, err = a.VerifyLink("agt_someoneelse00000", agents.WalletLink{WalletAddress: wallet, Signature: fixtureSignature(t, f, "link"), Message: f.Messages["link"]}, now)
	require.Error(t, err)
	assert.Contains(t, toolkit.MessageOf(err), "not the calling agent agt_someoneelse00000")

	// The published free-text form (signed by tweetnacl) is accepted: it
	// contains the agent_id and carries no time.
	published := agents.WalletLink{WalletAddress: wallet, Signature: fixtureSignature(t, f, "published_link"), Message: f.Messages["published_link"]}
	p, err = a.VerifyLink(f.AgentID, published, now)
	require.NoError(t, err)
	assert.True(t, p.SignedAt.IsZero())
	assert.Len(t, p.Signature, 64)
	_, err = a.VerifyLink("agt_someoneelse00000", published, now)
	require.Error(t, err, "it links only the agent it names")
	assert.Contains(t, toolkit.MessageOf(err), "must contain the calling agent's agent_id agt_someoneelse00000")

	// A signature by the auth challenge does not verify the link message.
	_, err = a.VerifyLink(f.AgentID, agents.WalletLink{WalletAddress: wallet, Signature: fixtureSignature(t, f, "auth"), Message: f.Messages["link"]}, now)
	require.Error(t, err)
	assert.Equal(t, "signature: does not verify for solana_wallet_address over the message", toolkit.MessageOf(err))
}
