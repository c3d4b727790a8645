package storetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workspaceCases returns the cases of workspace.Store and broker.Store:
// memories with their index and quotas, journal trades with their order,
// filters and quota, and broker connections.
func workspaceCases() []Case {
	return []Case{
		{Name: "MemoryIndexAndRead", Test: testMemoryIndexAndRead},
		{Name: "MemoryQuotaWritesNothing", Test: testMemoryQuotaWritesNothing},
		{Name: "MemoryDeleteGivesQuotaBack", Test: testMemoryDeleteGivesQuotaBack},
		{Name: "MemoryDuplicateAndUnknownAgent", Test: testMemoryDuplicateAndUnknownAgent},
		{Name: "ConcurrentMemoriesWithinQuota", Test: testConcurrentMemoriesWithinQuota},
		{Name: "TradeRoundTrip", Test: testTradeRoundTrip},
		{Name: "TradeOrderFiltersAndKeyset", Test: testTradeOrderFiltersAndKeyset},
		{Name: "TradeQuotaAndUnknownAgent", Test: testTradeQuotaAndUnknownAgent},
		{Name: "TradeDeleteGivesQuotaBack", Test: testTradeDeleteGivesQuotaBack},
		{Name: "BrokerConnectionLifecycle", Test: testBrokerConnectionLifecycle},
	}
}

// termHash is a stand-in keyed hash (32 bytes) of a term of an agent.
func termHash(agentID, term string) []byte {
	h := sha256.Sum256([]byte(agentID + "\x00" + term))
	return h[:]
}

// memoryRecord builds a memory of agentID holding terms (term -> count).
func memoryRecord(agentID, category string, at time.Time, terms map[string]int64) workspace.MemoryRecord {
	m := workspace.MemoryRecord{ID: fmt.Sprintf("mem_%016d", seq.Add(1)), AgentID: agentID,
		Content: []byte("sealed content"), Category: []byte("sealed category"), CategoryHash: termHash(agentID, "category:"+category),
		Bytes: 100, StoredAt: at}
	for term, n := range terms {
		m.Postings = append(m.Postings, workspace.Posting{TermHash: termHash(agentID, term), Count: n})
		m.Length += n
	}
	return m
}

var roomy = workspace.MemoryQuota{MaxCount: 1000, MaxBytes: 1 << 20}

func indexOf(t *testing.T, s Store, agentID string, category string, terms ...string) workspace.IndexSnapshot {
	t.Helper()
	q := workspace.IndexQuery{AgentID: agentID}
	for _, term := range terms {
		q.TermHashes = append(q.TermHashes, termHash(agentID, term))
	}
	if category != "" {
		q.CategoryHash = termHash(agentID, "category:"+category)
	}
	snap, err := s.MemoryIndex(ctx, q)
	require.NoError(t, err)
	return snap
}

