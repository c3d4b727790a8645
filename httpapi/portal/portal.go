// Package portal is the toolkit's web portal at /portal/: owners sign in
// with their owner key to see and manage their agents, limits and spend;
// operators sign in with the admin key to watch the platform.
//
// Pages are rendered on the server with html/template; the few scripts
// (charts through the vendored uPlot, see assets/vendor/uplot/NOTICE.md)
// are embedded files, so the portal works offline and its
// Content-Security-Policy allows no inline script. Every write is a form
// POST carrying the session's CSRF token.
//
// Sessions live in the memory of the process (a signed-in browser must
// come back to the same instance, or sign in again): the cookie holds a
// random token whose SHA-256 names the session; sessions expire after 12
// hours without a request and end on sign-out. An owner session keeps the
// keyed hash of the owner key it was opened with and checks it against
// the store on every request, so rotating the owner key (here, through
// the owner API or by an admin) ends every session opened with the old key
// on every instance.
package portal

import (
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/owners"
	"github.com/agentfinance/toolkit/guardian"
)

// Prefix is where the portal is served.
const Prefix = "/portal"

// Config configures the portal. Agents, Owners and Billing are required.
type Config struct {
	Agents  *agents.Service
	Owners  *owners.Service
	Billing *billing.Service
	// Guardian feeds the operator view (status, events, metrics); nil
	// leaves those pages empty.
	Guardian *guardian.Service
	// AdminKey opens the operator view; empty disables operator sign-in.
	AdminKey string
	// TopUp is what the "how to top up" page shows.
	TopUp TopUp
	// Status maps an error kind to its HTTP status (httpapi's table).
	Status func(toolkit.Kind) int
	// SignInBlocked refuses a sign-in from an address blocked after too
	// many failed authentications (nil: never blocked).
	SignInBlocked func(w http.ResponseWriter, r *http.Request) error
	// SignInFailed counts a failed sign-in against its address's limit
	// and records it as a security event (nil: not counted).
	SignInFailed func(r *http.Request, operator bool)
	// AgentChanged is told after an owner changed an agent's mode or key,
	// so the API can end the agent's MCP sessions (nil: nothing).
	AgentChanged func(agent agents.Agent, keyRotated bool)
	// SecureCookies marks the session cookie Secure even without TLS on
	// the connection (behind a TLS-terminating proxy). Under TLS it is
	// always Secure.
	SecureCookies bool
	// Now is the clock of session expiry (default time.Now).
	Now func() time.Time
	// Logger receives failures of pages (default slog.Default()).
	Logger *slog.Logger
}

// TopUp describes how agents add funds on this server.
type TopUp struct {
	// Treasury is the wallet receiving on-chain deposits; empty when this
	// server verifies none.
	Treasury string
	// Tokens are the accepted tokens and their mints.
	Tokens []Token
	// Endpoints are the deposit endpoints (method and path, and what each
	// credits).
	Endpoints []Endpoint
	// SandboxSelfCredit says whether sandbox agents may credit themselves
	// test funds through POST /v1/billing/deposit.
	SandboxSelfCredit bool
}

// Token is an accepted deposit token.
type Token struct{ Ticker, Mint string }

// Endpoint is an API endpoint shown on a page.
type Endpoint struct{ Method, Path, Summary string }

// SessionIdle is how long a session lives without a request.
const SessionIdle = 12 * time.Hour

//go:embed assets
var assets embed.FS

// Handler serves the portal under Prefix. It is an http.Handler.
type Handler struct {
	cfg      Config
	sessions *sessionStore
	pages    *pages
	mux      *http.ServeMux
	static   http.Handler
}

// New returns the portal.
func New(cfg Config) (*Handler, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Status == nil {
		cfg.Status = func(toolkit.Kind) int { return http.StatusBadRequest }
	}
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	h := &Handler{cfg: cfg, sessions: newSessionStore(cfg.Now, SessionIdle, maxSessions), pages: p, mux: http.NewServeMux(),
		static: http.StripPrefix(Prefix+"/assets/", http.FileServerFS(sub))}
	h.routes()
	return h, nil
}

// AssetsPrefix is the path of the embedded assets; they need no session.
const AssetsPrefix = Prefix + "/assets/"

// ServeHTTP implements http.Handler: security headers on every answer,
// then the route.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.mux.ServeHTTP(w, r)
}

// contentSecurityPolicy allows only the portal's own files: no inline
// script, no inline style, no other origin, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// serveAsset serves an embedded file, cached for a day.
func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=86400")
	h.static.ServeHTTP(w, r)
}
