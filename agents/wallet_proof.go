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
// seconds>" and sends the spec's three fields (wallet_address, signature,
// chain): the server then finds the second that was signed by searching
// the accepted window (see MaxChallengeSearch). Two optional fields make
// that a single verification: the exact signed text in Message, or only
// its Timestamp, from which the server rebuilds the same text. When both
// are sent they must agree.
type WalletRegistration struct {
	WalletAddress string
	Signature     string
	// Chain must be "solana" (any letter case); empty means solana.
	Chain string
	// Message is the exact signed challenge (optional).
	Message string
	// Timestamp is the challenge's unix seconds (optional; zero means
	// absent).
	Timestamp int64
	// AgentName and AgentType, optional, name a new agent (defaults
	// DefaultWalletAgentName and trading); a sign-in that rotates the key
	// of an existing agent ignores them.
	AgentName string
	AgentType string
}

// WalletLink is a POST /v1/agents/link-wallet request. Message is the
// signed text. The recommended form is exactly
// "<service>-link:<agent_id>:<solana_wallet_address>:<unix seconds>"
// (checked part by part; a message starting with "<service>-link:" must be
// in this form). Any other text is accepted when it contains the agent_id
// as a word, such as the published "Link wallet to agent <agent_id>"; a
// 10-digit number in it is read as unix seconds and must be within the
// 5-minute window. Each signature is accepted once.
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
	// SignedAt is the message's timestamp; zero for a free-text link
	// message that carries none.
	SignedAt time.Time
	// Signature is the 64-byte signature that verified.
	Signature []byte
}

// VerifyRegistration checks a register-wallet request at server time now:
// chain, address, challenge (shape, wallet part, ±5 minutes) and the
// signature over it. Without message and timestamp the challenge is found
// by searching the window (at most MaxChallengeSearch verifications).
// Every failure is toolkit.Invalid naming the field.
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
	case in.searches():
		return a.searchRegistration(w, in.Signature, now)
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
	sig, err := verifySignature(f, w, in.Signature, message)
	if err != nil {
		return WalletProof{}, err
	}
	return WalletProof{Wallet: w, Message: message, Digest: ChallengeDigest(message), SignedAt: m.SignedAt, Signature: sig}, nil
}

// searches reports whether the request leaves the server to find the
// signed second (neither message nor timestamp given).
func (in WalletRegistration) searches() bool { return in.Message == "" && in.Timestamp <= 0 }

// VerifyLink checks a link-wallet request of agent agentID at server time
// now: address, message (the structured form: shape, agent and wallet
// parts, ±5 minutes; any other text: the agent_id as a word, and any unix
// seconds in it within ±5 minutes) and the signature over it. Every
// failure is toolkit.Invalid naming the field.
func (a *WalletAuth) VerifyLink(agentID string, in WalletLink, now time.Time) (WalletProof, error) {
	f := LinkWalletFields
	w, err := ParseWalletAddress(f.Address, in.WalletAddress)
	if err != nil {
		return WalletProof{}, err
	}
	var signedAt time.Time
	if strings.HasPrefix(in.Message, a.service+"-"+purposeLink+":") {
		m, err := a.CheckLinkMessage(f.Message, in.Message, agentID, w, now)
		if err != nil {
			return WalletProof{}, err
		}
		signedAt = m.SignedAt
	} else if signedAt, err = checkLinkText(f.Message, in.Message, agentID, now); err != nil {
		return WalletProof{}, err
	}
	sig, err := verifySignature(f, w, in.Signature, in.Message)
	if err != nil {
		return WalletProof{}, err
	}
	return WalletProof{Wallet: w, Message: in.Message, Digest: ChallengeDigest(in.Message), SignedAt: signedAt, Signature: sig}, nil
}
