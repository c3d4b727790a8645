package toolkit

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error. The HTTP layer maps each Kind to exactly one
// status code; domain code never deals in status codes.
type Kind uint8

// The kinds of error. The zero value is Internal so that an unclassified
// error is never mistaken for a client mistake.
const (
	Internal            Kind = iota // 500: a bug or an unexpected failure
	Invalid                         // 400: the request breaks a validation rule
	Unauthenticated                 // 401: API key missing or wrong
	InsufficientCredits             // 402: balance too low for the operation
	Forbidden                       // 403: authenticated but not allowed
	NotFound                        // 404: the thing asked for does not exist
	Conflict                        // 409: clashes with the current state
	TooLarge                        // 413: request or input too large
	RateLimited                     // 429: too many requests
	Unavailable                     // 503: a dependency is down; retry later
)

var kindCodes = [...]string{
	Internal:            "internal",
	Invalid:             "invalid",
	Unauthenticated:     "unauthenticated",
	InsufficientCredits: "insufficient_credits",
	Forbidden:           "forbidden",
	NotFound:            "not_found",
	Conflict:            "conflict",
	TooLarge:            "too_large",
	RateLimited:         "rate_limited",
	Unavailable:         "unavailable",
}

// String returns the snake_case code of the kind, as sent to clients in the
// "code" field of an error body.
func (k Kind) String() string {
	if int(k) < len(kindCodes) {
		return kindCodes[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is the single error type of the toolkit.
//
// Msg is safe to show to clients; Err (the cause) is for logs only.
type Error struct {
	Kind Kind   // classification, mapped to an HTTP status at the edge
	Op   string // the operation that failed, e.g. "agents.Register"
	Msg  string // human message for the client, naming the field and rule
	Err  error  // underlying cause, never shown to clients
	// RetryAfter, when set on a RateLimited or Unavailable error, is how
	// long the client should wait before trying again (Retry-After).
	RetryAfter time.Duration
	// Fields, when set, lists every violation a validation found (at most
	// MaxFieldErrors), in document order; Msg is the first one's message.
	Fields []FieldError
}

// MaxFieldErrors bounds Error.Fields: a validation stops collecting
// violations past it.
const MaxFieldErrors = 50

// FieldError is one violation found by a validation: the field (a path
// such as "bars[3].close"; empty for the whole document), the rule it
// breaks (a JSON Schema keyword such as "required", "minimum" or
// "maxItems", or "unknown", "duplicate", "type", "syntax", "limit", "text",
// "invalid") and a message naming both, as Msg would.
type FieldError struct {
	Field   string `json:"field" doc:"path of the offending value, such as bars[3].close; empty for the whole document"`
	Rule    string `json:"rule" doc:"the rule broken: a JSON Schema keyword (required, minimum, maxItems, pattern, enum, ...) or unknown, duplicate, type, syntax, limit, text, invalid"`
	Message string `json:"message" doc:"what is wrong, naming the field and the rule"`
}

// Error implements error. It includes the cause, so it is for logs.
func (e *Error) Error() string {
	s := e.Kind.String()
	if e.Op != "" {
		s = e.Op + ": " + s
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind with a formatted client message.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// WithOp records op on err: the first *Error in err's chain is returned as
// a copy with Op set when it has none, keeping its kind and message; any
// other error becomes an Internal *Error for op with err as its cause.
// WithOp(op, nil) is nil.
func WithOp(op string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Op == "" {
			c := *e
			c.Op = op
			return &c
		}
		return err
	}
	return &Error{Kind: Internal, Op: op, Err: err}
}

// AsInternal classifies err as internal whatever its kind: an Internal
// *Error for op with err as its cause (for logs). Use it where a
// dependency's kind must not reach the client, such as a NotFound that
// can only mean a bug. AsInternal(op, nil) is nil.
func AsInternal(op string, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: Internal, Op: op, Err: err}
}

// RetryAfterOf returns the RetryAfter of the first *Error in err's chain
// (0 when none is set).
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// FieldsOf lists the violations a validation error carries, for an error
// answer's errors list: the Fields of the first *Error in err's chain (at
// most MaxFieldErrors), never those of an Internal error.
func FieldsOf(err error) []FieldError {
	var e *Error
	if !errors.As(err, &e) || e.Kind == Internal {
		return nil
	}
	return e.Fields[:min(len(e.Fields), MaxFieldErrors)]
}

// KindOf returns the Kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// IsKind reports whether err's Kind is k.
func IsKind(err error, k Kind) bool { return err != nil && KindOf(err) == k }

// MessageOf returns the client-safe message of err: the first non-empty Msg
// in its chain of *Error values. Internal errors never reveal their cause.
func MessageOf(err error) string {
	kind := KindOf(err)
	if kind == Internal {
		return "internal error"
	}
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			break
		}
		if e.Msg != "" {
			return e.Msg
		}
		err = e.Err
	}
	return kind.String()
}
