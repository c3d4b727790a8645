package agents

import (
	"context"
	"encoding/hex"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
)

// Vault fields of wallet addresses (spec, encryption at rest): the address
// of register-wallet and the address of link-wallet, each sealed for its
// agent. Both are looked up by the keyed hash under WalletHashField, so
// one wallet has one hash whichever endpoint stored it.
const (
	RegisteredWalletField = "wallet_address"
	LinkedWalletField     = "solana_wallet_address"
	WalletHashField       = "wallet_address"
	// ChallengeHashField keys the hash under which a used signed message
	// is stored. A plain digest would let anyone holding the database test
	// a public wallet address against it (the message format is public);
	// the keyed hash cannot be recomputed without the vault's key.
	ChallengeHashField = "wallet_challenge"
	// LinkSignatureHashField keys the hash under which a used link-wallet
	// signature is stored (keyed for the same reason).
	LinkSignatureHashField = "wallet_link_signature"
)

// walletOwnerPrefix starts the owner id of an agent registered by wallet:
// "wallet:" and 32 hex digits of the wallet's keyed hash, never the
// address. Standard registration cannot claim a new owner with it.
const walletOwnerPrefix = "wallet:"

// DefaultWalletAgentName names an agent registered by wallet when the
// request names none. It deliberately holds no part of the address, which
// is stored only sealed.
const DefaultWalletAgentName = "wallet agent"

// challengeRetention is how long a used challenge digest is kept: twice
// the time window, so a digest is deleted only once its message fails the
// window check on every server whose clock is within the window of ours.
const challengeRetention = 2 * WalletChallengeWindow

// WalletAgent is the result of register-wallet.
type WalletAgent struct {
	Agent Agent
	// APIKey is the new key, shown once: the first key of a new agent,
	// or the rotated key of the wallet's agent (the old one stops working).
	APIKey string
	// Created reports whether the agent was created by this call.
	Created bool
	// OwnerKey is the new owner's owner key, shown once: set when the
	// sign-in created the agent (and so its owner), empty otherwise.
	OwnerKey string
}

// Wallets returns the service's wallet message rules.
func (s *Service) Wallets() *WalletAuth { return s.wallets }

