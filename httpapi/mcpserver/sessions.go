package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession is one legacy SSE session (each has its own *mcp.Server,
// bound to the agent that opened it).
type mcpSession struct {
	agentID string
	server  *mcp.Server
	created time.Time
	// cancel ends the session's stream.
	cancel context.CancelFunc
}

// live reports whether the session still has a connection, or is too new
// to have one yet.
func (s *mcpSession) live(now time.Time) bool {
	return now.Sub(s.created) < sessionGrace || s.connected()
}

// connected reports whether the SDK holds a session on the server.
func (s *mcpSession) connected() bool {
	for range s.server.Sessions() {
		return true
	}
	return false
}

// close ends the session.
func (s *mcpSession) close() {
	if s.cancel != nil {
		s.cancel()
	}
	for ss := range s.server.Sessions() {
		_ = ss.Close()
	}
}

// sessionGrace is how long a new session may take to connect before it
// counts as gone.
const sessionGrace = 30 * time.Second

// sessionRegistry tracks the SSE sessions of each agent, so that an agent
// holds at most a bounded number, and all of them are released at once
// when its key is rotated or it is suspended or terminated.
type sessionRegistry struct {
	mu       sync.Mutex
	byAgent  map[string][]*mcpSession
	perAgent int
	now      func() time.Time
}

func newSessionRegistry(perAgent int) *sessionRegistry {
	return &sessionRegistry{byAgent: map[string][]*mcpSession{}, perAgent: perAgent, now: time.Now}
}

// open registers a new session of agentID for server, dropping the
// agent's sessions that have ended. An agent at its cap is refused
// (RateLimited) without registering anything.
func (r *sessionRegistry) open(agentID string, server *mcp.Server, cancel context.CancelFunc) (*mcpSession, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	kept := r.byAgent[agentID][:0]
	for _, s := range r.byAgent[agentID] {
		if s.live(now) {
			kept = append(kept, s)
		}
	}
	if len(kept) >= r.perAgent {
		r.byAgent[agentID] = kept
		return nil, &toolkit.Error{Kind: toolkit.RateLimited, RetryAfter: time.Minute,
			Msg: "This agent already holds its maximum of open MCP sessions; close one (DELETE /mcp) or let it idle out"}
	}
	s := &mcpSession{agentID: agentID, server: server, created: now, cancel: cancel}
	r.byAgent[agentID] = append(kept, s)
	return s, nil
}

// remove forgets a session that ended.
func (r *sessionRegistry) remove(s *mcpSession) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.byAgent[s.agentID]
	for i, x := range list {
		if x == s {
			r.byAgent[s.agentID] = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(r.byAgent[s.agentID]) == 0 {
		delete(r.byAgent, s.agentID)
	}
}

// closeAgent ends every session of agentID (key rotated, suspended or
// terminated); it reports how many it closed.
func (r *sessionRegistry) closeAgent(agentID string) int {
	r.mu.Lock()
	list := r.byAgent[agentID]
	delete(r.byAgent, agentID)
	r.mu.Unlock()
	for _, s := range list {
		s.close()
	}
	return len(list)
}

// closeAll ends every session (the server shuts down); it reports how
// many it closed.
func (r *sessionRegistry) closeAll() int {
	r.mu.Lock()
	all := r.byAgent
	r.byAgent = map[string][]*mcpSession{}
	r.mu.Unlock()
	n := 0
	for _, list := range all {
		for _, s := range list {
			s.close()
			n++
		}
	}
	return n
}

// idleWatch ends ctx's SSE stream when the session has had no message for
// idle; it returns when ctx ends. touch reports activity.
type idleWatch struct {
	mu   sync.Mutex
	last time.Time
}

func (w *idleWatch) touch(now time.Time) {
	w.mu.Lock()
	w.last = now
	w.mu.Unlock()
}

func (w *idleWatch) idleSince() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// watch cancels the stream after idle without activity. It runs on the
// stream's own request goroutine's behalf and ends with ctx.
func (w *idleWatch) watch(ctx context.Context, cancel context.CancelFunc, idle time.Duration, now func() time.Time) {
	defer func() { _ = recover() }() // a watcher must never take the process down
	tick := time.NewTicker(max(idle/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if now().Sub(w.idleSince()) >= idle {
				cancel()
				return
			}
		}
	}
}
