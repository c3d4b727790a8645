package portal

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
)

// request is what a page handler gets: the session and, for owner
// pages, the signed-in owner.
type request struct {
	*http.Request
	token string
	sess  session
	owner agents.Owner
}

// pageFunc is a signed-in page: it gets the session (and the owner).
type pageFunc func(w http.ResponseWriter, r request) error

// routes registers every page.
func (h *Handler) routes() {
	m := h.mux
	m.HandleFunc("GET "+AssetsPrefix, h.serveAsset)
	m.HandleFunc("GET "+Prefix+"/{$}", h.home)
	m.HandleFunc("GET "+Prefix, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, Prefix+"/", http.StatusMovedPermanently)
	})
	m.HandleFunc("POST "+Prefix+"/session", h.signIn)
	m.HandleFunc("POST "+Prefix+"/signout", h.signOut)
	for pattern, fn := range map[string]pageFunc{
		"GET /agents":                             h.agentsPage,
		"GET /agents/{agent_id}":                  h.agentPage,
		"GET /agents/{agent_id}/transactions.csv": h.agentCSV,
		"POST /agents/{agent_id}/limits":          h.setLimits,
		"POST /agents/{agent_id}/mode":            h.setMode,
		"POST /agents/{agent_id}/rotate-key":      h.rotateAgentKey,
		"GET /spend":                              h.spendPage,
		"GET /topup":                              h.topUpPage,
		"POST /owner/rotate-key":                  h.rotateOwnerKey,
		"GET /transactions.csv":                   h.ownerCSV,
	} {
		method, path, _ := strings.Cut(pattern, " ")
		m.Handle(method+" "+Prefix+path, h.signedIn(false, fn))
	}
	for pattern, fn := range map[string]pageFunc{
		"GET /admin":        h.operatorPage,
		"GET /admin/events": h.eventsPage,
		"POST /admin/events/{event_id}/acknowledge": h.acknowledge,
		"GET /admin/owners":                         h.ownersPage,
		"GET /admin/owners/{owner_id}":              h.ownerPage,
		"POST /admin/owners/{owner_id}/key":         h.issueOwnerKey,
		"POST /admin/agents/{agent_id}/ceilings":    h.setCeilings,
	} {
		method, path, _ := strings.Cut(pattern, " ")
		m.Handle(method+" "+Prefix+path, h.signedIn(true, fn))
	}
	m.HandleFunc(Prefix+"/", func(w http.ResponseWriter, r *http.Request) {
		h.renderError(w, r, http.StatusNotFound, "No page here.")
	})
}

// signedIn admits a request with a live session of the right kind (an
// operator page needs an operator session, an owner page an owner
// session whose key is still the owner's), checks the CSRF token of every
// write, and runs fn. Without a session it sends the browser to sign in.
func (h *Handler) signedIn(operator bool, fn pageFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		token := cookieToken(r)
		sess, ok := h.sessions.get(token)
		if !ok {
			h.renderSignIn(w, r, http.StatusUnauthorized, "Please sign in.")
			return
		}
		if sess.operator != operator {
			h.renderError(w, r, http.StatusForbidden, "This page belongs to the other view: sign out and sign in with the other key.")
			return
		}
		req := request{Request: r, token: token, sess: sess}
		if !operator {
			o, err := h.cfg.Agents.OwnerByKeyHash(r.Context(), sess.ownerKeyHash)
			if err != nil {
				if toolkit.IsKind(err, toolkit.Unauthenticated) {
					h.sessions.end(token)
					h.renderSignIn(w, r, http.StatusUnauthorized, "Your owner key was replaced: sign in with the new key.")
					return
				}
				h.fail(w, r, err)
				return
			}
			req.owner = o
		}
		if r.Method == http.MethodPost {
			if err := r.ParseForm(); err != nil || !sameOrigin(r) || !sess.validCSRF(r.PostForm.Get("csrf")) {
				h.renderError(w, r, http.StatusForbidden, "This form is stale or came from another site: reload the page and try again.")
				return
			}
		}
		if err := fn(w, req); err != nil {
			h.fail(w, r, err)
		}
	})
}

// sameOrigin refuses a write whose Origin (or, without one, Sec-Fetch-Site)
// says another site sent it.
func sameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		return err == nil && u.Host == r.Host
	}
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "" || site == "same-origin" || site == "none"
}

// home sends a signed-in browser to its first page, others to sign in.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	sess, ok := h.sessions.get(cookieToken(r))
	switch {
	case ok && sess.operator:
		http.Redirect(w, r, Prefix+"/admin", http.StatusSeeOther)
	case ok:
		http.Redirect(w, r, Prefix+"/agents", http.StatusSeeOther)
	default:
		h.renderSignIn(w, r, http.StatusOK, "")
	}
}

