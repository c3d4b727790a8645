package memstore

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
)

var _ workspace.Store = (*Store)(nil)

// workspaceTables hold the agents' workspaces: memories by id with their
// postings, each agent's term index and quota usage, journal trades by
// id, and broker connections by agent.
type workspaceTables struct {
	connections map[string]broker.ConnectionRecord          // by agent id
	memories    map[string]workspace.MemoryRecord           // by memory id, postings included
	terms       map[string]map[string]map[string]int64      // agent -> term hash -> memory id -> count
	usage       map[string]*workspaceUsage                  // by agent id
	trades      map[string]workspace.TradeRecord            // by trade id
	journals    map[string]map[string]workspace.TradeRecord // agent -> trade id -> trade
}

// workspaceUsage is what an agent's workspace holds, for the quotas and
// BM25's corpus figures.
type workspaceUsage struct {
	memories, memoryBytes, memoryLength, trades int64
}

func newWorkspaceTables() workspaceTables {
	return workspaceTables{
		connections: map[string]broker.ConnectionRecord{},
		memories:    map[string]workspace.MemoryRecord{},
		terms:       map[string]map[string]map[string]int64{},
		usage:       map[string]*workspaceUsage{},
		trades:      map[string]workspace.TradeRecord{},
		journals:    map[string]map[string]workspace.TradeRecord{},
	}
}

// asStored is a time as the databases keep it: UTC, microseconds.
func asStored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func asStoredPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := asStored(*t)
	return &v
}

// usageOf returns the agent's usage row, NotFound (as a database's foreign
// key reports it) when the agent does not exist.
func (s *Store) usageOf(op, agentID string) (*workspaceUsage, error) {
	if _, ok := s.agents[agentID]; !ok {
		return nil, &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "not found", Err: errors.New("agent " + agentID + " does not exist")}
	}
	u := s.ws.usage[agentID]
	if u == nil {
		u = &workspaceUsage{}
		s.ws.usage[agentID] = u
	}
	return u, nil
}

// AddMemory implements workspace.Store.
func (s *Store) AddMemory(ctx context.Context, m workspace.MemoryRecord, q workspace.MemoryQuota) error {
	const op = "memstore.AddMemory"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	u, err := s.usageOf(op, m.AgentID)
	if err != nil {
		return err
	}
	if _, dup := s.ws.memories[m.ID]; dup {
		return conflict(op, "memory id "+m.ID+" already exists")
	}
	if u.memories+1 > q.MaxCount {
		return workspace.MemoryCountExceeded(q.MaxCount)
	}
	if u.memoryBytes+m.Bytes > q.MaxBytes {
		return workspace.MemoryBytesExceeded(q.MaxBytes, u.memoryBytes, m.Bytes)
	}
	m = cloneMemory(m, true)
	s.ws.memories[m.ID] = m
	index := s.ws.terms[m.AgentID]
	if index == nil {
		index = map[string]map[string]int64{}
		s.ws.terms[m.AgentID] = index
	}
	for _, p := range m.Postings {
		key := string(p.TermHash)
		if index[key] == nil {
			index[key] = map[string]int64{}
		}
		index[key][m.ID] = p.Count
	}
	u.memories++
	u.memoryBytes += m.Bytes
	u.memoryLength += m.Length
	return nil
}

// MemoryIndex implements workspace.Store.
func (s *Store) MemoryIndex(ctx context.Context, q workspace.IndexQuery) (workspace.IndexSnapshot, error) {
	const op = "memstore.MemoryIndex"
	if err := s.lock(ctx, op); err != nil {
		return workspace.IndexSnapshot{}, err
	}
	defer s.mu.Unlock()
	snap := workspace.IndexSnapshot{DocFreq: map[string]int64{}}
	if u := s.ws.usage[q.AgentID]; u != nil {
		snap.Memories, snap.Length = u.memories, u.memoryLength
	}
	index := s.ws.terms[q.AgentID]
	matches := map[string]*workspace.IndexMatch{}
	var order []string
	for _, h := range q.TermHashes {
		key := string(h)
		postings := index[key]
		if len(postings) == 0 {
			continue
		}
		snap.DocFreq[key] = int64(len(postings))
		for id, n := range postings {
			m := s.ws.memories[id]
			if q.CategoryHash != nil && !bytes.Equal(m.CategoryHash, q.CategoryHash) {
				continue
			}
			if matches[id] == nil {
				matches[id] = &workspace.IndexMatch{MemoryID: id, StoredAt: m.StoredAt, Length: m.Length, Counts: map[string]int64{}}
				order = append(order, id)
			}
			matches[id].Counts[key] = n
		}
	}
	slices.Sort(order)
	for _, id := range order {
		snap.Matches = append(snap.Matches, *matches[id])
	}
	return snap, nil
}

// Memories implements workspace.Store.
func (s *Store) Memories(ctx context.Context, agentID string, ids []string) ([]workspace.MemoryRecord, error) {
	const op = "memstore.Memories"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []workspace.MemoryRecord{}
	for _, id := range ids {
		if m, ok := s.ws.memories[id]; ok && m.AgentID == agentID {
			out = append(out, cloneMemory(m, false))
		}
	}
	return out, nil
}

