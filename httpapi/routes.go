package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi/openapi"
	"github.com/agentfinance/toolkit/support"
)

// authLevel is who may call a route.
type authLevel = openapi.Auth

const (
	authPublic = openapi.AuthPublic // no key
	authAgent  = openapi.AuthAgent  // X-API-Key (or Bearer) of an active agent
	authAdmin  = openapi.AuthAdmin  // X-Admin-Key
	authOwner  = openapi.AuthOwner  // X-Owner-Key of an owner
)

// route is one endpoint. request and response describe the body types,
// kept next to the handler so documentation cannot drift.
type route struct {
	method string
	path   string
	// id is the operationId in the OpenAPI document: a lowerCamelCase verb
	// phrase ("registerAgent"), stable across versions (generated clients
	// name their methods after it).
	id      string
	auth    authLevel
	summary string
	request *requestType // nil: no body
	// examples, when set, are the route's examples of its body instead of
	// those of the body type (see requestExamples).
	examples []openapi.Example
	response any
	status   int // success status
	// altStatus, when set, is a second success status with the same body
	// (register-wallet answers 200 when it rotates a key instead of 201).
	altStatus int
	// toolBody marks routes whose body carries tool arguments: they take
	// Options.MaxBodyBytes; every other body is capped at smallBodyBytes.
	toolBody bool
	// query declares the route's query parameters: any other, and any
	// parameter given twice, is refused (see checkQuery); the OpenAPI
	// document lists them.
	query []queryParam
	// errors are the error kinds the handler returns beyond those implied
	// by the route (see errorKinds): the document lists exactly these
	// statuses.
	errors []toolkit.Kind
	// limit is the rate class (default: per address for public routes,
	// per key for agent routes, none but failed authentications for
	// admin routes).
	limit rateClass
	// pattern labels the route in metrics ("GET /v1/agents/me"); set by New.
	pattern string
	// quiet routes (health probes) are access-logged only when failing.
	quiet bool
	// csv routes also answer text/csv (Accept: text/csv).
	csv bool
	// tool, when set, makes the route a REST shortcut of that tool (its
	// body the tool's arguments, its answer the tool's result), with the
	// evaluation tier its path fixes.
	tool, tier string
	handle     func(w http.ResponseWriter, r *http.Request) error
}