func testMemoryIndexAndRead(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	m1 := memoryRecord(a.ID, "trades", t0, map[string]int64{"aapl": 2, "breakout": 1})
	m2 := memoryRecord(a.ID, "macro", t0.Add(time.Second), map[string]int64{"rates": 3, "aapl": 1})
	m2.Metadata = []byte("sealed metadata")
	for _, m := range []workspace.MemoryRecord{m1, m2, memoryRecord(b.ID, "trades", t0, map[string]int64{"aapl": 5})} {
		require.NoError(t, s.AddMemory(ctx, m, roomy))
	}
	snap := indexOf(t, s, a.ID, "", "aapl", "rates", "missing")
	assert.EqualValues(t, 2, snap.Memories, "corpus figures of this agent only")
	assert.EqualValues(t, 7, snap.Length)
	assert.Equal(t, map[string]int64{string(termHash(a.ID, "aapl")): 2, string(termHash(a.ID, "rates")): 1}, snap.DocFreq)
	require.Len(t, snap.Matches, 2)
	byID := map[string]workspace.IndexMatch{}
	for _, m := range snap.Matches {
		byID[m.MemoryID] = m
	}
	assert.Equal(t, map[string]int64{string(termHash(a.ID, "aapl")): 2}, byID[m1.ID].Counts)
	assert.EqualValues(t, 3, byID[m1.ID].Length)
	assert.True(t, t0.Equal(byID[m1.ID].StoredAt))
	assert.Equal(t, time.UTC, byID[m1.ID].StoredAt.Location())
	assert.EqualValues(t, 3, byID[m2.ID].Counts[string(termHash(a.ID, "rates"))])

	snap = indexOf(t, s, a.ID, "macro", "aapl")
	require.Len(t, snap.Matches, 1, "category filter")
	assert.Equal(t, m2.ID, snap.Matches[0].MemoryID)
	assert.EqualValues(t, 2, snap.DocFreq[string(termHash(a.ID, "aapl"))], "document frequency over every category")

	none := indexOf(t, s, a.ID, "")
	assert.EqualValues(t, 2, none.Memories, "no terms: the corpus figures and no match")
	assert.Empty(t, none.Matches)

	empty := indexOf(t, s, newAgent(t, s).ID, "", "aapl")
	assert.Zero(t, empty.Memories)
	assert.Empty(t, empty.Matches)

	got, err := s.Memories(ctx, a.ID, []string{m2.ID, m1.ID, "mem_missing"})
	require.NoError(t, err)
	require.Len(t, got, 2)
	for _, m := range got {
		assert.Nil(t, m.Postings)
		if m.ID == m2.ID {
			assert.Equal(t, []byte("sealed metadata"), m.Metadata)
			assert.Equal(t, m2.CategoryHash, m.CategoryHash)
			assert.EqualValues(t, 100, m.Bytes)
			assert.EqualValues(t, 4, m.Length)
		} else {
			assert.Nil(t, m.Metadata)
		}
		assert.Equal(t, []byte("sealed content"), m.Content)
	}
	got, err = s.Memories(ctx, b.ID, []string{m1.ID, m2.ID})
	require.NoError(t, err)
	assert.Empty(t, got, "another agent's memories are never returned")
}

func testMemoryQuotaWritesNothing(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	quota := workspace.MemoryQuota{MaxCount: 2, MaxBytes: 250}
	require.NoError(t, s.AddMemory(ctx, memoryRecord(a.ID, "c", t0, map[string]int64{"one": 1}), quota))
	big := memoryRecord(a.ID, "c", t0, map[string]int64{"big": 1})
	big.Bytes = 151
	err := s.AddMemory(ctx, big, quota)
	require.Error(t, err)
	assert.True(t, toolkit.IsKind(err, toolkit.TooLarge), "%v", err)
	assert.Contains(t, err.Error(), "100 are used and this memory needs 151")
	require.NoError(t, s.AddMemory(ctx, memoryRecord(a.ID, "c", t0, map[string]int64{"two": 1}), quota))
	err = s.AddMemory(ctx, memoryRecord(a.ID, "c", t0, map[string]int64{"three": 1}), quota)
	require.Error(t, err)
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "%v", err)
	assert.Contains(t, err.Error(), "at most 2 memories")

	snap := indexOf(t, s, a.ID, "", "big", "three")
	assert.EqualValues(t, 2, snap.Memories)
	assert.EqualValues(t, 2, snap.Length)
	assert.Empty(t, snap.Matches, "refused memories left no posting")
}

func testMemoryDeleteGivesQuotaBack(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	quota := workspace.MemoryQuota{MaxCount: 1, MaxBytes: 1000}
	m := memoryRecord(a.ID, "c", t0, map[string]int64{"word": 2})
	require.NoError(t, s.AddMemory(ctx, m, quota))
	err := s.DeleteMemory(ctx, b.ID, m.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "another agent cannot delete it: %v", err)
	require.NoError(t, s.DeleteMemory(ctx, a.ID, m.ID))
	err = s.DeleteMemory(ctx, a.ID, m.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	snap := indexOf(t, s, a.ID, "", "word")
	assert.Zero(t, snap.Memories)
	assert.Zero(t, snap.Length)
	assert.Empty(t, snap.Matches)
	assert.Empty(t, snap.DocFreq)
	require.NoError(t, s.AddMemory(ctx, memoryRecord(a.ID, "c", t0, map[string]int64{"word": 1}), quota), "the place is free again")
}

func testMemoryDuplicateAndUnknownAgent(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	m := memoryRecord(a.ID, "c", t0, map[string]int64{"x": 1})
	require.NoError(t, s.AddMemory(ctx, m, roomy))
	err := s.AddMemory(ctx, m, roomy)
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "%v", err)
	assert.EqualValues(t, 1, indexOf(t, s, a.ID, "", "x").Memories, "the duplicate took no quota")
	err = s.AddMemory(ctx, memoryRecord("agt_nobody", "c", t0, map[string]int64{"x": 1}), roomy)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
}

