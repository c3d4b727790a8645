package mcpserver

import (
	"time"

	"github.com/agentfinance/toolkit"
)

// A legacy SSE stream is a GET that lasts as long as its session: it
// gets a comment line every Config.KeepAlive, and CloseStreams ends every
// stream when the server shuts down (http.Server.Shutdown waits for
// every request to end, and a stream would not).

// DefaultKeepAlive is how often a legacy SSE stream gets a keep-alive
// comment by default: under the 30 to 60 seconds after which common
// proxies and load balancers drop an idle connection.
const DefaultKeepAlive = 25 * time.Second

// keepAliveComment is the SSE comment written on a stream; an SSE client
// ignores a line starting with a colon.
var keepAliveComment = []byte(": keep-alive\n\n")

// errShuttingDown refuses a stream opened once CloseStreams has run.
var errShuttingDown = &toolkit.Error{Kind: toolkit.Unavailable, RetryAfter: 5 * time.Second,
	Msg: "The server is shutting down; reconnect to another instance or retry shortly"}

// keepAlive writes a keep-alive comment on rec's stream every interval
// (never when interval < 0), once the SDK has begun the stream. The
// function it returns stops it and returns once it has stopped, so that
// nothing is written after the handler returns.
func keepAlive(rec *sessionRecorder, interval time.Duration) (stop func()) {
	if interval < 0 {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		defer func() { _ = recover() }() // a keep-alive must never take the process down
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				rec.comment()
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// comment writes the keep-alive comment and flushes it, unless the SDK
// has not begun the stream (its headers are not written yet).
func (s *sessionRecorder) comment() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.wrote {
		return
	}
	if _, err := s.ResponseWriter.Write(keepAliveComment); err == nil {
		s.flush()
	}
}

// CloseStreams ends every legacy SSE stream and refuses new ones
// (Unavailable), and reports how many it ended: register it with
// http.Server.RegisterOnShutdown (httpapi.API.CloseStreams does), so that
// Shutdown is not held by streams until its deadline. Streamable HTTP
// holds no stream: its requests finish as usual. Calling it again ends
// nothing more.
func (h *Handler) CloseStreams() int {
	h.closed.Store(true)
	return h.sessions.closeAll()
}