// routeTable lists every endpoint of the API, in one place.
func (a *API) routeTable() []route {
	const (
		unauthorized = toolkit.Unauthenticated
		forbidden    = toolkit.Forbidden
		notFound     = toolkit.NotFound
		conflict     = toolkit.Conflict
		unavailable  = toolkit.Unavailable
	)
	rs := []route{
		{method: "POST", path: "/v1/agents/register", id: "registerAgent", auth: authPublic,
			summary: "Register an agent (send X-API-Key of an agent of an existing owner to add another agent to it)",
			request: bodyOf[RegisterRequest](), response: RegisterResponse{}, status: http.StatusCreated, limit: rateRegister,
			errors: []toolkit.Kind{unauthorized, forbidden, conflict, unavailable}, handle: a.register},
		{method: "GET", path: "/v1/agents/me", id: "getAgent", auth: authAgent, summary: "The calling agent's record",
			response: AgentResponse{}, status: http.StatusOK, handle: a.me},
		{method: "GET", path: "/v1/agents/list", id: "listAgents", auth: authAgent, summary: "All agents of the caller's owner",
			response: AgentListResponse{}, status: http.StatusOK, handle: a.listAgents},
		{method: "PUT", path: "/v1/agents/mode", id: "setMode", auth: authAgent, summary: "Change the caller's mode",
			request: bodyOf[ModeRequest](), response: AgentResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{conflict}, handle: a.setMode},
		{method: "POST", path: "/v1/agents/rotate-key", id: "rotateApiKey", auth: authAgent, summary: "Issue a new API key; the old one stops working",
			response: RotateKeyResponse{}, status: http.StatusOK, handle: a.rotateKey},
		{method: "GET", path: "/v1/agents/limits", id: "getLimits", auth: authAgent, summary: "The caller's spend caps",
			response: LimitsResponse{}, status: http.StatusOK, handle: a.getLimits},
		{method: "PUT", path: "/v1/agents/limits", id: "setLimits", auth: authAgent,
			summary: "Tighten the caller's spend caps and allowed operations (raising or removing one takes an admin)",
			request: bodyOf[LimitsRequest](), response: LimitsResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{forbidden, unavailable}, handle: a.setLimits},
		{method: "PUT", path: "/v1/admin/agents/{agent_id}/limits", id: "adminSetLimits", auth: authAdmin,
			summary: "Set any agent's spend caps and allowed operations, looser ones included (admin)",
			request: bodyOf[LimitsRequest](), response: LimitsResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{notFound, unavailable}, handle: a.adminSetLimits},
		{method: "PUT", path: "/v1/admin/agents/{agent_id}/mode", id: "adminSetMode", auth: authAdmin, summary: "Change any agent's mode (admin)",
			request: bodyOf[ModeRequest](), response: AgentResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{notFound, conflict, unavailable}, handle: a.adminSetMode},

		{method: "GET", path: "/v1/billing/pricing", id: "getPricing", auth: authPublic, summary: "Price table",
			response: PricingResponse{}, status: http.StatusOK, handle: a.pricing},
		{method: "GET", path: "/v1/billing/balance", id: "getBalance", auth: authAgent, summary: "The caller's balance",
			response: BalanceResponse{}, status: http.StatusOK, handle: a.balance},
		{method: "POST", path: "/v1/billing/deposit", id: "deposit", auth: authAgent,
			summary: "Generic deposit: direct_transfer/x402 with on_chain_tx_hash verified as USDC (real funds); without it, sandbox self-credit of test funds when enabled",
			request: bodyOf[DepositRequest](), response: BalanceResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{notFound, conflict}, handle: a.deposit},
		{method: "GET", path: "/v1/billing/transactions", id: "listTransactions", auth: authAgent,
			summary:  "Ledger, newest first, a page at a time (limit, then next_cursor as cursor while has_more)",
			response: TransactionsResponse{}, status: http.StatusOK,
			query:  []queryParam{limitParam(billing.DefaultTransactionsLimit, billing.MaxTransactionsLimit), cursorParam},
			handle: a.transactions},
		{method: "GET", path: "/v1/billing/usage", id: "getUsage", auth: authAgent, summary: "Usage totals by operation",
			response: UsageResponse{}, status: http.StatusOK, handle: a.usage},

		{method: "GET", path: "/v1/openapi.json", id: "getOpenAPI", auth: authPublic, summary: "This OpenAPI 3.1 document",
			response: map[string]any{}, status: http.StatusOK, errors: []toolkit.Kind{forbidden}, handle: a.serveOpenAPI},
		{method: "GET", path: "/v1/tools/list", id: "listTools", auth: authPublic, summary: "The tool catalog",
			query: []queryParam{formatParam}, response: ToolListResponse{}, status: http.StatusOK, handle: a.toolsList},
		{method: "POST", path: "/v1/tools/call", id: "callTool", auth: authAgent, summary: "Call any tool (metered)",
			request: bodyOf[ToolCallRequest](), response: ToolCallResponse{}, status: http.StatusOK, toolBody: true,
			errors: []toolkit.Kind{notFound}, handle: a.toolsCall},

		{method: "POST", path: "/v1/agents/register-wallet", id: "signInWithWallet", auth: authPublic,
			summary: "Sign in with a Solana wallet: a signed challenge <service>-auth:<wallet>:<unix seconds> creates a sandbox agent (201), or gives the wallet's agent a new key (200)",
			request: bodyOf[RegisterWalletRequest](), response: RegisterWalletResponse{}, status: http.StatusCreated,
			altStatus: http.StatusOK, limit: rateRegisterWallet, errors: []toolkit.Kind{forbidden, conflict, unavailable}, handle: a.registerWallet},
		{method: "POST", path: "/v1/agents/link-wallet", id: "linkSolanaWallet", auth: authAgent,
			summary: "Link a Solana wallet to the caller by a signed message containing the agent_id (recommended: <service>-link:<agent_id>:<wallet>:<unix seconds>); presale buyers pay 80 % from then on",
			request: bodyOf[LinkWalletRequest](), response: LinkWalletResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{conflict}, handle: a.linkWallet},
	}
	rs = append(rs, a.depositRoutes()...)
	rs = append(rs, a.ownerRoutes()...)
	if a.svc.Support != nil {
		rs = append(rs, a.supportRoutes()...)
	}
	if a.svc.Guardian != nil {
		rs = append(rs, a.guardianRoutes()...)
	}
	if a.svc.Workspace != nil {
		rs = append(rs, a.workspaceRoutes()...)
	}
	if a.svc.Brokers != nil {
		rs = append(rs, a.brokerRoutes()...)
	}
	return append(rs, a.shortcutRoutes()...)
}