func testConcurrentMemoriesWithinQuota(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	a := newAgent(t, stores[0])
	quota := workspace.MemoryQuota{MaxCount: 5, MaxBytes: 1 << 20}
	var ok, full atomic.Int64
	parallel(16, func(i int) {
		err := stores[i%2].AddMemory(context.Background(), memoryRecord(a.ID, "c", t0, map[string]int64{"term": 1, fmt.Sprint(i): 1}), quota)
		switch {
		case err == nil:
			ok.Add(1)
		case toolkit.IsKind(err, toolkit.Conflict):
			full.Add(1)
		default:
			t.Errorf("unexpected error: %v", err)
		}
	})
	assert.EqualValues(t, 5, ok.Load())
	assert.EqualValues(t, 11, full.Load())
	snap := indexOf(t, stores[1], a.ID, "", "term")
	assert.EqualValues(t, 5, snap.Memories)
	assert.EqualValues(t, 10, snap.Length)
	assert.Len(t, snap.Matches, 5)
}

// tradeRecord builds a trade of agentID closed at at.
func tradeRecord(agentID, symbol, strategy string, at time.Time) workspace.TradeRecord {
	t := workspace.TradeRecord{ID: fmt.Sprintf("trd_%016d", seq.Add(1)), AgentID: agentID, SymbolHash: termHash(agentID, "symbol:"+symbol),
		Labels: []byte("sealed labels"), Direction: "long", EntryPrice: "100", ExitPrice: "110", Quantity: "10",
		RMultiple: 2, PnLMicros: 100_000_000, ClosedAt: at, RecordedAt: t0}
	if strategy != "" {
		t.StrategyHash = termHash(agentID, "strategy:"+strategy)
	}
	return t
}

func testTradeRoundTrip(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	stop, mfe, mae := "95.125", 3.5, 0.25
	entry, exit := time.Date(2026, 3, 9, 14, 30, 0, 123456000, time.UTC), time.Date(2026, 3, 9, 20, 0, 0, 0, time.UTC)
	full := tradeRecord(a.ID, "AAPL", "breakout", exit)
	full.Notes, full.StopPrice, full.RDerived, full.RMultiple = []byte("sealed notes"), &stop, true, 1.0/3
	full.FeesMicros, full.PnLMicros, full.MFER, full.MAER = 1_500_000, -512_123_456, &mfe, &mae
	full.EntryTime, full.ExitTime, full.Direction = &entry, &exit, "short"
	bare := tradeRecord(a.ID, "MSFT", "", exit.Add(time.Hour))
	for _, tr := range []workspace.TradeRecord{full, bare} {
		require.NoError(t, s.AddTrade(ctx, tr, 100))
	}
	got, err := s.Trades(ctx, workspace.TradeQuery{AgentID: a.ID})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, bare, got[0])
	assert.Equal(t, full, got[1], "every field, nil and set, survives the round trip")
	assert.Equal(t, time.UTC, got[1].EntryTime.Location())

	got, err = s.Trades(ctx, workspace.TradeQuery{AgentID: a.ID, WithoutText: true})
	require.NoError(t, err)
	assert.Nil(t, got[1].Labels)
	assert.Nil(t, got[1].Notes)
	assert.Equal(t, full.RMultiple, got[1].RMultiple)
}

