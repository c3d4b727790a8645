// Package toolkit holds the shared vocabulary of the Agent Finance Toolkit,
// the words every other package speaks. It imports nothing of ours.
//
// # Money
//
// [Amount] is an exact decimal (apd underneath) for money, prices and
// quantities. It never uses float64: 0.1 + 0.2 is 0.3. It parses strictly
// ([ParseAmount]: decimal strings or JSON numbers, exponent form accepted,
// no NaN, Infinity, hex or leading +), writes plain decimal strings (never
// exponent form) and converts to the stores' int64 micro-USD only when
// exact ([Amount.Micros]). Arithmetic never panics; rounding happens only
// where a business rule names a [Rounding].
//
// # Statistics
//
// [Float] and [Floats] carry float64 statistics out of the finance
// packages as decimal strings of at most 12 significant digits, never in
// exponent form; NaN and Infinity never reach a client.
//
// # Errors
//
// [Error] is the one error type: a [Kind] (Invalid, Unauthenticated,
// InsufficientCredits, Forbidden, NotFound, Conflict, TooLarge,
// RateLimited, Unavailable, Internal), the operation, a message safe to
// show clients (naming the field and the rule) and a cause for logs. Only
// the HTTP layer turns a Kind into a status (httpapi's errors.go).
//
//	err := toolkit.Errorf(toolkit.Invalid, "risk_percent: must be in (0, 1]")
//	toolkit.KindOf(err) // toolkit.Invalid -> HTTP 400 {"detail": ..., "code": "invalid"}
//
// # Lists and ids
//
// Every list pages the same way: a [PageInput] (limit and opaque cursor)
// in, a [Page] (has_more, next_cursor) out, a [Keyset] per list over
// [Cursor] (time, id). [NewID] makes every record id (prefix and 16
// random lower-case alphanumerics, uniformly drawn).
//
// # Where to go next
//
// The toolkit is used three ways: import the pure finance tools (package
// finance and its subpackages; finance/catalog lists all 45), assemble the
// services and mount the /v1 API, MCP and documents on any net/http mux
// (httpapi/platform, then httpapi), or run the reference server
// (examples/server). The README has the walk-through; docs/ the guides.
package toolkit