// guardianRoutes are the health and security endpoints.
func (a *API) guardianRoutes() []route {
	return []route{
		{method: "GET", path: "/v1/guardian/status", id: "getStatus", auth: authPublic,
			summary:  "Platform status: operational, degraded (store slow or unreachable, or many 5xx) or maintenance",
			response: StatusResponse{}, status: http.StatusOK, query: []queryParam{}, handle: a.guardianStatus},
		{method: "POST", path: "/v1/guardian/report", id: "sendReport", auth: authPublic,
			summary: "Report an error, degradation or suspicious activity; verified when sent with the X-API-Key of the agent named",
			request: bodyOf[ReportRequest](), response: ReportResponse{}, status: http.StatusOK, limit: rateReport,
			errors: []toolkit.Kind{toolkit.Unauthenticated, toolkit.Forbidden, toolkit.Unavailable}, handle: a.guardianReport},
		{method: "GET", path: "/v1/guardian/events", id: "adminListEvents", auth: authAdmin,
			summary:  "Security events, newest first (admin); bursts are one event with a count",
			response: EventsResponse{}, status: http.StatusOK,
			query: []queryParam{limitParam(guardian.DefaultEventsLimit, guardian.MaxEventsLimit),
				enumParam("category", "Only events of this category", guardian.Categories), severityParam, cursorParam},
			errors: []toolkit.Kind{toolkit.Unavailable}, handle: a.guardianEvents},
		{method: "GET", path: "/v1/guardian/alerts", id: "adminListAlerts", auth: authAdmin,
			summary:  "Active alerts: critical and emergency events not yet acknowledged (admin)",
			response: AlertsResponse{}, status: http.StatusOK,
			query:  []queryParam{limitParam(guardian.DefaultAlertsLimit, guardian.MaxAlertsLimit), cursorParam},
			errors: []toolkit.Kind{toolkit.Unavailable}, handle: a.guardianAlerts},
		{method: "POST", path: "/v1/guardian/alerts/{event_id}/acknowledge", id: "adminAcknowledgeAlert", auth: authAdmin,
			summary:  "Acknowledge an alert: it leaves the active alerts (admin)",
			response: EventResponse{}, status: http.StatusOK, errors: []toolkit.Kind{toolkit.NotFound, toolkit.Unavailable}, handle: a.guardianAcknowledge},
		{method: "GET", path: "/v1/guardian/metrics", id: "adminGetMetrics", auth: authAdmin,
			summary:  "Uptime, events, error rate, latency percentiles, active agents, tool calls in 24 h (admin)",
			response: MetricsResponse{}, status: http.StatusOK, query: []queryParam{}, errors: []toolkit.Kind{toolkit.Unavailable}, handle: a.guardianMetrics},
		{method: "PUT", path: "/v1/guardian/maintenance", id: "adminSetMaintenance", auth: authAdmin,
			summary: "Switch maintenance on or off for every instance (admin)",
			request: bodyOf[MaintenanceRequest](), response: StatusResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{toolkit.Unavailable}, handle: a.guardianMaintenance},
	}
}

// severityParam accepts the severities in any letter case (the published
// service shows both "critical" and "CRITICAL"), so it has no enum.
var severityParam = textParam("severity", "Only events of this severity: info, warning, critical or emergency, in any letter case", 16)