// signIn opens a session with an owner key (form field owner_key) or the
// admin key (admin_key). A wrong key counts against the address's
// failed-authentication limit and is a security event.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if h.cfg.SignInBlocked != nil {
		if err := h.cfg.SignInBlocked(w, r); err != nil {
			h.renderSignIn(w, r, h.cfg.Status(toolkit.KindOf(err)), toolkit.MessageOf(err))
			return
		}
	}
	if err := r.ParseForm(); err != nil || !sameOrigin(r) {
		h.renderSignIn(w, r, http.StatusBadRequest, "The sign-in form could not be read; reload the page and try again.")
		return
	}
	s, err := h.authenticate(r.Context(), r.PostForm.Get("owner_key"), r.PostForm.Get("admin_key"))
	if err != nil {
		if toolkit.IsKind(err, toolkit.Unauthenticated) && h.cfg.SignInFailed != nil {
			h.cfg.SignInFailed(r, r.PostForm.Get("admin_key") != "")
		}
		h.renderSignIn(w, r, h.cfg.Status(toolkit.KindOf(err)), toolkit.MessageOf(err))
		return
	}
	h.setCookie(w, r, h.sessions.create(s), 0)
	target := Prefix + "/agents"
	if s.operator {
		target = Prefix + "/admin"
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// authenticate checks a sign-in's key.
func (h *Handler) authenticate(ctx context.Context, ownerKey, adminKey string) (*session, error) {
	switch {
	case ownerKey != "" && adminKey != "":
		return nil, toolkit.Errorf(toolkit.Invalid, "Send either an owner key or the admin key, not both.")
	case adminKey != "":
		if h.cfg.AdminKey == "" || !constantTimeEqual(adminKey, h.cfg.AdminKey) {
			return nil, toolkit.Errorf(toolkit.Unauthenticated, "That is not the admin key.")
		}
		return &session{operator: true}, nil
	}
	o, err := h.cfg.Agents.AuthenticateOwner(ctx, strings.TrimSpace(ownerKey))
	if err != nil {
		if toolkit.IsKind(err, toolkit.Unauthenticated) {
			err = toolkit.Errorf(toolkit.Unauthenticated, "That is not a current owner key. Owner keys start with %s; agent API keys do not open the portal.",
				h.cfg.Agents.OwnerKeyPrefix())
		}
		return nil, err
	}
	hash, err := h.cfg.Agents.OwnerKeyHash(strings.TrimSpace(ownerKey))
	if err != nil {
		return nil, err
	}
	return &session{ownerID: o.ID, ownerKeyHash: hash}, nil
}

// signOut ends the session on the server and clears the cookie.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	token := cookieToken(r)
	sess, ok := h.sessions.get(token)
	if ok {
		if err := r.ParseForm(); err != nil || !sess.validCSRF(r.PostForm.Get("csrf")) {
			h.renderError(w, r, http.StatusForbidden, "This form is stale: reload the page and try again.")
			return
		}
		h.sessions.end(token)
	}
	h.setCookie(w, r, "", -1)
	http.Redirect(w, r, Prefix+"/", http.StatusSeeOther)
}

// fail renders a domain error as a page with its status.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := h.cfg.Status(toolkit.KindOf(err))
	msg := toolkit.MessageOf(err)
	if status >= 500 {
		h.cfg.Logger.ErrorContext(r.Context(), "portal page failed", "path", r.URL.Path, "error", err.Error())
		var te *toolkit.Error
		if !errors.As(err, &te) || te.Msg == "" {
			msg = "Something went wrong on our side; please try again."
		}
	}
	h.renderError(w, r, status, msg)
}

// back sends the browser to path with a one-time message.
func (h *Handler) back(w http.ResponseWriter, r request, path string, f flash) error {
	h.sessions.setFlash(r.token, f)
	http.Redirect(w, r.Request, path, http.StatusSeeOther)
	return nil
}

// backOrFail shows a domain refusal (a 4xx) as a message on the page the
// form came from; anything else fails the request.
func (h *Handler) backOrFail(w http.ResponseWriter, r request, path string, err error, ok string) error {
	if err == nil {
		return h.back(w, r, path, flash{Text: ok})
	}
	if s := h.cfg.Status(toolkit.KindOf(err)); s >= 400 && s < 500 {
		return h.back(w, r, path, flash{Text: toolkit.MessageOf(err), Error: true})
	}
	return err
}
