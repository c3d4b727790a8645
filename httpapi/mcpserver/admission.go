package mcpserver

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/agentfinance/toolkit/internal/httpbody"
)

// Every MCP POST (streamable HTTP at /mcp and /mcp/sse, and the legacy
// SSE message endpoint ?sessionid=) is read and its envelope checked
// before the SDK sees a byte of it: the SDK decodes params._meta and
// initialize's capabilities into generic maps and answers each message of
// a batch, so a body is bounded by checkEnvelope first and the SDK reads
// only a checked message.

// admit reads a POST's body (within the caller's cap and body budget)
// and checks its JSON-RPC envelope under Config.Envelope. It returns the
// request to hand to the SDK, whose body is the checked message (an
// initialize rewritten to what a session keeps). A refused message is an
// *envelopeError, for refuse to answer; a body that cannot be read is
// httpbody.Read's *toolkit.Error (413, 408, or 503 when the body budget
// is spent) for the caller to write. A request of another method passes
// untouched.
func (h *Handler) admit(r *http.Request) (*http.Request, error) {
	if r.Method != http.MethodPost {
		return r, nil
	}
	body, err := httpbody.Read(r)
	if err != nil {
		return r, err
	}
	env, refused := checkEnvelope(body, h.cfg.Envelope)
	if refused != nil {
		return r, refused
	}
	r = r.WithContext(r.Context()) // a copy: the caller's request keeps its body
	r.Body, r.ContentLength, r.GetBody = io.NopCloser(bytes.NewReader(env.body)), int64(len(env.body)), nil
	return r, nil
}

// refuse answers a message admit refused with its JSON-RPC error object
// and HTTP 400, as the SDK answers a message it cannot take; any other
// error goes back to the caller to write.
func refuse(w http.ResponseWriter, err error) error {
	var e *envelopeError
	if !errors.As(err, &e) {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(e.response())
	return nil
}
