package agents

import (
	"context"

	"github.com/agentfinance/toolkit"
)

// The owner's changes to its agents go through the same service methods,
// and so the same store methods, as the agents' own and the admins'
// changes: whatever those methods do on a change (security events, cache
// invalidation) happens for the owner's too.

// OwnerAgents returns every agent of the owner, oldest first.
func (s *Service) OwnerAgents(ctx context.Context, owner Owner) ([]Agent, error) {
	list, err := s.store.ListAgentsByOwner(ctx, owner.ID, MaxAgentsPerOwner)
	return list, toolkit.WithOp("agents.OwnerAgents", err)
}

// OwnerAgent returns one agent of the owner. An agent of another owner is
// toolkit.NotFound, exactly as an unknown one, so ids of other owners'
// agents cannot be probed.
func (s *Service) OwnerAgent(ctx context.Context, owner Owner, agentID string) (Agent, error) {
	a, err := s.store.AgentByID(ctx, agentID)
	if err == nil && a.OwnerID != owner.ID {
		err = toolkit.Errorf(toolkit.NotFound, "agent %s not found", agentID)
	}
	if toolkit.IsKind(err, toolkit.NotFound) {
		return Agent{}, &toolkit.Error{Kind: toolkit.NotFound, Op: "agents.OwnerAgent", Err: err,
			Msg: "agent_id: no agent " + agentID + " among this owner's agents"}
	}
	return a, toolkit.WithOp("agents.OwnerAgent", err)
}

// OwnerSetMode changes the mode of one of the owner's agents: suspend
// (suspended), resume (sandbox or live) or terminate (terminated, final:
// a terminated agent stays terminated, toolkit.Conflict).
func (s *Service) OwnerSetMode(ctx context.Context, owner Owner, agentID, mode string) (Agent, error) {
	if _, err := s.OwnerAgent(ctx, owner, agentID); err != nil {
		return Agent{}, err
	}
	return s.setMode(ctx, agentID, mode, "by its owner")
}

// OwnerRotateKey issues a new API key for one of the owner's agents (the
// old key stops working at once) and returns it, shown only this once. A
// terminated agent gets no key (toolkit.Conflict).
func (s *Service) OwnerRotateKey(ctx context.Context, owner Owner, agentID string) (string, error) {
	a, err := s.OwnerAgent(ctx, owner, agentID)
	if err != nil {
		return "", err
	}
	if a.Mode == ModeTerminated {
		return "", toolkit.Errorf(toolkit.Conflict, "Agent is terminated: it gets no new key")
	}
	return s.RotateKey(ctx, a)
}
