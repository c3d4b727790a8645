package agents

import (
	"context"
	"time"
)

// Store persists agents and their key digests. Implementations live in
// adapters (see adapters/bunstore) and must pass adapters/storetest.
//
// Every method is one transaction. Errors are *toolkit.Error values:
// toolkit.NotFound when the agent or key does not exist, toolkit.Conflict
// on a uniqueness clash or a forbidden state change.
type Store interface {
	// CreateAgent stores a new agent with its key digest and a zero
	// balance. With NewOwner set it also claims the owner id, failing with
	// toolkit.Conflict if the owner already exists; otherwise the owner
	// must exist. With LimitsFrom set, the new agent starts with a copy of
	// that agent's spend limits, in the same transaction.
	CreateAgent(ctx context.Context, r Registration) error
	// AgentByKeyDigest returns the agent whose API key has this digest.
	AgentByKeyDigest(ctx context.Context, digest []byte) (Agent, error)
	// AgentByID returns one agent.
	AgentByID(ctx context.Context, id string) (Agent, error)
	// ListAgentsByOwner returns up to limit agents of an owner, oldest
	// first (ties broken by id).
	ListAgentsByOwner(ctx context.Context, ownerID string, limit int) ([]Agent, error)
	// SetMode changes the mode of a non-terminated agent and returns the
	// updated agent. A terminated agent yields toolkit.Conflict.
	SetMode(ctx context.Context, id string, mode Mode) (Agent, error)
	// ReplaceKeyDigest swaps the agent's key digest (key rotation): the
	// key's creation time becomes at and its last use is cleared.
	ReplaceKeyDigest(ctx context.Context, id string, digest []byte, at time.Time) error
	// TouchKey records that the agent's key was used at at, unless its
	// recorded last use is at or after staleBefore (so a busy key is
	// written at most once per resolution). An unknown agent is not an
	// error.
	TouchKey(ctx context.Context, id string, at, staleBefore time.Time) error

	// OwnerByKeyHash returns the owner whose owner key has this keyed
	// hash (toolkit.NotFound if none).
	OwnerByKeyHash(ctx context.Context, hash []byte) (Owner, error)
	// ReplaceOwnerKeyHash sets the owner's key hash and its creation time,
	// replacing any previous key (toolkit.NotFound for an unknown owner,
	// toolkit.Conflict if another owner holds the hash).
	ReplaceOwnerKeyHash(ctx context.Context, ownerID string, hash []byte, at time.Time) error
	// ListOwners returns up to limit owners with ids after after ("": from
	// the first), in id order, each with its agent counts.
	ListOwners(ctx context.Context, after string, limit int) ([]OwnerSummary, error)

	// RegisterWallet applies a register-wallet sign-in in one transaction:
	// it consumes the challenge (toolkit.Conflict if its digest was used
	// before), prunes challenges signed before PruneBefore, and then
	// either, for a wallet not registered yet, creates NewAgent under a
	// new owner with a zero balance and the wallet mapping, or, for a
	// registered wallet, replaces its agent's key digest with KeyDigest.
	// It returns the wallet's agent and whether it was created. A wallet
	// whose agent is terminated is toolkit.Forbidden; nothing is written
	// on any error.
	RegisterWallet(ctx context.Context, in WalletSignIn) (Agent, bool, error)
	// LinkWallet applies a link-wallet proof in one transaction: it
	// consumes the signature (toolkit.Conflict if its digest was used
	// before, by any agent), deletes the used signatures whose message
	// time is before PruneBefore (those without a time are kept), replaces
	// the agent's linked wallet and sets its presale status, and returns
	// the updated agent (toolkit.NotFound for an unknown agent). Nothing
	// is written on any error.
	LinkWallet(ctx context.Context, in WalletLinkRecord) (Agent, error)
	// AgentWallets returns the agent's wallet addresses as stored
	// (sealed); a missing one is nil.
	AgentWallets(ctx context.Context, agentID string) (WalletRecords, error)
}

// Registration is a new agent for Store.CreateAgent.
type Registration struct {
	Agent     Agent
	KeyDigest []byte
	// NewOwner claims Agent.OwnerID; otherwise the owner must exist.
	NewOwner bool
	// LimitsFrom, when set, names the agent whose spend limits the new
	// agent inherits (registration with another agent's key).
	LimitsFrom string
	// OwnerKeyHash, with NewOwner, is the keyed hash of the new owner's
	// owner key (nil: the owner starts without one). The agent's
	// KeyCreatedAt and the owner key's creation time are Agent.CreatedAt.
	OwnerKeyHash []byte
}

// WalletSignIn is a verified register-wallet request as stored. The
// wallet address appears only sealed and as its keyed hash.
type WalletSignIn struct {
	// ChallengeDigest is the keyed hash of the signed challenge (see
	// ChallengeHashField); SignedAt its timestamp.
	ChallengeDigest []byte
	SignedAt        time.Time
	// WalletHash is the wallet's keyed hash (the lookup key).
	WalletHash []byte
	// SealedWallet is the address sealed for NewAgent.ID.
	SealedWallet []byte
	// NewAgent is created (with owner NewAgent.OwnerID) when the wallet
	// is new; otherwise it is unused.
	NewAgent Agent
	// KeyDigest is the new API key's digest: the new agent's key, or the
	// rotated key of the wallet's agent (created at NewAgent.CreatedAt).
	KeyDigest []byte
	// OwnerKeyHash is the keyed hash of the owner key of NewAgent's new
	// owner, used only when the agent is created (nil: none).
	OwnerKeyHash []byte
	// PruneBefore: challenges signed before it can no longer be replayed
	// (they fail the time window) and are deleted.
	PruneBefore time.Time
}

// WalletLinkRecord is a verified link-wallet request as stored.
type WalletLinkRecord struct {
	AgentID string
	// SignatureDigest is the keyed hash of the verified signature (see
	// LinkSignatureHashField): each signature is accepted once.
	SignatureDigest []byte
	// SignedAt is the unix time the message carries, or zero when it
	// carries none: such a digest is kept for good, since its message
	// never leaves a time window.
	SignedAt   time.Time
	WalletHash []byte
	// SealedWallet is the address sealed for AgentID.
	SealedWallet []byte
	// Presale is the on-chain answer, or nil when it could not be read:
	// then an agent relinking the wallet it already linked keeps its
	// status, and any other link is not a presale link.
	Presale     *bool
	At          time.Time
	PruneBefore time.Time
}

// WalletRecords are an agent's stored wallet addresses, sealed: the
// registered one (field "wallet_address") and the linked one (field
// "solana_wallet_address"). Nil when absent.
type WalletRecords struct {
	Registered []byte
	Linked     []byte
}
