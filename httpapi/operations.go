package httpapi

import (
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// Operational endpoints outside /v1 and the route table: liveness,
// readiness and the service index. API.Mount does not register them (an
// embedding program usually has its own); mount them from the API when
// wanted: mux.Handle("GET /healthz", api).
const (
	healthPath = "/healthz"
	readyPath  = "/readyz"
)

// HealthResponse is the body of /healthz and /readyz.
type HealthResponse struct {
	Status string `json:"status"`
	// Detail and Code say what is not ready, as in every error body
	// (readiness only).
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code,omitempty"`
}

// healthz is liveness: the process answers.
func (a *API) healthz(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, HealthResponse{Status: "ok"})
	return nil
}

// readyz is readiness: the store is reachable and migrated. The cause of
// a failure goes to the log, never to the client.
func (a *API) readyz(w http.ResponseWriter, r *http.Request) error {
	if a.svc.Guardian != nil {
		if err := a.svc.Guardian.Ready(r.Context()); err != nil {
			a.opts.Logger.WarnContext(r.Context(), "not ready", "error", err)
			writeJSON(w, http.StatusServiceUnavailable, HealthResponse{Status: "unavailable",
				Detail: "the store is unreachable or not migrated", Code: toolkit.Unavailable.String()})
			return nil
		}
	}
	writeJSON(w, http.StatusOK, HealthResponse{Status: "ready"})
	return nil
}

// IndexResponse is the body of GET /: where everything is.
type IndexResponse struct {
	Name    string            `json:"name"`
	Version string            `json:"version"`
	Links   map[string]string `json:"links"`
}

// index answers GET / with links to the documents and the API: an HTML
// landing page for a browser, JSON for anything else.
func (a *API) index(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	if wantsHTML(r) {
		return a.landing(w, base)
	}
	links := map[string]string{
		"api": base + "/v1", "openapi": base + "/v1/openapi.json", "docs": base + "/docs/", "llms_txt": base + "/llms.txt",
		"agent_card": base + "/.well-known/agent.json", "mcp_server_card": base + "/.well-known/mcp/server-card.json",
		"mcp": base + "/mcp/sse", "tools": base + "/v1/tools/list", "health": base + healthPath, "ready": base + readyPath,
	}
	if a.svc.Guardian != nil {
		links["status"] = base + "/v1/guardian/status"
	}
	writeJSON(w, http.StatusOK, IndexResponse{Name: "Agent Finance Toolkit", Version: platform.Version(), Links: links})
	return nil
}

// probeMethods are the methods checked when a path matches a route under
// another method.
var probeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// unmatched answers a /v1 request no route took: 405 with Allow when the
// path exists under other methods, 404 otherwise.
func (a *API) unmatched(w http.ResponseWriter, r *http.Request) error {
	var allowed []string
	for _, m := range probeMethods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := a.routeMux.Handler(probe); pattern != "" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) == 0 {
		return notFound(w, r)
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, ErrorBody{
		Detail: "Method " + clip(r.Method, 16) + " is not allowed on " + clip(r.URL.Path, 200) + "; allowed: " + strings.Join(allowed, ", "),
		Code:   "method_not_allowed",
	})
	return nil
}

// clip bounds a client-supplied value quoted in a message to n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
