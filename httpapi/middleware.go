package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/internal/httpbody"
)

// statusClientClosed is logged for requests whose client disconnected
// before the answer (nginx's 499); it is never sent.
const statusClientClosed = 499

type ctxKey int

const (
	agentKey ctxKey = iota
	ownerKey
)

// agentFrom returns the authenticated agent of the request.
func agentFrom(r *http.Request) agents.Agent {
	a, _ := r.Context().Value(agentKey).(agents.Agent)
	return a
}

// ownerFrom returns the authenticated owner of the request.
func ownerFrom(r *http.Request) agents.Owner {
	o, _ := r.Context().Value(ownerKey).(agents.Owner)
	return o
}

// apiKey returns the key from X-API-Key or "Authorization: Bearer".
func apiKey(r *http.Request) string {
	if k := r.Header.Get("X-API-Key"); k != "" {
		return k
	}
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// statusRecorder captures the status for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the status.
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200.
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush lets streaming handlers flush through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap exposes the underlying writer to http.ResponseController.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// requestID returns a sane client-supplied X-Request-Id or a new one.
func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 64 && !strings.ContainsFunc(id, func(c rune) bool {
		return c < 0x21 || c > 0x7e
	}) {
		return id
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// wrap builds the middleware chain of one route: request id, client
// address, access log, metrics and request statistics, panic recovery,
// rate limits, authentication, query check, the body's cap and its share
// of the in-flight body budget, then the handler.
func (a *API) wrap(rt route) http.Handler {
	class := classOf(rt)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r)
		w.Header().Set("X-Request-Id", id)
		network := clientNetwork(a.clientAddr(r))
		r = r.WithContext(guardian.WithSource(r.Context(), network))
		rec := &statusRecorder{ResponseWriter: w}
		var cause error
		defer func() {
			if p := recover(); p != nil {
				cause = fmt.Errorf("panic: %v", p)
				if rec.status == 0 { // a body already started cannot take a second one
					writeError(rec, toolkit.Errorf(toolkit.Internal, "internal error"))
				} else {
					rec.status = http.StatusInternalServerError // logged as such
				}
			}
			d := time.Since(start)
			if rec.status != statusClientClosed {
				a.opts.Metrics.request(rt.pattern, rec.status, d)
				a.svc.Guardian.ObserveRequest(d, rec.status)
			}
			if !rt.quiet || rec.status >= 500 {
				a.logAccess(r, rec.status, d, id, cause)
			}
		}()
		r, cause = a.admit(rec, r, rt, class, network)
		if cause == nil {
			var release func()
			r, release, cause = a.inflight.admit(rec, r, a.bodyLimit(rt))
			defer release()
		}
		if cause != nil {
			writeError(rec, cause)
			return
		}
		if err := rt.handle(rec, r); err != nil {
			cause = err
			if errors.Is(err, httpbody.ErrReadTimeout) {
				// The read deadline cancelled the request, but the client
				// is still connected: it gets 408, not an empty 200.
				writeError(rec, err)
				return
			}
			if r.Context().Err() != nil {
				// The client went away: nobody reads an answer, and the
				// cause is not an outage (logged as 499, never as a 5xx).
				rec.status = statusClientClosed
				return
			}
			if toolkit.IsKind(err, toolkit.Unauthenticated) { // a key sent to a public route, such as registration
				a.authFailed(r.Context(), rt.auth, network)
			}
			guardian.RecordStorageFault(r.Context(), a.rec, err) // a full or read-only database refused a write
			writeError(rec, err)
		}
	})
}

// bodyLimit is the cap of a route's request body: Options.MaxBodyBytes
// for bodies carrying tool arguments, smallBodyBytes for every other.
func (a *API) bodyLimit(rt route) int64 {
	if rt.toolBody {
		return a.opts.MaxBodyBytes
	}
	return smallBodyBytes
}

// admit runs the checks before the handler: the block of addresses with
// too many failed authentications, the address-based limits,
// authentication, the per-key limit, and the declared query parameters.
func (a *API) admit(w http.ResponseWriter, r *http.Request, rt route, class rateClass, network string) (*http.Request, error) {
	ctx := r.Context()
	if rt.auth != authPublic || apiKey(r) != "" {
		if err := a.blockedAfterFailures(ctx, w, network); err != nil {
			return r, err
		}
	}
	if class != ratePerKey {
		if err := a.take(ctx, w, class, network, ""); err != nil {
			return r, err
		}
	}
	r, err := a.authenticate(r, rt.auth)
	if toolkit.IsKind(err, toolkit.Unauthenticated) {
		a.authFailed(ctx, rt.auth, network)
	}
	if err != nil {
		return r, err
	}
	if class == ratePerKey {
		ag := agentFrom(r)
		if err := a.take(ctx, w, class, ag.ID, ag.ID); err != nil {
			return r, err
		}
	}
	if rt.path == "" { // outside the route table (MCP, documents): no declared parameters
		return r, nil
	}
	return r, checkQuery(r, rt.query) // after authentication: a stranger learns nothing about parameters
}

// authenticate enforces the route's auth level; for agent routes it puts
// the agent in the request context.
func (a *API) authenticate(r *http.Request, level authLevel) (*http.Request, error) {
	switch level {
	case authAgent:
		ag, err := a.svc.Agents.Authenticate(r.Context(), apiKey(r))
		if err != nil {
			return r, err
		}
		return r.WithContext(context.WithValue(r.Context(), agentKey, ag)), nil
	case authOwner:
		o, err := a.svc.Agents.AuthenticateOwner(r.Context(), r.Header.Get("X-Owner-Key"))
		if err != nil {
			return r, err
		}
		return r.WithContext(context.WithValue(r.Context(), ownerKey, o)), nil
	case authAdmin:
		if a.opts.AdminKey == "" {
			return r, toolkit.Errorf(toolkit.Unauthenticated, "Admin endpoints are disabled: no admin key is configured")
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Admin-Key")), []byte(a.opts.AdminKey)) != 1 {
			return r, toolkit.Errorf(toolkit.Unauthenticated, "Invalid or missing X-Admin-Key")
		}
	}
	return r, nil
}

// logAccess writes one line per request: never keys, headers or bodies.
func (a *API) logAccess(r *http.Request, status int, d time.Duration, id string, cause error) {
	attrs := []slog.Attr{
		slog.String("request_id", id), slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", status), slog.Duration("duration", d),
	}
	if ag := agentFrom(r); ag.ID != "" {
		attrs = append(attrs, slog.String("agent_id", ag.ID))
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
		if cause != nil {
			attrs = append(attrs, slog.String("error", cause.Error()))
		}
	}
	a.opts.Logger.LogAttrs(r.Context(), level, "http", attrs...)
}