// supportRoutes are the support desk's endpoints: agents file and read
// their own records; administrators list everything and move tickets.
func (a *API) supportRoutes() []route {
	page := []queryParam{limitParam(support.DefaultListLimit, support.MaxListLimit), cursorParam}
	status := enumParam("status", "Only tickets in this status", support.Statuses)
	agent := textParam("agent_id", "Only this agent's records", support.MaxAgentIDLen)
	kind := enumParam("type", "Only submissions of this type", support.Kinds)
	adminErrors := []toolkit.Kind{toolkit.Unavailable}
	return []route{
		{method: "POST", path: "/v1/support/feedback", id: "sendFeedback", auth: authAgent, summary: "Send feedback (rating 1-5, message, category)",
			request: bodyOf[FeedbackRequest](), response: FeedbackResponse{}, status: http.StatusCreated, handle: a.createFeedback},
		{method: "POST", path: "/v1/support/ticket", id: "openTicket", auth: authAgent, summary: "Open a support ticket (status open; ticket_id like SR-000142)",
			request: bodyOf[TicketRequest](), response: TicketResponse{}, status: http.StatusCreated, handle: a.createTicket},
		{method: "POST", path: "/v1/support/suggestion", id: "suggestFeature", auth: authAgent, summary: "Suggest a feature",
			request: bodyOf[SuggestionRequest](), response: SuggestionResponse{}, status: http.StatusCreated, handle: a.createSuggestion},
		{method: "POST", path: "/v1/support/enterprise", id: "sendEnterpriseInquiry", auth: authAgent, summary: "Send an enterprise inquiry (the answer echoes every field)",
			request: bodyOf[EnterpriseRequest](), response: EnterpriseResponse{}, status: http.StatusCreated, handle: a.createInquiry},
		{method: "POST", path: "/v1/support/bug", id: "reportBug", auth: authAgent, summary: "Report a bug",
			request: bodyOf[BugReportRequest](), response: BugReportResponse{}, status: http.StatusCreated, handle: a.createBugReport},
		{method: "GET", path: "/v1/support/tickets", id: "listTickets", auth: authAgent, summary: "The caller's tickets without descriptions, newest first (?status=, ?limit=1..1000, ?cursor=)",
			query: append([]queryParam{status}, page...), response: TicketListResponse{}, status: http.StatusOK, handle: a.listTickets},
		{method: "GET", path: "/v1/support/ticket/{ticket_id}", id: "getTicket", auth: authAgent, summary: "One of the caller's tickets, with its description",
			query: []queryParam{}, response: TicketResponse{}, status: http.StatusOK, errors: []toolkit.Kind{toolkit.NotFound}, handle: a.getTicket},
		{method: "GET", path: "/v1/admin/support/tickets", id: "adminListTickets", auth: authAdmin, summary: "Every agent's tickets without descriptions, newest first (admin)",
			query: append([]queryParam{status, agent}, page...), response: TicketListResponse{}, status: http.StatusOK, errors: adminErrors, handle: a.adminListTickets},
		{method: "GET", path: "/v1/admin/support/tickets/{ticket_id}", id: "adminGetTicket", auth: authAdmin, summary: "Any ticket, with its description (admin)",
			query: []queryParam{}, response: TicketResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{toolkit.NotFound, toolkit.Unavailable}, handle: a.adminGetTicket},
		{method: "PUT", path: "/v1/admin/support/tickets/{ticket_id}/status", id: "adminSetTicketStatus", auth: authAdmin,
			summary: "Move a ticket: open -> in_progress|resolved|closed, in_progress -> open|resolved|closed, resolved -> open|closed; closed is final (admin)",
			request: bodyOf[TicketStatusRequest](), response: TicketResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{toolkit.NotFound, toolkit.Conflict, toolkit.Unavailable}, handle: a.adminSetTicketStatus},
		{method: "GET", path: "/v1/admin/support/submissions", id: "adminListSubmissions", auth: authAdmin, summary: "Feedback, suggestions, enterprise inquiries and bug reports, newest first (admin)",
			query: append([]queryParam{kind, agent}, page...), response: SubmissionListResponse{}, status: http.StatusOK, errors: adminErrors, handle: a.adminListSubmissions},
	}
}
