package httpapi

import (
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi/portal"
)

// PortalOptions configure the web portal at /portal/.
type PortalOptions struct {
	// Disabled leaves /portal/ unserved.
	Disabled bool
	// TopUp is what the portal's "how to top up" page shows; its deposit
	// endpoints default to the API's own.
	TopUp portal.TopUp
	// SecureCookies marks the session cookie Secure behind a
	// TLS-terminating proxy (under TLS it always is).
	SecureCookies bool
}

// mountPortal serves the portal through the API's middleware: request
// ids, access log, panic recovery, the body cap and the per-address rate
// limit; its sign-ins are refused from blocked addresses and count their
// failures as the API's authentications do.
func (a *API) mountPortal() error {
	opts := a.opts.Portal
	if opts.Disabled {
		return nil
	}
	topUp := opts.TopUp
	if len(topUp.Endpoints) == 0 {
		topUp.Endpoints = a.depositEndpoints()
	}
	topUp.SandboxSelfCredit = a.svc.Billing.SandboxSelfCredit()
	cfg := portal.Config{Agents: a.svc.Agents, Owners: a.owners, Billing: a.svc.Billing, Guardian: a.svc.Guardian,
		AdminKey: a.opts.AdminKey, TopUp: topUp, SecureCookies: opts.SecureCookies, Logger: a.opts.Logger,
		Status: func(k toolkit.Kind) int { return statusOf[k] },
		SignInBlocked: func(w http.ResponseWriter, r *http.Request) error {
			return a.blockedAfterFailures(r.Context(), w, guardian.SourceFrom(r.Context()))
		},
		SignInFailed: func(r *http.Request, operator bool) {
			level := authOwner
			if operator {
				level = authAdmin
			}
			a.authFailed(r.Context(), level, guardian.SourceFrom(r.Context()))
		},
		AgentChanged: func(ag agents.Agent, keyRotated bool) {
			if keyRotated {
				a.mcp.CloseAgent(ag.ID)
				return
			}
			a.releaseSessions(ag)
		},
	}
	h, err := portal.New(cfg)
	if err != nil {
		return err
	}
	serve := func(w http.ResponseWriter, r *http.Request) error {
		h.ServeHTTP(w, r)
		return nil
	}
	a.mux.Handle("GET "+portal.AssetsPrefix, a.wrap(route{pattern: "GET " + portal.AssetsPrefix, limit: rateNone, quiet: true, handle: serve}))
	a.mux.Handle(portal.Prefix+"/", a.wrap(route{pattern: portal.Prefix + "/", handle: serve}))
	a.mux.Handle(portal.Prefix, a.wrap(route{pattern: portal.Prefix, handle: serve}))
	return nil
}

// depositEndpoints lists the API's deposit endpoints for the portal.
func (a *API) depositEndpoints() []portal.Endpoint {
	var out []portal.Endpoint
	for _, rt := range a.routes {
		if rt.id == "deposit" || strings.HasPrefix(rt.path, "/v1/billing/deposit-") {
			out = append(out, portal.Endpoint{Method: rt.method, Path: rt.path, Summary: rt.summary})
		}
	}
	return out
}