// RegisterWallet signs a wallet in (POST /v1/agents/register-wallet). The
// signature over "<service>-auth:<wallet>:<unix seconds>" is verified
// (time window ±5 minutes; without message and timestamp the signed second
// is searched, under Config.WalletSearches) and each signed challenge is
// accepted once
// (toolkit.Conflict on replay: no key is minted). The first sign-in of a
// wallet creates an agent in sandbox with zero balances, named
// in.AgentName (default DefaultWalletAgentName) of type in.AgentType
// (default trading), under an owner derived from the wallet's keyed hash.
// A later sign-in rotates that agent's key in the same transaction. The
// address is stored only sealed (and as its keyed hash).
func (s *Service) RegisterWallet(ctx context.Context, in WalletRegistration) (WalletAgent, error) {
	const op = "agents.RegisterWallet"
	if s.vault == nil {
		return WalletAgent{}, walletsUnavailable()
	}
	now := s.now()
	proof, err := s.verifyRegistration(in, now)
	if err != nil {
		s.recordStale(ctx, err, "")
		return WalletAgent{}, err
	}
	a, err := in.agentTemplate()
	if err != nil {
		return WalletAgent{}, err
	}
	address := proof.Wallet.String()
	hash, err := s.vault.Hash(WalletHashField, []byte(address))
	if err != nil {
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	challenge, err := s.vault.Hash(ChallengeHashField, []byte(proof.Message))
	if err != nil {
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	id, key, err := s.newIdentity()
	if err != nil {
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	a.ID, a.OwnerID, a.Mode = id, walletOwnerPrefix+hex.EncodeToString(hash[:16]), ModeSandbox
	a.CreatedAt = now.UTC().Truncate(time.Microsecond)
	a.KeyCreatedAt = a.CreatedAt
	sealed, err := s.vault.Seal(ctx, a.ID, RegisteredWalletField, []byte(address))
	if err != nil {
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	ownerKey, ownerHash, err := s.newOwnerKey()
	if err != nil {
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	got, created, err := s.store.RegisterWallet(ctx, WalletSignIn{
		ChallengeDigest: challenge, SignedAt: proof.SignedAt, WalletHash: hash, SealedWallet: sealed,
		NewAgent: a, KeyDigest: KeyDigest(key), OwnerKeyHash: ownerHash, PruneBefore: now.Add(-challengeRetention),
	})
	switch {
	case toolkit.IsKind(err, toolkit.Conflict):
		s.rec.Record(ctx, guardian.Event{Type: guardian.TypeWalletChallengeReplay,
			Description: "A register-wallet challenge was replayed; no key was issued"})
		return WalletAgent{}, replayed(op, err, "challenge")
	case toolkit.IsKind(err, toolkit.Forbidden):
		return WalletAgent{}, &toolkit.Error{Kind: toolkit.Forbidden, Op: op, Err: err,
			Msg: "The agent of this wallet is terminated: it cannot be signed in to again"}
	case err != nil:
		return WalletAgent{}, toolkit.WithOp(op, err)
	}
	out := WalletAgent{Agent: got, APIKey: key, Created: created}
	if created {
		out.OwnerKey = ownerKey
	}
	return out, nil
}

// verifyRegistration verifies in, holding a search slot while a
// challenge is searched (the slot is released before anything is stored).
func (s *Service) verifyRegistration(in WalletRegistration, now time.Time) (WalletProof, error) {
	if in.searches() {
		release, err := s.searches.acquire()
		if err != nil {
			return WalletProof{}, err
		}
		defer release()
	}
	return s.wallets.VerifyRegistration(in, now)
}

// agentTemplate validates the optional name and type of a wallet agent.
func (in WalletRegistration) agentTemplate() (Agent, error) {
	a := Agent{Name: DefaultWalletAgentName, Type: TypeTrading}
	if in.AgentName != "" {
		if err := checkText("agent_name", in.AgentName, 1, MaxNameLen); err != nil {
			return a, err
		}
		a.Name = in.AgentName
	}
	if in.AgentType != "" {
		t, err := ParseType(in.AgentType)
		if err != nil {
			return a, err
		}
		a.Type = t
	}
	return a, nil
}

// WalletLinkResult is the result of link-wallet.
type WalletLinkResult struct {
	Agent  Agent
	Wallet WalletAddress
	// Message says what was linked and how the presale check went.
	Message string
}

// LinkWallet links a wallet to the calling agent (POST
// /v1/agents/link-wallet). The signature over the message is verified
// (the recommended "<service>-link:<agent_id>:<wallet>:<unix seconds>", or
// any text containing the agent_id: see WalletLink; a time in it within
// ±5 minutes), each signature is accepted once (toolkit.Conflict on
// replay), the presale status is read on chain through the
// PresaleChecker, and the wallet is stored sealed for the agent, replacing
// any wallet it linked before. Presale status is per agent: each agent of
// an owner links separately, and one presale wallet may be linked to
// several of them.
//
// When the on-chain check cannot be made (no checker, or the node is
// unavailable) the wallet is still linked, the message says so, and the
// agent is not a presale buyer by this link, except that relinking the
// wallet it already linked keeps the status found before. Linking again
// retries the check.
func (s *Service) LinkWallet(ctx context.Context, caller Agent, in WalletLink) (WalletLinkResult, error) {
	const op = "agents.LinkWallet"
	if s.vault == nil {
		return WalletLinkResult{}, walletsUnavailable()
	}
	now := s.now()
	proof, err := s.wallets.VerifyLink(caller.ID, in, now)
	if err != nil {
		s.recordStale(ctx, err, caller.ID)
		return WalletLinkResult{}, err
	}
	address := proof.Wallet.String()
	hash, err := s.vault.Hash(WalletHashField, []byte(address))
	if err != nil {
		return WalletLinkResult{}, toolkit.WithOp(op, err)
	}
	sealed, err := s.vault.Seal(ctx, caller.ID, LinkedWalletField, []byte(address))
	if err != nil {
		return WalletLinkResult{}, toolkit.WithOp(op, err)
	}
	used, err := s.vault.Hash(LinkSignatureHashField, proof.Signature)
	if err != nil {
		return WalletLinkResult{}, toolkit.WithOp(op, err)
	}
	presale, unchecked := s.checkPresale(ctx, proof.Wallet)
	a, err := s.store.LinkWallet(ctx, WalletLinkRecord{
		AgentID: caller.ID, SignatureDigest: used, SignedAt: proof.SignedAt, WalletHash: hash,
		SealedWallet: sealed, Presale: presale, At: now.UTC(), PruneBefore: now.Add(-challengeRetention),
	})
	if toolkit.IsKind(err, toolkit.Conflict) {
		s.rec.Record(ctx, guardian.Event{Type: guardian.TypeWalletChallengeReplay, AgentID: caller.ID,
			Description: "A link-wallet message was replayed; nothing was linked"})
		return WalletLinkResult{}, replayed(op, err, "message")
	}
	if err != nil {
		return WalletLinkResult{}, toolkit.WithOp(op, err)
	}
	return WalletLinkResult{Agent: a, Wallet: proof.Wallet, Message: linkMessage(a.PresaleBuyer, unchecked)}, nil
}

// checkPresale asks the chain whether wallet is a presale buyer. It
// returns nil and the reason when the answer cannot be had.
func (s *Service) checkPresale(ctx context.Context, wallet WalletAddress) (*bool, string) {
	if s.presale == nil {
		return nil, "this server has no Solana RPC endpoint configured"
	}
	ok, err := s.presale.IsPresaleBuyer(ctx, wallet)
	if err != nil {
		return nil, "the Solana node could not be reached"
	}
	return &ok, ""
}

// linkMessage is link-wallet's status text.
func linkMessage(presale bool, unchecked string) string {
	switch {
	case unchecked != "" && presale:
		return "Wallet linked. The presale status could not be checked on chain (" + unchecked +
			"); this agent keeps the presale status found for this wallet before. Link again to retry the check."
	case unchecked != "":
		return "Wallet linked without presale status: the presale purchase could not be checked on chain (" + unchecked +
			"). Link again to retry the check."
	case presale:
		return "Wallet linked. Presale purchase verified on chain: this agent pays 80 % of list prices from now on."
	}
	return "Wallet linked. No presale purchase was found on chain for this wallet."
}

// AgentWallets returns the agent's registered and linked wallet addresses
// (base58, without duplicates). It implements billing.WalletSource, so a
// deposit sent from one of them is bound to the agent.
func (s *Service) AgentWallets(ctx context.Context, agentID string) ([]string, error) {
	const op = "agents.AgentWallets"
	rec, err := s.store.AgentWallets(ctx, agentID)
	if err != nil {
		return nil, toolkit.WithOp(op, err)
	}
	var out []string
	for _, w := range []struct {
		field  string
		sealed []byte
	}{{RegisteredWalletField, rec.Registered}, {LinkedWalletField, rec.Linked}} {
		if w.sealed == nil {
			continue
		}
		if s.vault == nil {
			return nil, toolkit.AsInternal(op, errNoVault)
		}
		addr, err := s.vault.OpenString(ctx, agentID, w.field, w.sealed)
		if err != nil {
			return nil, toolkit.WithOp(op, err)
		}
		if len(out) == 0 || out[0] != addr {
			out = append(out, addr)
		}
	}
	return out, nil
}

// recordStale records a wallet message refused for its timestamp.
func (s *Service) recordStale(ctx context.Context, err error, agentID string) {
	if errors.Is(err, errOutsideWindow) {
		s.rec.Record(ctx, guardian.Event{Type: guardian.TypeWalletChallengeReplay, AgentID: agentID,
			Description: "A signed wallet message outside its 5-minute window was refused"})
	}
}

// replayed is the 409 of a signed wallet message used before.
func replayed(op string, err error, what string) error {
	return &toolkit.Error{Kind: toolkit.Conflict, Op: op, Err: err,
		Msg: "signature: this signed " + what + " was already used (replay refused); sign a fresh one with the current time"}
}

// errNoVault is the cause when sealed wallets exist but no vault opens
// them: a configuration error.
var errNoVault = errors.New("agents: wallet addresses are stored sealed but no vault is configured")

func walletsUnavailable() error {
	return toolkit.Errorf(toolkit.Unavailable,
		"wallet sign-in is not set up on this server: it has no key vault to store wallet addresses encrypted")
}
