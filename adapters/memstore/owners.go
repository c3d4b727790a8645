package memstore

import (
	"context"
	"sort"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// ownerRecord is a stored owner and its owner key's keyed hash.
type ownerRecord struct {
	createdAt    time.Time
	keyHash      string // raw bytes as a string; "" when none
	keyCreatedAt *time.Time
}

// addOwnerLocked claims an owner id with an optional key hash (s.mu held;
// the caller checked the id is free). A hash held by another owner is
// toolkit.Conflict.
func (s *Store) addOwnerLocked(op, id string, at time.Time, hash []byte) error {
	rec := ownerRecord{createdAt: at.UTC()}
	if len(hash) > 0 {
		if _, dup := s.ownerKeys[string(hash)]; dup {
			return conflict(op, "owner key hash already in use")
		}
		t := at.UTC()
		rec.keyHash, rec.keyCreatedAt = string(hash), &t
		s.ownerKeys[rec.keyHash] = id
	}
	s.owners[id] = rec
	return nil
}

func (r ownerRecord) owner(id string) agents.Owner {
	return agents.Owner{ID: id, CreatedAt: r.createdAt, KeyCreatedAt: clonePtr(r.keyCreatedAt)}
}

// OwnerByKeyHash implements agents.Store.
func (s *Store) OwnerByKeyHash(ctx context.Context, hash []byte) (agents.Owner, error) {
	const op = "memstore.OwnerByKeyHash"
	if err := s.lock(ctx, op); err != nil {
		return agents.Owner{}, err
	}
	defer s.mu.Unlock()
	id, ok := s.ownerKeys[string(hash)]
	if !ok || len(hash) == 0 {
		return agents.Owner{}, notFound(op)
	}
	return s.owners[id].owner(id), nil
}

// ReplaceOwnerKeyHash implements agents.Store.
func (s *Store) ReplaceOwnerKeyHash(ctx context.Context, ownerID string, hash []byte, at time.Time) error {
	const op = "memstore.ReplaceOwnerKeyHash"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	rec, ok := s.owners[ownerID]
	if !ok {
		return toolkit.Errorf(toolkit.NotFound, "owner %q not found", ownerID)
	}
	if holder, taken := s.ownerKeys[string(hash)]; taken && holder != ownerID {
		return conflict(op, "owner key hash already in use")
	}
	delete(s.ownerKeys, rec.keyHash)
	t := at.UTC()
	rec.keyHash, rec.keyCreatedAt = string(hash), &t
	s.ownerKeys[rec.keyHash] = ownerID
	s.owners[ownerID] = rec
	return nil
}

// ListOwners implements agents.Store: owners in id (byte) order.
func (s *Store) ListOwners(ctx context.Context, after string, limit int) ([]agents.OwnerSummary, error) {
	const op = "memstore.ListOwners"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.owners))
	for id := range s.owners {
		if id > after {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	ids = ids[:limitRows(len(ids), limit)]
	out := make([]agents.OwnerSummary, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		out[i] = agents.OwnerSummary{Owner: s.owners[id].owner(id)}
		index[id] = i
	}
	for _, rec := range s.agents {
		if i, ok := index[rec.agent.OwnerID]; ok {
			out[i].Agents++
			if rec.agent.IsActive() {
				out[i].Active++
			}
		}
	}
	return out, nil
}

// TouchKey implements agents.Store.
func (s *Store) TouchKey(ctx context.Context, id string, at, staleBefore time.Time) error {
	const op = "memstore.TouchKey"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	rec, ok := s.agents[id]
	if !ok || (rec.agent.KeyUsedAt != nil && !rec.agent.KeyUsedAt.Before(staleBefore)) {
		return nil
	}
	t := at.UTC()
	rec.agent.KeyUsedAt = &t
	s.agents[id] = rec
	return nil
}

// mergedLedgers is the ledger rows of several agents in Seq order (s.mu
// held).
func (s *Store) mergedLedgers(ids []string) []ledgerEntry {
	var out []ledgerEntry
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, s.ledgers[id]...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].tx.Seq < out[j].tx.Seq })
	return out
}

// DailyUsage implements billing.Store from the ledger's consumption rows.
func (s *Store) DailyUsage(ctx context.Context, q billing.UsageQuery) ([]billing.DailyUsage, error) {
	const op = "memstore.DailyUsage"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	type key struct {
		day           time.Time
		agent, opName string
	}
	totals := map[key]*billing.DailyUsage{}
	for _, e := range s.mergedLedgers(q.AgentIDs) {
		tx := e.tx
		if tx.Type != billing.TypeConsumption || tx.Operation == nil || tx.CreatedAt.Before(q.From) || !tx.CreatedAt.Before(q.To) {
			continue
		}
		t := tx.CreatedAt.UTC()
		k := key{time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), tx.AgentID, *tx.Operation}
		u := totals[k]
		if u == nil {
			u = &billing.DailyUsage{Day: k.day, AgentID: k.agent, Operation: k.opName}
			totals[k] = u
		}
		u.Count++
		u.TotalMicros -= tx.AmountMicros
	}
	out := make([]billing.DailyUsage, 0, len(totals))
	for _, u := range totals {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Day.Equal(b.Day) {
			return a.Day.Before(b.Day)
		}
		if a.AgentID != b.AgentID {
			return a.AgentID < b.AgentID
		}
		return a.Operation < b.Operation
	})
	return out, nil
}
