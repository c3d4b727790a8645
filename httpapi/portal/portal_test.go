package portal_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPortalPagesAreLockedDown(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	b := s.browser()
	status, h, body := b.get("/portal/")
	require.Equal(t, http.StatusOK, status)
	csp := h.Get("Content-Security-Policy")
	assert.Contains(t, csp, "script-src 'self'")
	assert.NotContains(t, csp, "unsafe-inline", "no inline script is ever allowed")
	assert.Contains(t, csp, "frame-ancestors 'none'")
	assert.Contains(t, body, `name="owner_key"`)
	assert.NotRegexp(t, `<script>|<script [^>]*>[^<]+</script>`, strings.ReplaceAll(body, `type="application/json"`, ""), "no inline script")

	status, h, body = b.get("/portal/assets/vendor/uplot/uPlot.iife.min.js")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, h.Get("Content-Type"), "javascript")
	assert.Contains(t, body, "uPlot", "the chart library is embedded, not fetched from a CDN")

	status, _, body = b.get("/portal/agents")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, body, "Please sign in")
}

func TestOwnerSignsInManagesAndSignsOut(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	ids, keys, ownerKey := s.owner("acme")
	b := s.browser()

	status, _, body := b.post("/portal/session", url.Values{"owner_key": {keys[0]}})
	assert.Equal(t, http.StatusUnauthorized, status, "an agent key does not open the portal")
	assert.Contains(t, body, "not a current owner key")

	status, h, _ := b.post("/portal/session", url.Values{"owner_key": {ownerKey}})
	require.Equal(t, http.StatusSeeOther, status)
	assert.Equal(t, "/portal/agents", h.Get("Location"))
	cookie := h.Get("Set-Cookie")
	for _, attr := range []string{"HttpOnly", "SameSite=Strict", "Path=/portal"} {
		assert.Contains(t, cookie, attr)
	}
	assert.NotContains(t, cookie, "Secure", "plain HTTP here: Secure only under TLS")

	status, _, body = b.get("/portal/agents")
	require.Equal(t, http.StatusOK, status, body)
	for _, want := range []string{ids[0], ids[1], "Alpha sizer", "Beta risk", "$5.00", "$2.50"} {
		assert.Contains(t, body, want)
	}
	status, _, body = b.get("/portal/agents?mode=suspended")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "0 of 2 agents", "the filter applies")

	token := b.csrf("/portal/agents/" + ids[0])
	status, _, _ = b.post("/portal/agents/"+ids[0]+"/limits", url.Values{"daily_limit": {"0.004"}})
	assert.Equal(t, http.StatusForbidden, status, "a write without the CSRF token is refused")
	status, _, _ = b.post("/portal/agents/"+ids[0]+"/limits", url.Values{"daily_limit": {"0.004"}, "csrf": {token}})
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, http.StatusOK, s.call(keys[0]))
	assert.Equal(t, http.StatusForbidden, s.call(keys[0]), "the limit set in the portal is the API's")

	status, _, _ = b.post("/portal/agents/"+ids[1]+"/mode", url.Values{"mode": {"suspended"}, "csrf": {token}})
	require.Equal(t, http.StatusSeeOther, status)
	assert.Equal(t, http.StatusForbidden, s.call(keys[1]))
	status, _, _ = b.post("/portal/agents/"+ids[1]+"/mode", url.Values{"mode": {"sandbox"}, "csrf": {token}})
	require.Equal(t, http.StatusSeeOther, status)
	assert.Equal(t, http.StatusOK, s.call(keys[1]))

	status, _, body = b.post("/portal/agents/"+ids[1]+"/rotate-key", url.Values{"csrf": {token}})
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "only this once")
	assert.Equal(t, http.StatusUnauthorized, s.call(keys[1]), "the old agent key stops working")

	status, h, body = b.get("/portal/agents/" + ids[0] + "/transactions.csv")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "text/csv; charset=utf-8", h.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(body, "agent_id,tx_id,created_at"), body)

	status, _, _ = b.post("/portal/signout", url.Values{"csrf": {token}})
	require.Equal(t, http.StatusSeeOther, status)
	status, _, _ = b.get("/portal/agents")
	assert.Equal(t, http.StatusUnauthorized, status, "signed out")
}

