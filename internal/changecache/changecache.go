// Package changecache is the in-process cache of per-agent records that the
// domain services keep in front of their stores (agents: the agent behind
// an API key; billing: what a charge is checked against), kept fresh by a
// store's change feed (agents.ChangeFeed).
//
// A Cache serves an entry only while three things hold: the feed is up
// (FeedUp was called after the last FeedDown), no change of the entry's
// agent was announced since it was read (AgentChanged drops it), and it is
// younger than the maximum age, a safety net for an announcement that is
// lost anyway. A read that started before an announcement never fills the
// cache with what it read: Begin returns a ticket, and Put refuses a
// ticket older than the last announcement, so the value a reader raced
// with a change is used for that one call and never cached.
//
// Each agent has at most one entry: putting a new key of an agent drops
// the one it had (an agent has one API key; a rotated key's entry goes).
package changecache

import (
	"sync"
	"time"
)

// Cache is a bounded, concurrency-safe cache of values by key, each entry
// belonging to one agent. The zero value is not usable; call New.
type Cache[K comparable, V any] struct {
	maxAge     time.Duration
	maxEntries int
	now        func() time.Time

	mu      sync.RWMutex
	entries map[K]entry[V]
	byAgent map[string]K
	gen     uint64 // counts the announcements (and feed state changes)
	up      bool   // the feed delivers: entries may be served and stored
}

type entry[V any] struct {
	agentID string
	value   V
	at      time.Time
}

// Defaults of New.
const (
	DefaultMaxAge     = 5 * time.Second
	DefaultMaxEntries = 10000
)

// Ticket is the cache's state when a read of the store began (see Begin).
type Ticket uint64

// New returns an empty cache serving entries younger than maxAge (0:
// DefaultMaxAge), holding at most maxEntries (0: DefaultMaxEntries),
// reading the time from now. It serves nothing until FeedUp is called.
func New[K comparable, V any](maxAge time.Duration, maxEntries int, now func() time.Time) *Cache[K, V] {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	if maxEntries <= 0 {
		maxEntries = DefaultMaxEntries
	}
	return &Cache[K, V]{maxAge: maxAge, maxEntries: maxEntries, now: now,
		entries: make(map[K]entry[V]), byAgent: make(map[string]K)}
}

// Get returns the value cached under k, if it may be served.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	e, ok := c.entries[k]
	up := c.up
	c.mu.RUnlock()
	if !ok || !up || c.now().Sub(e.at) >= c.maxAge {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Begin returns the ticket to Put what is about to be read from the store.
func (c *Cache[K, V]) Begin() Ticket {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return Ticket(c.gen)
}

// Put caches v, read for agentID under k since t was taken, unless an
// announcement came meanwhile or the feed is down. When the cache is full
// an arbitrary entry makes room.
func (c *Cache[K, V]) Put(t Ticket, agentID string, k K, v V) {
	at := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.up || Ticket(c.gen) != t {
		return
	}
	if old, ok := c.byAgent[agentID]; ok && old != k {
		delete(c.entries, old)
	}
	if _, ok := c.entries[k]; !ok && len(c.entries) >= c.maxEntries {
		for victim, e := range c.entries { // map order is random: a random victim
			delete(c.entries, victim)
			delete(c.byAgent, e.agentID)
			break
		}
	}
	c.entries[k] = entry[V]{agentID: agentID, value: v, at: at}
	c.byAgent[agentID] = k
}

// Update replaces the value cached under k with update(value), keeping its
// age, when there is one. A caller updates what it knows it changed (such
// as a balance after its own debit); update must not block.
func (c *Cache[K, V]) Update(k K, update func(V) V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		e.value = update(e.value)
		c.entries[k] = e
	}
}

// Drop removes the entry of k, if any, without an announcement: for a
// value its holder knows to be stale (a refusal it confirms in the store).
func (c *Cache[K, V]) Drop(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		delete(c.entries, k)
		delete(c.byAgent, e.agentID)
	}
}

// AgentChanged drops the agent's entry (every entry for "*",
// agents.AllAgents) and refuses every Put of a read that began before:
// what was read about the agent is stale.
func (c *Cache[K, V]) AgentChanged(agentID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if agentID == "*" {
		clear(c.entries)
		clear(c.byAgent)
		return
	}
	if k, ok := c.byAgent[agentID]; ok {
		delete(c.entries, k)
		delete(c.byAgent, agentID)
	}
}

// FeedDown empties the cache and stops it serving and storing: changes may
// go unannounced until FeedUp.
func (c *Cache[K, V]) FeedDown() { c.reset(false) }

// FeedUp empties the cache and lets it serve and store again.
func (c *Cache[K, V]) FeedUp() { c.reset(true) }

func (c *Cache[K, V]) reset(up bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.up = up
	clear(c.entries)
	clear(c.byAgent)
}

// Len returns the number of entries held (for tests and metrics).
func (c *Cache[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
