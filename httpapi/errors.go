package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/internal/httpbody"
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
// the published service working; code is the error kind in snake_case;
// errors, when a validation found them, lists every violation (at most
// 50), the first of which is detail.
type ErrorBody struct {
	Detail string               `json:"detail"`
	Code   string               `json:"code"`
	Errors []toolkit.FieldError `json:"errors,omitempty" doc:"every violation found (at most 50), in document order; detail is the first"`
}

// codeRequestTimeout is the code of a 408: the request body did not arrive
// within the server's read timeout. It is the HTTP layer's own: no domain
// error kind maps to it.
const codeRequestTimeout = "request_timeout"

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (ErrorBody) Enums() map[string][]string { return map[string][]string{"code": errorCodes()} }

// InsufficientCreditsBody is the body of a 402: the published detail
// ("Insufficient balance. Required: $X, Available: $Y") and the same two
// amounts as decimals.
type InsufficientCreditsBody struct {
	Detail    string         `json:"detail"`
	Code      string         `json:"code"`
	Required  toolkit.Amount `json:"required" doc:"what the call costs, in USDC credits"`
	Available toolkit.Amount `json:"available" doc:"what the paying balance holds, in USDC credits"`
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (InsufficientCreditsBody) Enums() map[string][]string {
	return map[string][]string{"code": {toolkit.InsufficientCredits.String()}}
}

// errorCodes are the codes of every error kind and codeRequestTimeout.
func errorCodes() []string {
	codes := make([]string, 0, len(statusOf)+1)
	for k := range statusOf {
		codes = append(codes, k.String())
	}
	codes = append(codes, codeRequestTimeout)
	sort.Strings(codes)
	return codes
}

// writeError writes err as an ErrorBody with its status. Causes are
// logged by the access log, never sent.
func writeError(w http.ResponseWriter, err error) int {
	kind := toolkit.KindOf(err)
	status, ok := statusOf[kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if errors.Is(err, httpbody.ErrReadTimeout) {
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusRequestTimeout, ErrorBody{Detail: toolkit.MessageOf(err), Code: codeRequestTimeout})
		return http.StatusRequestTimeout
	}
	if kind == toolkit.Unauthenticated {
		w.Header().Set("WWW-Authenticate", `APIKey header="X-API-Key"`)
	}
	if d := toolkit.RetryAfterOf(err); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((d+time.Second-1)/time.Second)))
	}
	var short *billing.Shortfall
	if kind == toolkit.InsufficientCredits && errors.As(err, &short) {
		writeJSON(w, status, InsufficientCreditsBody{Detail: toolkit.MessageOf(err), Code: kind.String(),
			Required: short.Required, Available: short.Available})
		return status
	}
	writeJSON(w, status, ErrorBody{Detail: toolkit.MessageOf(err), Code: kind.String(), Errors: toolkit.FieldsOf(err)})
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
