package httpapi

import "net/http"

type authLevel int

const (
	authPublic authLevel = iota // no key
	authAgent                   // X-API-Key (or Bearer) of an active agent
	authAdmin                   // X-Admin-Key
)

// route is one endpoint. request and response are prototypes of the body
// types, kept next to the handler so documentation cannot drift.
type route struct {
	method   string
	path     string
	auth     authLevel
	summary  string
	request  any // nil: no body
	response any
	status   int // success status
	handle   func(w http.ResponseWriter, r *http.Request) error
}

// routeTable lists every endpoint of the API, in one place.
func (a *API) routeTable() []route {
	rs := []route{
		{"POST", "/v1/agents/register", authPublic, "Register an agent (send X-API-Key of an agent of an existing owner to add another agent to it)",
			RegisterRequest{}, RegisterResponse{}, http.StatusCreated, a.register},
		{"GET", "/v1/agents/me", authAgent, "The calling agent's record", nil, AgentResponse{}, http.StatusOK, a.me},
		{"GET", "/v1/agents/list", authAgent, "All agents of the caller's owner", nil, AgentListResponse{}, http.StatusOK, a.listAgents},
		{"PUT", "/v1/agents/mode", authAgent, "Change the caller's mode", ModeRequest{}, AgentResponse{}, http.StatusOK, a.setMode},
		{"POST", "/v1/agents/rotate-key", authAgent, "Issue a new API key; the old one stops working", nil, RotateKeyResponse{}, http.StatusOK, a.rotateKey},
		{"GET", "/v1/agents/limits", authAgent, "The caller's spend caps", nil, LimitsResponse{}, http.StatusOK, a.getLimits},
		{"PUT", "/v1/agents/limits", authAgent, "Set the caller's spend caps and allowed operations", LimitsRequest{}, LimitsResponse{}, http.StatusOK, a.setLimits},
		{"PUT", "/v1/admin/agents/{agent_id}/mode", authAdmin, "Change any agent's mode (admin)", ModeRequest{}, AgentResponse{}, http.StatusOK, a.adminSetMode},

		{"GET", "/v1/billing/pricing", authPublic, "Price table", nil, PricingResponse{}, http.StatusOK, a.pricing},
		{"GET", "/v1/billing/balance", authAgent, "The caller's balance", nil, BalanceResponse{}, http.StatusOK, a.balance},
		{"POST", "/v1/billing/deposit", authAgent, "Generic deposit (verified; sandbox self-credit when enabled)", DepositRequest{}, BalanceResponse{}, http.StatusOK, a.deposit},
		{"GET", "/v1/billing/transactions", authAgent, "Ledger, newest first (?limit=1..1000, default 100)", nil, TransactionsResponse{}, http.StatusOK, a.transactions},
		{"GET", "/v1/billing/usage", authAgent, "Usage totals by operation", nil, UsageResponse{}, http.StatusOK, a.usage},

		{"GET", "/v1/openapi.json", authPublic, "This OpenAPI 3.1 document", nil, map[string]any{}, http.StatusOK, a.serveOpenAPI},
		{"GET", "/v1/tools/list", authPublic, "The tool catalog", nil, ToolListResponse{}, http.StatusOK, a.toolsList},
		{"POST", "/v1/tools/call", authAgent, "Call any tool (metered)", ToolCallRequest{}, ToolCallResponse{}, http.StatusOK, a.toolsCall},
	}
	for _, s := range shortcuts {
		rs = append(rs, route{"POST", s.path, authAgent, s.summary, map[string]any{}, map[string]any{}, http.StatusOK, a.shortcut(s)})
	}
	return rs
}