func testTradeOrderFiltersAndKeyset(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	var all []workspace.TradeRecord
	for i := range 6 {
		at := t0.Add(time.Duration(i/2) * time.Hour) // pairs share a closing time
		tr := tradeRecord(a.ID, []string{"AAPL", "MSFT"}[i%2], []string{"breakout", "pullback", ""}[i%3], at)
		require.NoError(t, s.AddTrade(ctx, tr, 100))
		all = append(all, tr)
	}
	require.NoError(t, s.AddTrade(ctx, tradeRecord(b.ID, "AAPL", "breakout", t0), 100))
	ids := func(q workspace.TradeQuery) []string {
		t.Helper()
		got, err := s.Trades(ctx, q)
		require.NoError(t, err)
		out := []string{}
		for _, tr := range got {
			out = append(out, tr.ID)
		}
		return out
	}
	// Newest first; equal times by id descending.
	want := []string{all[5].ID, all[4].ID, all[3].ID, all[2].ID, all[1].ID, all[0].ID}
	assert.Equal(t, want, ids(workspace.TradeQuery{AgentID: a.ID}))
	assert.Equal(t, want[:2], ids(workspace.TradeQuery{AgentID: a.ID, Limit: 2}))
	after := &toolkit.Cursor{At: all[4].ClosedAt, ID: all[4].ID}
	assert.Equal(t, want[2:], ids(workspace.TradeQuery{AgentID: a.ID, After: after}), "strictly after, ties included")
	assert.Equal(t, []string{all[4].ID, all[2].ID, all[0].ID}, ids(workspace.TradeQuery{AgentID: a.ID, SymbolHash: termHash(a.ID, "symbol:AAPL")}))
	assert.Equal(t, []string{all[3].ID, all[0].ID}, ids(workspace.TradeQuery{AgentID: a.ID, StrategyHash: termHash(a.ID, "strategy:breakout")}))
	from, to := t0.Add(time.Hour), t0.Add(2*time.Hour)
	assert.Equal(t, []string{all[3].ID, all[2].ID}, ids(workspace.TradeQuery{AgentID: a.ID, From: &from, To: &to}), "from inclusive, to exclusive")
	assert.Empty(t, ids(workspace.TradeQuery{AgentID: a.ID, SymbolHash: termHash(b.ID, "symbol:AAPL")}), "another agent's hash matches nothing")
	assert.Len(t, ids(workspace.TradeQuery{AgentID: b.ID}), 1)
}

func testTradeQuotaAndUnknownAgent(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	first := tradeRecord(a.ID, "A", "", t0)
	require.NoError(t, s.AddTrade(ctx, first, 2))
	err := s.AddTrade(ctx, first, 2)
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "duplicate id: %v", err)
	require.NoError(t, s.AddTrade(ctx, tradeRecord(a.ID, "A", "", t0), 2), "the duplicate took no quota")
	err = s.AddTrade(ctx, tradeRecord(a.ID, "A", "", t0), 2)
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "%v", err)
	assert.Contains(t, err.Error(), "at most 2 trades")
	got, err := s.Trades(ctx, workspace.TradeQuery{AgentID: a.ID})
	require.NoError(t, err)
	assert.Len(t, got, 2)
	err = s.AddTrade(ctx, tradeRecord("agt_nobody", "A", "", t0), 2)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
}

func testTradeDeleteGivesQuotaBack(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	tr := tradeRecord(a.ID, "A", "", t0)
	require.NoError(t, s.AddTrade(ctx, tr, 1))
	err := s.DeleteTrade(ctx, b.ID, tr.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "another agent cannot delete it: %v", err)
	require.NoError(t, s.DeleteTrade(ctx, a.ID, tr.ID))
	err = s.DeleteTrade(ctx, a.ID, tr.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	got, err := s.Trades(ctx, workspace.TradeQuery{AgentID: a.ID})
	require.NoError(t, err)
	assert.Empty(t, got)
	require.NoError(t, s.AddTrade(ctx, tradeRecord(a.ID, "A", "", t0), 1), "the place is free again")
}

func testBrokerConnectionLifecycle(t *testing.T, h Harness) {
	s := openOne(t, h)
	a, b := newAgent(t, s), newAgent(t, s)
	_, err := s.BrokerConnection(ctx, a.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	first := broker.ConnectionRecord{AgentID: a.ID, ID: "brk_first", BrokerType: "demo", Params: []byte("sealed one"), ConnectedAt: t0}
	require.NoError(t, s.SaveBrokerConnection(ctx, first))
	got, err := s.BrokerConnection(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, first, got)
	second := broker.ConnectionRecord{AgentID: a.ID, ID: "brk_second", BrokerType: "alpaca", Params: []byte("sealed two"), ConnectedAt: t0.Add(time.Minute)}
	require.NoError(t, s.SaveBrokerConnection(ctx, second))
	got, err = s.BrokerConnection(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, second, got, "one connection per agent: the new one replaces the old")
	_, err = s.BrokerConnection(ctx, b.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	err = s.DeleteBrokerConnection(ctx, b.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	require.NoError(t, s.DeleteBrokerConnection(ctx, a.ID))
	err = s.DeleteBrokerConnection(ctx, a.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	err = s.SaveBrokerConnection(ctx, broker.ConnectionRecord{AgentID: "agt_nobody", ID: "brk_x", BrokerType: "demo", Params: []byte("x"), ConnectedAt: t0})
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
}
