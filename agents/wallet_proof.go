package agents

import (
	"strings"
	"time"
)

// ChainSolana is the only chain wallets are registered on.
const ChainSolana = "solana"

// WalletRegistration is a POST /v1/agents/register-wallet request.
//
// The client signs the challenge "<service>-auth:<wallet_address>:<unix
// seconds>" and sends either the exact signed text in Message, or only the
// Timestamp from which the server rebuilds the same text. When both are
// sent they must agree. The first form is preferred: the client sees what
// it signed and errors can name the mismatching part.
type WalletRegistration struct {
	WalletAddress string
	Signature     string
	// Chain must be "solana" (any letter case); empty means solana.
	Chain string
	// Message is the exact signed challenge (optional when Timestamp is set).
	Message string
	// Timestamp is the challenge's unix seconds (optional when Message is
	// set; zero means absent).
	Timestamp int64
	// AgentName and AgentType, optional, name a new agent (defaults
	// DefaultWalletAgentName and trading); a sign-in that rotates the key
	// of an existing agent ignores them.
	AgentName string
	AgentType string
}

// WalletLink is a POST /v1/agents/link-wallet request. Message must be
// exactly "<service>-link:<agent_id>:<solana_wallet_address>:<unix seconds>".
type WalletLink struct {
	WalletAddress string
	Signature     string
	Message       string
}

// WalletProof is a verified wallet signature.
type WalletProof struct {
	// Wallet is the proven wallet.
	Wallet WalletAddress
	// Message is the exact signed text.
	Message string
	// Digest is ChallengeDigest(Message): the store records it under a
	// unique index so that a signed message is accepted only once (a replay
	// within the time window is a toolkit.Conflict there).
	Digest []byte
	// SignedAt is the message's timestamp.
	SignedAt time.Time
}

// VerifyRegistration checks a register-wallet request at server time now:
// chain, address, challenge (shape, wallet part, ±5 minutes) and the
// signature over it. Every failure is toolkit.Invalid naming the field.
func (a *WalletAuth) VerifyRegistration(in WalletRegistration, now time.Time) (WalletProof, error) {
	if in.Chain != "" && !strings.EqualFold(in.Chain, ChainSolana) {
		return WalletProof{}, invalid("chain: must be %q (got %s)", ChainSolana, quoted(in.Chain, 32))
	}
	f := RegisterWalletFields
	w, err := ParseWalletAddress(f.Address, in.WalletAddress)
	if err != nil {
		return WalletProof{}, err
	}
	message, field := in.Message, "message"
	switch {
	case message == "" && in.Timestamp <= 0:
		return WalletProof{}, invalid("message: required: the signed challenge %q, or send its unix seconds in timestamp",
			a.service+"-auth:<wallet_address>:<unix seconds>")
	case message == "":
		message, field = a.AuthChallenge(w, time.Unix(in.Timestamp, 0)), "timestamp"
	}
	m, err := a.CheckAuthChallenge(field, message, w, now)
	if err != nil {
		return WalletProof{}, err
	}
	if in.Timestamp > 0 && m.SignedAt.Unix() != in.Timestamp {
		return WalletProof{}, invalid("timestamp: %d is not the timestamp of the signed message (%d)", in.Timestamp, m.SignedAt.Unix())
	}
	f.Message = "challenge " + quoted(message, MaxWalletMessageLen)
	if _, err := VerifyWalletSignature(f, in.WalletAddress, in.Signature, message); err != nil {
		return WalletProof{}, err
	}
	return WalletProof{Wallet: w, Message: message, Digest: ChallengeDigest(message), SignedAt: m.SignedAt}, nil
}

// VerifyLink checks a link-wallet request of agent agentID at server time
// now: address, message (shape, agent and wallet parts, ±5 minutes) and the
// signature over it. Every failure is toolkit.Invalid naming the field.
func (a *WalletAuth) VerifyLink(agentID string, in WalletLink, now time.Time) (WalletProof, error) {
	f := LinkWalletFields
	w, err := ParseWalletAddress(f.Address, in.WalletAddress)
	if err != nil {
		return WalletProof{}, err
	}
	m, err := a.CheckLinkMessage(f.Message, in.Message, agentID, w, now)
	if err != nil {
		return WalletProof{}, err
	}
	if _, err := VerifyWalletSignature(f, in.WalletAddress, in.Signature, in.Message); err != nil {
		return WalletProof{}, err
	}
	return WalletProof{Wallet: w, Message: in.Message, Digest: ChallengeDigest(in.Message), SignedAt: m.SignedAt}, nil
}
