package httpapi

import "net/http"

type authLevel int

const (
	authPublic authLevel = iota // no key
	authAgent                   // X-API-Key (or Bearer) of an active agent
	authAdmin                   // X-Admin-Key
)

// route is one endpoint. request and response describe the body types,
// kept next to the handler so documentation cannot drift.
type route struct {
	method   string
	path     string
	auth     authLevel
	summary  string
	request  *requestType // nil: no body
	response any
	status   int // success status
	// altStatus, when set, is a second success status with the same body
	// (register-wallet answers 200 when it rotates a key instead of 201).
	altStatus int
	// toolBody marks routes whose body carries tool arguments: they take
	// Options.MaxBodyBytes; every other body is capped at smallBodyBytes.
	toolBody bool
	handle   func(w http.ResponseWriter, r *http.Request) error
}

// routeTable lists every endpoint of the API, in one place.
func (a *API) routeTable() []route {
	rs := []route{
		{method: "POST", path: "/v1/agents/register", auth: authPublic,
			summary: "Register an agent (send X-API-Key of an agent of an existing owner to add another agent to it)",
			request: bodyOf[RegisterRequest](), response: RegisterResponse{}, status: http.StatusCreated, handle: a.register},
		{method: "GET", path: "/v1/agents/me", auth: authAgent, summary: "The calling agent's record",
			response: AgentResponse{}, status: http.StatusOK, handle: a.me},
		{method: "GET", path: "/v1/agents/list", auth: authAgent, summary: "All agents of the caller's owner",
			response: AgentListResponse{}, status: http.StatusOK, handle: a.listAgents},
		{method: "PUT", path: "/v1/agents/mode", auth: authAgent, summary: "Change the caller's mode",
			request: bodyOf[ModeRequest](), response: AgentResponse{}, status: http.StatusOK, handle: a.setMode},
		{method: "POST", path: "/v1/agents/rotate-key", auth: authAgent, summary: "Issue a new API key; the old one stops working",
			response: RotateKeyResponse{}, status: http.StatusOK, handle: a.rotateKey},
		{method: "GET", path: "/v1/agents/limits", auth: authAgent, summary: "The caller's spend caps",
			response: LimitsResponse{}, status: http.StatusOK, handle: a.getLimits},
		{method: "PUT", path: "/v1/agents/limits", auth: authAgent, summary: "Set the caller's spend caps and allowed operations",
			request: bodyOf[LimitsRequest](), response: LimitsResponse{}, status: http.StatusOK, handle: a.setLimits},
		{method: "PUT", path: "/v1/admin/agents/{agent_id}/mode", auth: authAdmin, summary: "Change any agent's mode (admin)",
			request: bodyOf[ModeRequest](), response: AgentResponse{}, status: http.StatusOK, handle: a.adminSetMode},

		{method: "GET", path: "/v1/billing/pricing", auth: authPublic, summary: "Price table",
			response: PricingResponse{}, status: http.StatusOK, handle: a.pricing},
		{method: "GET", path: "/v1/billing/balance", auth: authAgent, summary: "The caller's balance",
			response: BalanceResponse{}, status: http.StatusOK, handle: a.balance},
		{method: "POST", path: "/v1/billing/deposit", auth: authAgent, summary: "Generic deposit: direct_transfer/x402 with on_chain_tx_hash verified as USDC (real funds); without it, sandbox self-credit of test funds when enabled",
			request: bodyOf[DepositRequest](), response: BalanceResponse{}, status: http.StatusOK, handle: a.deposit},
		{method: "GET", path: "/v1/billing/transactions", auth: authAgent, summary: "Ledger, newest first (?limit=1..1000, default 100)",
			response: TransactionsResponse{}, status: http.StatusOK, handle: a.transactions},
		{method: "GET", path: "/v1/billing/usage", auth: authAgent, summary: "Usage totals by operation",
			response: UsageResponse{}, status: http.StatusOK, handle: a.usage},

		{method: "GET", path: "/v1/openapi.json", auth: authPublic, summary: "This OpenAPI 3.1 document",
			response: map[string]any{}, status: http.StatusOK, handle: a.serveOpenAPI},
		{method: "GET", path: "/v1/tools/list", auth: authPublic, summary: "The tool catalog",
			response: ToolListResponse{}, status: http.StatusOK, handle: a.toolsList},
		{method: "POST", path: "/v1/tools/call", auth: authAgent, summary: "Call any tool (metered)",
			request: bodyOf[ToolCallRequest](), response: ToolCallResponse{}, status: http.StatusOK, toolBody: true, handle: a.toolsCall},

		{method: "POST", path: "/v1/agents/register-wallet", auth: authPublic,
			summary: "Sign in with a Solana wallet: a signed challenge <service>-auth:<wallet>:<unix seconds> creates a sandbox agent (201), or gives the wallet's agent a new key (200)",
			request: bodyOf[RegisterWalletRequest](), response: RegisterWalletResponse{}, status: http.StatusCreated,
			altStatus: http.StatusOK, handle: a.registerWallet},
		{method: "POST", path: "/v1/agents/link-wallet", auth: authAgent,
			summary: "Link a Solana wallet to the caller (signed <service>-link:<agent_id>:<wallet>:<unix seconds>); presale buyers pay 80 % from then on",
			request: bodyOf[LinkWalletRequest](), response: LinkWalletResponse{}, status: http.StatusOK, handle: a.linkWallet},
	}
	rs = append(rs, a.depositRoutes()...)
	for _, s := range shortcuts {
		rs = append(rs, route{method: "POST", path: s.path, auth: authAgent, summary: s.summary,
			response: map[string]any{}, status: http.StatusOK, toolBody: true, handle: a.shortcut(s)})
	}
	return rs
}