func TestOtherOwnersAgentsAreNotFound(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	ids, _, _ := s.owner("first")
	_, _, otherKey := s.owner("second")
	b := s.browser()
	status, _, _ := b.post("/portal/session", url.Values{"owner_key": {otherKey}})
	require.Equal(t, http.StatusSeeOther, status)
	status, _, _ = b.get("/portal/agents/" + ids[0])
	assert.Equal(t, http.StatusNotFound, status)
	token := b.csrf("/portal/agents")
	status, _, _ = b.post("/portal/agents/"+ids[0]+"/mode", url.Values{"mode": {"suspended"}, "csrf": {token}})
	assert.Equal(t, http.StatusSeeOther, status, "refused with a message on the page")
	s2, _ := s.api("GET", "/v1/owner/agents", map[string]string{"X-Owner-Key": otherKey}, "")
	assert.Equal(t, http.StatusOK, s2)
}

func TestOwnerKeyRotationEndsSessions(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	_, _, ownerKey := s.owner("rotating")
	b, other := s.browser(), s.browser()
	for _, br := range []*browser{b, other} {
		status, _, _ := br.post("/portal/session", url.Values{"owner_key": {ownerKey}})
		require.Equal(t, http.StatusSeeOther, status)
	}
	status, m := s.api("POST", "/v1/owner/rotate-key", map[string]string{"X-Owner-Key": ownerKey}, "")
	require.Equal(t, http.StatusOK, status, m)
	status, _, body := other.get("/portal/agents")
	assert.Equal(t, http.StatusUnauthorized, status, "a rotation through the API ends portal sessions")
	assert.Contains(t, body, "replaced")

	b2 := s.browser()
	status, _, _ = b2.post("/portal/session", url.Values{"owner_key": {m["owner_key"].(string)}})
	require.Equal(t, http.StatusSeeOther, status)
	token := b2.csrf("/portal/agents")
	status, _, body = b2.post("/portal/owner/rotate-key", url.Values{"csrf": {token}})
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "aft_owner_")
	status, _, _ = b2.get("/portal/agents")
	assert.Equal(t, http.StatusUnauthorized, status, "rotating in the portal signs out")
}

func TestOperatorView(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	ids, _, _ := s.owner("watched")
	b := s.browser()
	status, _, _ := b.post("/portal/session", url.Values{"admin_key": {"wrong"}})
	assert.Equal(t, http.StatusUnauthorized, status)
	status, h, _ := b.post("/portal/session", url.Values{"admin_key": {adminKey}})
	require.Equal(t, http.StatusSeeOther, status)
	assert.Equal(t, "/portal/admin", h.Get("Location"))
	for path, want := range map[string]string{
		"/portal/admin": "Latency per minute", "/portal/admin/events": `<table id="events">`,
		"/portal/admin/owners": "watched", "/portal/admin/owners/watched": ids[1],
	} {
		status, _, body := b.get(path)
		require.Equal(t, http.StatusOK, status, path)
		assert.Contains(t, body, want, path)
	}
	status, _, _ = b.get("/portal/agents")
	assert.Equal(t, http.StatusForbidden, status, "an operator session is not an owner's")
	token := b.csrf("/portal/admin/owners/watched")
	status, _, _ = b.post("/portal/admin/agents/"+ids[0]+"/ceilings",
		url.Values{"daily_limit": {"1.50"}, "owner_id": {"watched"}, "csrf": {token}})
	require.Equal(t, http.StatusSeeOther, status)
	status, _, body := b.get("/portal/admin/owners/watched")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `value="1.50"`, "the ceiling is shown")
	assert.Contains(t, body, "daily $1.50", "and the limit came down to it")
}
