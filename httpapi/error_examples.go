package httpapi

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/httpapi/openapi"
)

// errorExamples are the documented examples of each error status: the
// code and detail the server really answers in a common case, so a
// reader of /docs/ sees what a client will get. A test provokes each one
// and compares (TestDocumentedErrorExamplesAreRealAnswers); an example
// it cannot provoke fails it.
func errorExamples() map[toolkit.Kind][]openapi.Example {
	body := func(name, summary string, k toolkit.Kind, detail string) openapi.Example {
		return openapi.Example{Name: name, Summary: summary, Value: ErrorBody{Detail: detail, Code: k.String()}}
	}
	return map[toolkit.Kind][]openapi.Example{
		toolkit.Invalid: {
			body("missing_field", "A required member is absent", toolkit.Invalid, "Missing required field: tool_name"),
			body("missing_argument", "A tool's required argument is absent", toolkit.Invalid, "Missing required argument: direction"),
		},
		toolkit.Unauthenticated: {
			body("api_key", "No X-API-Key (or Bearer), or an unknown one", toolkit.Unauthenticated, "Invalid or missing API key"),
			body("admin_key", "An admin endpoint without the operator's X-Admin-Key", toolkit.Unauthenticated, "Invalid or missing X-Admin-Key"),
		},
		toolkit.InsufficientCredits: {{Name: "balance_short", Summary: "A priced call from an empty balance: nothing ran, nothing was charged",
			Value: InsufficientCreditsBody{Detail: "Insufficient balance. Required: $0.003, Available: $0.00",
				Code: toolkit.InsufficientCredits.String(), Required: toolkit.MustParseAmount("0.003"), Available: toolkit.MustParseAmount("0.00")}}},
		toolkit.Forbidden: {
			body("operation_not_allowed", "The agent's allowed_operations exclude the call", toolkit.Forbidden,
				"Operation position_sizing is not in this agent's allowed operations"),
			body("suspended", "The agent is suspended", toolkit.Forbidden, "Agent is suspended: API calls are not permitted"),
		},
		toolkit.NotFound: {
			body("ticket", "No ticket of the caller with this reference", toolkit.NotFound, "ticket_id: no ticket SR-000142"),
			body("route", "No route for the method and path", toolkit.NotFound, "No route for GET /v1/agents/profile"),
		},
		toolkit.Conflict: {body("idempotency_key_reused", "An Idempotency-Key sent again with another body", toolkit.Conflict,
			`Idempotency-Key "order-1042" was already used with a different request body`)},
		toolkit.TooLarge: {body("body", "A body over the route's limit (64 KiB here)", toolkit.TooLarge,
			"Request body too large: at most 65536 bytes")},
		toolkit.RateLimited: {body("per_key", "The API key's bucket is empty: retry after Retry-After seconds", toolkit.RateLimited,
			"Rate limit exceeded for this API key; retry after the time in Retry-After")},
		toolkit.Unavailable: {body("chain_not_configured", "The server has no Solana RPC endpoint for on-chain deposits", toolkit.Unavailable,
			"on-chain deposits are not set up on this server: it has no Solana RPC endpoint configured; the operator must configure it, nothing was recorded")},
		toolkit.Internal: {body("internal", "An unexpected failure: the cause is in the server's log under the X-Request-Id", toolkit.Internal,
			"internal error")},
	}
}