// DeleteMemory implements workspace.Store.
func (s *Store) DeleteMemory(ctx context.Context, agentID, id string) error {
	const op = "memstore.DeleteMemory"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	m, ok := s.ws.memories[id]
	if !ok || m.AgentID != agentID {
		return notFound(op)
	}
	index := s.ws.terms[agentID]
	for _, p := range m.Postings {
		key := string(p.TermHash)
		delete(index[key], id)
		if len(index[key]) == 0 {
			delete(index, key)
		}
	}
	delete(s.ws.memories, id)
	u := s.ws.usage[agentID]
	u.memories--
	u.memoryBytes -= m.Bytes
	u.memoryLength -= m.Length
	return nil
}

// AddTrade implements workspace.Store.
func (s *Store) AddTrade(ctx context.Context, t workspace.TradeRecord, maxTrades int64) error {
	const op = "memstore.AddTrade"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	u, err := s.usageOf(op, t.AgentID)
	if err != nil {
		return err
	}
	if _, dup := s.ws.trades[t.ID]; dup {
		return conflict(op, "trade id "+t.ID+" already exists")
	}
	if u.trades+1 > maxTrades {
		return workspace.JournalFull(maxTrades)
	}
	t = cloneTrade(t, false)
	s.ws.trades[t.ID] = t
	if s.ws.journals[t.AgentID] == nil {
		s.ws.journals[t.AgentID] = map[string]workspace.TradeRecord{}
	}
	s.ws.journals[t.AgentID][t.ID] = t
	u.trades++
	return nil
}

// DeleteTrade implements workspace.Store.
func (s *Store) DeleteTrade(ctx context.Context, agentID, id string) error {
	const op = "memstore.DeleteTrade"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	t, ok := s.ws.trades[id]
	if !ok || t.AgentID != agentID {
		return notFound(op)
	}
	delete(s.ws.trades, id)
	delete(s.ws.journals[agentID], id)
	s.ws.usage[agentID].trades--
	return nil
}

// Trades implements workspace.Store.
func (s *Store) Trades(ctx context.Context, q workspace.TradeQuery) ([]workspace.TradeRecord, error) {
	const op = "memstore.Trades"
	if err := s.lock(ctx, op); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []workspace.TradeRecord{}
	for _, t := range s.ws.journals[q.AgentID] {
		if tradeMatches(t, q) {
			out = append(out, cloneTrade(t, q.WithoutText))
		}
	}
	slices.SortFunc(out, func(a, b workspace.TradeRecord) int {
		if c := b.ClosedAt.Compare(a.ClosedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out[:limitRows(len(out), q.Limit)], nil
}

// tradeMatches applies a query's filters and keyset position.
func tradeMatches(t workspace.TradeRecord, q workspace.TradeQuery) bool {
	switch {
	case q.SymbolHash != nil && !bytes.Equal(t.SymbolHash, q.SymbolHash),
		q.StrategyHash != nil && !bytes.Equal(t.StrategyHash, q.StrategyHash),
		q.From != nil && t.ClosedAt.Before(asStored(*q.From)),
		q.To != nil && !t.ClosedAt.Before(asStored(*q.To)):
		return false
	case q.After != nil:
		at := asStored(q.After.At)
		return t.ClosedAt.Before(at) || (t.ClosedAt.Equal(at) && t.ID < q.After.ID)
	}
	return true
}

// cloneMemory copies a memory so that it shares nothing with the store;
// postings are kept only when withPostings.
func cloneMemory(m workspace.MemoryRecord, withPostings bool) workspace.MemoryRecord {
	m.Content, m.Category, m.Metadata, m.CategoryHash = bytes.Clone(m.Content), bytes.Clone(m.Category), bytes.Clone(m.Metadata), bytes.Clone(m.CategoryHash)
	m.StoredAt = asStored(m.StoredAt)
	if !withPostings {
		m.Postings = nil
		return m
	}
	postings := make([]workspace.Posting, len(m.Postings))
	for i, p := range m.Postings {
		postings[i] = workspace.Posting{TermHash: bytes.Clone(p.TermHash), Count: p.Count}
	}
	m.Postings = postings
	return m
}

// cloneTrade copies a trade so that it shares nothing with the store;
// withoutText drops the sealed labels and notes.
func cloneTrade(t workspace.TradeRecord, withoutText bool) workspace.TradeRecord {
	t.SymbolHash, t.StrategyHash = bytes.Clone(t.SymbolHash), bytes.Clone(t.StrategyHash)
	t.Labels, t.Notes = bytes.Clone(t.Labels), bytes.Clone(t.Notes)
	if withoutText {
		t.Labels, t.Notes = nil, nil
	}
	t.StopPrice = clonePtr(t.StopPrice)
	t.MFER, t.MAER = clonePtr(t.MFER), clonePtr(t.MAER)
	t.EntryTime, t.ExitTime = asStoredPtr(t.EntryTime), asStoredPtr(t.ExitTime)
	t.ClosedAt, t.RecordedAt = asStored(t.ClosedAt), asStored(t.RecordedAt)
	return t
}
