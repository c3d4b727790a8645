package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// agentRecord is a stored agent: a private copy and its key digest.
type agentRecord struct {
	agent  agents.Agent
	digest string
}

// cloneAgent is a's deep copy as a database round trip gives it: times in
// UTC, nil lists as empty ones.
func cloneAgent(a agents.Agent) agents.Agent {
	a = a.Clone()
	a.AuthorizedInstruments = append([]string{}, a.AuthorizedInstruments...)
	a.AuthorizedActions = append([]string{}, a.AuthorizedActions...)
	a.CreatedAt = a.CreatedAt.UTC()
	a.KeyCreatedAt = a.KeyCreatedAt.UTC()
	if a.KeyUsedAt != nil {
		*a.KeyUsedAt = a.KeyUsedAt.UTC()
	}
	return a
}

// clonePtr points at a copy of what p points at (nil stays nil).
func clonePtr[T any](p *T) *T {
	if p != nil {
		v := *p
		p = &v
	}
	return p
}

// CreateAgent implements agents.Store. The owner claim, the agent id, the
// key digest and the zero balance are checked and written together.
func (s *Store) CreateAgent(ctx context.Context, r agents.Registration) error {
	const op = "memstore.CreateAgent"
	a, keyDigest, newOwner := r.Agent, r.KeyDigest, r.NewOwner
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	_, ownerExists := s.owners[a.OwnerID]
	switch {
	case newOwner && ownerExists:
		return conflict(op, "owner "+a.OwnerID+" already exists")
	case !newOwner && !ownerExists:
		return toolkit.Errorf(toolkit.NotFound, "owner %q does not exist", a.OwnerID)
	}
	if _, dup := s.agents[a.ID]; dup {
		return conflict(op, "agent id "+a.ID+" already exists")
	}
	digest := string(keyDigest)
	if _, dup := s.keyDigests[digest]; dup {
		return conflict(op, "key digest already in use")
	}
	rec := agentRecord{agent: cloneAgent(a), digest: digest}
	rec.agent.KeyCreatedAt, rec.agent.KeyUsedAt = rec.agent.CreatedAt, nil // a new key is as old as the agent
	if newOwner {
		if err := s.addOwnerLocked(op, a.OwnerID, rec.agent.CreatedAt, r.OwnerKeyHash); err != nil {
			return err
		}
	}
	s.agents[a.ID] = rec
	s.keyDigests[digest] = a.ID
	s.balances[a.ID] = billing.BalanceRecord{AgentID: a.ID, UpdatedAt: rec.agent.CreatedAt}
	if parent, ok := s.limits[r.LimitsFrom]; ok && r.LimitsFrom != "" {
		parent.Version = 1
		s.limits[a.ID] = cloneLimits(parent)
	}
	return nil
}

// AgentByKeyDigest implements agents.Store.
func (s *Store) AgentByKeyDigest(ctx context.Context, digest []byte) (agents.Agent, error) {
	const op = "memstore.AgentByKeyDigest"
	if err := s.lock(ctx, op); err != nil {
		return agents.Agent{}, err
	}
	defer s.mu.Unlock()
	id, ok := s.keyDigests[string(digest)]
	if !ok {
		return agents.Agent{}, notFound(op)
	}
	return cloneAgent(s.agents[id].agent), nil
}

// AgentByID implements agents.Store.
func (s *Store) AgentByID(ctx context.Context, id string) (agents.Agent, error) {
	const op = "memstore.AgentByID"
	if err := s.lock(ctx, op); err != nil {
		return agents.Agent{}, err
	}
	defer s.mu.Unlock()
	if rec, ok := s.agents[id]; ok {
		return cloneAgent(rec.agent), nil
	}
	return agents.Agent{}, notFound(op)
}

// ListAgentsByOwner implements agents.Store: oldest first, ties by id. A
// limit <= 0 lists every agent of the owner, as bunstore does.
func (s *Store) ListAgentsByOwner(ctx context.Context, ownerID string, limit int) ([]agents.Agent, error) {
	const op = "memstore.ListAgentsByOwner"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []agents.Agent{}
	for _, rec := range s.agents {
		if rec.agent.OwnerID == ownerID {
			out = append(out, rec.agent)
		}
	}
	slices.SortFunc(out, func(x, y agents.Agent) int {
		return cmp.Or(x.CreatedAt.Compare(y.CreatedAt), cmp.Compare(x.ID, y.ID))
	})
	out = out[:limitRows(len(out), limit)]
	for i := range out {
		out[i] = cloneAgent(out[i])
	}
	return out, nil
}

// SetMode implements agents.Store: a missing agent is toolkit.NotFound, a
// terminated one toolkit.Conflict (terminated is final).
func (s *Store) SetMode(ctx context.Context, id string, mode agents.Mode) (agents.Agent, error) {
	const op = "memstore.SetMode"
	if err := s.lock(ctx, op); err != nil {
		return agents.Agent{}, err
	}
	defer s.mu.Unlock()
	rec, ok := s.agents[id]
	if !ok {
		return agents.Agent{}, notFound(op)
	}
	if rec.agent.Mode == agents.ModeTerminated {
		return agents.Agent{}, toolkit.Errorf(toolkit.Conflict, "agent %s is terminated", id)
	}
	rec.agent.Mode = mode
	s.agents[id] = rec
	s.changed(id)
	return cloneAgent(rec.agent), nil
}

// ReplaceKeyDigest implements agents.Store. A digest held by another agent
// is toolkit.Conflict.
func (s *Store) ReplaceKeyDigest(ctx context.Context, id string, digest []byte, at time.Time) error {
	const op = "memstore.ReplaceKeyDigest"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	rec, ok := s.agents[id]
	if !ok {
		return toolkit.Errorf(toolkit.NotFound, "agent %s not found", id)
	}
	next := string(digest)
	if holder, taken := s.keyDigests[next]; taken && holder != id {
		return conflict(op, "key digest already in use")
	}
	delete(s.keyDigests, rec.digest)
	rec.digest = next
	rec.agent.KeyCreatedAt, rec.agent.KeyUsedAt = at.UTC(), nil
	s.keyDigests[next] = id
	s.agents[id] = rec
	s.changed(id)
	return nil
}
