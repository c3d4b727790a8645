package agents

import "context"

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
	// must exist.
	CreateAgent(ctx context.Context, a Agent, keyDigest []byte, newOwner bool) error
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
	// ReplaceKeyDigest swaps the agent's key digest (key rotation).
	ReplaceKeyDigest(ctx context.Context, id string, digest []byte) error
}
