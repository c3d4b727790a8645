package mcpserver

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// idempotencyKeyMeta is the name of the idempotency key in a tools/call
// request's _meta: the MCP form of the Idempotency-Key header, with the
// same replay semantics (same key and arguments: the stored answer, not
// charged again; same key, other arguments: conflict).
const idempotencyKeyMeta = "idempotency_key"

// idempotencyKey reads the idempotency key of a tools/call's _meta. Like
// the header it is 1 to billing.MaxIdempotencyKeyLen bytes, of printable
// UTF-8 text. Another spelling of the name (such as "Idempotency-Key") is
// refused, naming the one accepted, rather than ignored: its sender would
// believe its retries safe.
func idempotencyKey(meta mcp.Meta) (string, error) {
	for name := range meta {
		if name != idempotencyKeyMeta && strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name)) == "idempotencykey" {
			return "", toolkit.Errorf(toolkit.Invalid, "_meta.%s: unknown key; the idempotency key is _meta.%s", name, idempotencyKeyMeta)
		}
	}
	v, ok := meta[idempotencyKeyMeta]
	if !ok {
		return "", nil
	}
	key, ok := v.(string)
	if !ok || key == "" || len(key) > billing.MaxIdempotencyKeyLen || !utf8.ValidString(key) ||
		strings.IndexFunc(key, unicode.IsControl) >= 0 {
		return "", toolkit.Errorf(toolkit.Invalid, "_meta.%s: must be a string of 1 to %d bytes of printable text",
			idempotencyKeyMeta, billing.MaxIdempotencyKeyLen)
	}
	return key, nil
}
