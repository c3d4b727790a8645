package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
)

// statusOf is the one Kind -> HTTP status table.
var statusOf = map[toolkit.Kind]int{
	toolkit.Internal:            http.StatusInternalServerError,
	toolkit.Invalid:             http.StatusBadRequest,
	toolkit.Unauthenticated:     http.StatusUnauthorized,
	toolkit.InsufficientCredits: http.StatusPaymentRequired,
	toolkit.Forbidden:           http.StatusForbidden,
	toolkit.NotFound:            http.StatusNotFound,
	toolkit.Conflict:            http.StatusConflict,
	toolkit.TooLarge:            http.StatusRequestEntityTooLarge,
	toolkit.RateLimited:         http.StatusTooManyRequests,
	toolkit.Unavailable:         http.StatusServiceUnavailable,
}

// ErrorBody is the body of every error response. detail keeps clients of
// the published service working; code is the error kind in snake_case.
type ErrorBody struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

// writeError writes err as an ErrorBody with its status. Causes are
// logged by the access log, never sent.
func writeError(w http.ResponseWriter, err error) int {
	kind := toolkit.KindOf(err)
	status, ok := statusOf[kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if kind == toolkit.Unauthenticated {
		w.Header().Set("WWW-Authenticate", `APIKey header="X-API-Key"`)
	}
	if d := toolkit.RetryAfterOf(err); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((d+time.Second-1)/time.Second)))
	}
	writeJSON(w, status, ErrorBody{Detail: toolkit.MessageOf(err), Code: kind.String()})
	return status
}

// writeJSON writes v as a JSON body with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(ErrorBody{Detail: "internal error", Code: toolkit.Internal.String()})
		status = http.StatusInternalServerError
	}
	writeRawJSON(w, status, b)
}

// writeRawJSON writes an already-encoded JSON body.
func writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}

func notFound(w http.ResponseWriter, r *http.Request) error {
	return toolkit.Errorf(toolkit.NotFound, "No route for %s %s", r.Method, r.URL.Path)
}
