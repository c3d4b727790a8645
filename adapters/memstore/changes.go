package memstore

import (
	"slices"
	"sync"

	"github.com/agentfinance/toolkit/agents"
)

var _ agents.ChangeFeed = (*Store)(nil)

// feed is the store's change feed (agents.ChangeFeed): in process, since a
// memstore is never shared by two processes. Every method that changes an
// agent announces it under the store's mutex, before it returns.
type feed struct {
	mu        sync.RWMutex
	listeners []*agents.ChangeListener
}

// Subscribe implements agents.ChangeFeed. The feed is up at once.
func (s *Store) Subscribe(l agents.ChangeListener) (stop func()) {
	p := &l
	s.feed.mu.Lock()
	s.feed.listeners = append(s.feed.listeners, p)
	s.feed.mu.Unlock()
	l.FeedUp()
	return func() {
		s.feed.mu.Lock()
		defer s.feed.mu.Unlock()
		s.feed.listeners = slices.DeleteFunc(s.feed.listeners, func(x *agents.ChangeListener) bool { return x == p })
	}
}

// changed announces that the agent changed.
func (s *Store) changed(agentID string) {
	s.feed.mu.RLock()
	defer s.feed.mu.RUnlock()
	for _, l := range s.feed.listeners {
		(*l).AgentChanged(agentID)
	}
}
