package memstore

import (
	"bytes"
	"context"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// registeredWallet maps a wallet (by keyed hash) to its agent.
type registeredWallet struct {
	agentID string
	sealed  []byte
}

// linkedWallet is an agent's linked wallet.
type linkedWallet struct {
	hash   string
	sealed []byte
}

// useChallenge prunes old challenges and claims digest, or reports
// toolkit.Conflict. It writes nothing on conflict; the caller holds mu and
// must have checked everything else first.
func (s *Store) useChallenge(op string, digest []byte, signedAt, pruneBefore time.Time) error {
	if _, used := s.challenges[string(digest)]; used {
		return conflict(op, "wallet challenge already used")
	}
	for d, at := range s.challenges {
		if at.Before(pruneBefore) {
			delete(s.challenges, d)
		}
	}
	s.challenges[string(digest)] = signedAt.UTC()
	return nil
}

// RegisterWallet implements agents.Store: every rule is checked before
// anything is written.
func (s *Store) RegisterWallet(ctx context.Context, in agents.WalletSignIn) (agents.Agent, bool, error) {
	const op = "memstore.RegisterWallet"
	if err := s.lock(ctx, op); err != nil {
		return agents.Agent{}, false, err
	}
	defer s.mu.Unlock()
	if _, used := s.challenges[string(in.ChallengeDigest)]; used {
		return agents.Agent{}, false, conflict(op, "wallet challenge already used")
	}
	digest := string(in.KeyDigest)
	if _, dup := s.keyDigests[digest]; dup {
		return agents.Agent{}, false, conflict(op, "key digest already in use")
	}
	if w, ok := s.wallets[string(in.WalletHash)]; ok {
		rec := s.agents[w.agentID]
		if rec.agent.Mode == agents.ModeTerminated {
			return agents.Agent{}, false, toolkit.Errorf(toolkit.Forbidden, "agent %s is terminated", w.agentID)
		}
		_ = s.useChallenge(op, in.ChallengeDigest, in.SignedAt, in.PruneBefore)
		delete(s.keyDigests, rec.digest)
		rec.digest = digest
		rec.agent.KeyCreatedAt, rec.agent.KeyUsedAt = in.NewAgent.CreatedAt.UTC(), nil
		s.keyDigests[digest] = w.agentID
		s.agents[w.agentID] = rec
		s.changed(w.agentID)
		return cloneAgent(rec.agent), false, nil
	}
	a := in.NewAgent
	if _, dup := s.owners[a.OwnerID]; dup {
		return agents.Agent{}, false, conflict(op, "owner "+a.OwnerID+" already exists")
	}
	if _, dup := s.agents[a.ID]; dup {
		return agents.Agent{}, false, conflict(op, "agent id "+a.ID+" already exists")
	}
	if _, dup := s.ownerKeys[string(in.OwnerKeyHash)]; dup && len(in.OwnerKeyHash) > 0 {
		return agents.Agent{}, false, conflict(op, "owner key hash already in use")
	}
	_ = s.useChallenge(op, in.ChallengeDigest, in.SignedAt, in.PruneBefore)
	rec := agentRecord{agent: cloneAgent(a), digest: digest}
	rec.agent.KeyCreatedAt, rec.agent.KeyUsedAt = rec.agent.CreatedAt, nil
	_ = s.addOwnerLocked(op, a.OwnerID, rec.agent.CreatedAt, in.OwnerKeyHash) // checked above
	s.agents[a.ID] = rec
	s.keyDigests[digest] = a.ID
	s.balances[a.ID] = billing.BalanceRecord{AgentID: a.ID, UpdatedAt: rec.agent.CreatedAt}
	s.wallets[string(in.WalletHash)] = registeredWallet{agentID: a.ID, sealed: bytes.Clone(in.SealedWallet)}
	return cloneAgent(rec.agent), true, nil
}

// LinkWallet implements agents.Store.
func (s *Store) LinkWallet(ctx context.Context, in agents.WalletLinkRecord) (agents.Agent, error) {
	const op = "memstore.LinkWallet"
	if err := s.lock(ctx, op); err != nil {
		return agents.Agent{}, err
	}
	defer s.mu.Unlock()
	rec, ok := s.agents[in.AgentID]
	if !ok {
		return agents.Agent{}, notFound(op)
	}
	if _, used := s.linkSignatures[string(in.SignatureDigest)]; used {
		return agents.Agent{}, conflict(op, "link-wallet signature already used")
	}
	for d, at := range s.linkSignatures {
		if !at.IsZero() && at.Before(in.PruneBefore) {
			delete(s.linkSignatures, d)
		}
	}
	s.linkSignatures[string(in.SignatureDigest)] = in.SignedAt.UTC()
	prev, had := s.linked[in.AgentID]
	switch {
	case in.Presale != nil:
		rec.agent.PresaleBuyer = *in.Presale
	case !had || prev.hash != string(in.WalletHash):
		rec.agent.PresaleBuyer = false
	}
	s.linked[in.AgentID] = linkedWallet{hash: string(in.WalletHash), sealed: bytes.Clone(in.SealedWallet)}
	s.agents[in.AgentID] = rec
	s.changed(in.AgentID)
	return cloneAgent(rec.agent), nil
}

// AgentWallets implements agents.Store.
func (s *Store) AgentWallets(ctx context.Context, agentID string) (agents.WalletRecords, error) {
	const op = "memstore.AgentWallets"
	if err := s.lock(ctx, op); err != nil {
		return agents.WalletRecords{}, err
	}
	defer s.mu.Unlock()
	var out agents.WalletRecords
	for _, w := range s.wallets {
		if w.agentID == agentID {
			out.Registered = bytes.Clone(w.sealed)
		}
	}
	if l, ok := s.linked[agentID]; ok {
		out.Linked = bytes.Clone(l.sealed)
	}
	return out, nil
}
