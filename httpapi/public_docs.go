package httpapi

import (
	"cmp"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/httpapi/mcpserver"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// publicPaths are the public machine-readable documents outside /v1.
var publicPaths = []string{"/.well-known/agent.json", "/.well-known/mcp/server-card.json", "/llms.txt"}

// AgentCard is the body of GET /.well-known/agent.json.
type AgentCard struct {
	Name         string         `json:"name"`
	Description  string         `json:"description"`
	URL          string         `json:"url"`
	Version      string         `json:"version"`
	Capabilities map[string]any `json:"capabilities"`
	Auth         CardAuth       `json:"auth"`
	Funding      CardFunding    `json:"funding"`
	Skills       []CardSkill    `json:"skills"`
}

// CardFunding says how an agent pays: test money in sandbox mode, real
// money (verified on-chain deposits) in live mode.
type CardFunding struct {
	Currency string   `json:"currency"`
	Sandbox  string   `json:"sandbox"`
	Live     string   `json:"live"`
	Deposits []string `json:"deposits"`
	Presale  string   `json:"presale"`
}

// CardAuth says how to authenticate.
type CardAuth struct {
	Type   string   `json:"type"`
	Header string   `json:"header"`
	Also   []string `json:"also_accepted"`
	Obtain string   `json:"obtain"`
	// ObtainByWallet is the wallet sign-in: a signed challenge gives a key.
	ObtainByWallet string `json:"obtain_by_wallet"`
}

// CardSkill is one tool as an agent-card skill.
type CardSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Price       string   `json:"price"`
}

// ServerCard is the body of GET /.well-known/mcp/server-card.json.
type ServerCard struct {
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	Transports []CardTransport `json:"transports"`
	Auth       CardAuth        `json:"auth"`
	ToolCount  int             `json:"tool_count"`
	Tools      []string        `json:"tools"`
}

// CardTransport is one MCP transport.
type CardTransport struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

func (a *API) cardAuth(base string) CardAuth {
	return CardAuth{Type: "apiKey", Header: "X-API-Key", Also: []string{"Authorization: Bearer <api_key>"},
		Obtain: "POST " + base + "/v1/agents/register",
		ObtainByWallet: "POST " + base + "/v1/agents/register-wallet with a Solana wallet's Ed25519 signature of \"" +
			a.svc.Agents.Wallets().Service() + "-auth:<wallet_address>:<unix seconds>\""}
}

// funding describes the money model for the agent card.
func (a *API) funding(base string) CardFunding {
	f := CardFunding{Currency: billing.Currency,
		Sandbox: "calls are paid from test funds (POST " + base + "/v1/billing/deposit without on_chain_tx_hash self-credits them when the server allows)",
		Live:    "calls are paid from real funds only: verified on-chain deposits to the treasury",
		Presale: "agents whose linked wallet (POST " + base + "/v1/agents/link-wallet) bought in the presale pay 80 % of list prices"}
	for _, rt := range a.routes {
		if strings.HasPrefix(rt.path, "/v1/billing/deposit") {
			f.Deposits = append(f.Deposits, rt.method+" "+base+rt.path)
		}
	}
	return f
}

func (a *API) agentCard(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	card := AgentCard{
		Name:        "Agent Finance Toolkit",
		Description: "Metered finance calculations for autonomous agents: sizing, risk, evaluation, Monte Carlo, Kelly, regime and patterns, options and futures; a private workspace per agent (sealed memories, trade journal, bias analysis, read-only broker). Never places orders.",
		URL:         base, Version: platform.Version(),
		Capabilities: map[string]any{"rest": base + "/v1", "mcp": base + "/mcp/sse", "openapi": base + "/v1/openapi.json", "streaming": false,
			"health": base + healthPath},
		Auth:    a.cardAuth(base),
		Funding: a.funding(base),
	}
	if a.svc.Guardian != nil {
		card.Capabilities["status"] = base + "/v1/guardian/status"
	}
	if support := a.supportEndpoints(); len(support) > 0 {
		card.Capabilities["support"] = support
	}
	for _, t := range a.svc.Catalog.Tools() {
		card.Skills = append(card.Skills, CardSkill{ID: t.Name, Name: cmp.Or(t.Title, t.Name), Description: t.Description,
			Tags: []string{t.Category}, Price: a.svc.Billing.Price(t.Operation, false).String()})
	}
	writeJSON(w, http.StatusOK, card)
	return nil
}

func (a *API) serverCard(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	card := ServerCard{Name: mcpserver.Name, Version: platform.Version(), Auth: a.cardAuth(base), Tools: a.svc.Catalog.Names(),
		Transports: []CardTransport{{Type: "sse", URL: base + "/mcp/sse"}, {Type: "streamable-http", URL: base + "/mcp"}}}
	card.ToolCount = len(card.Tools)
	writeJSON(w, http.StatusOK, card)
	return nil
}

func (a *API) llmsTxt(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Agent Finance Toolkit\n\n> Metered finance calculations for autonomous agents. Never places orders.\n\n")
	fmt.Fprintf(&b, "Base URL: %s\nOpenAPI: %s/v1/openapi.json\nDocs (for humans): %s/docs/\nTool reference (markdown, one page per tool): %s/docs/tools/\nMCP: %s/mcp/sse (SSE) and %s/mcp (streamable HTTP)\n\n", base, base, base, base, base, base)
	fmt.Fprintf(&b, "## Auth\n\nRegister with POST /v1/agents/register (public) to get an api_key, shown once.\n")
	fmt.Fprintf(&b, "Or sign in with a Solana wallet: POST /v1/agents/register-wallet {\"wallet_address\", \"signature\", \"chain\": \"solana\"} where signature is the base58 Ed25519 signature (wallet signMessage) of `%s-auth:<wallet_address>:<unix seconds>` signed within 5 minutes of server time (the server finds the second; add \"message\", the exact text, to save it the search). Each signed challenge is accepted once. The first sign-in creates a sandbox agent; later ones rotate its key.\n",
		a.svc.Agents.Wallets().Service())
	fmt.Fprintf(&b, "Send it as `X-API-Key: <api_key>` (or `Authorization: Bearer <api_key>`). Admin endpoints use `X-Admin-Key`.\n\n")
	fmt.Fprintf(&b, "## Money\n\n`balance` is what your calls are paid from now (`pays_from`): `sandbox_balance` (test funds, self-credited in sandbox mode; they pay sandbox calls only) in sandbox mode, `real_balance` (verified deposits; they pay live calls only) otherwise. Switching modes never converts one into the other.\n")
	fmt.Fprintf(&b, "Real funds: send tokens to the treasury on Solana, then POST the transaction signature {\"tx_signature\"} to /v1/billing/deposit-usdc, -usdt, -pyusd (1:1), -sol (market price) or -native / -%s (%s per token, %s for presale buyers); SOL and native credits are rounded down to the micro-USD. A deposit is bound to the agent by a sending wallet registered or linked to it, or by a memo that is exactly the agent_id. Each signature credits once (409 on replay); 503 with Retry-After means try again later (not finalized yet, or the node is unavailable).\n",
		strings.ToLower(string(a.svc.Billing.NativeToken())), a.svc.Billing.NativeRates().Rate, a.svc.Billing.NativeRates().PresaleRate)
	fmt.Fprintf(&b, "Presale buyers: POST /v1/agents/link-wallet with a signed message containing the agent_id (e.g. `Link wallet to agent <agent_id>`; recommended `%s-link:<agent_id>:<wallet_address>:<unix seconds>`); prices are then 80 %% of list.\n\n",
		a.svc.Agents.Wallets().Service())
	fmt.Fprintf(&b, "## Endpoints\n\n")
	for _, rt := range a.routes {
		auth := map[authLevel]string{authPublic: "public", authAgent: "key", authAdmin: "admin"}[rt.auth]
		fmt.Fprintf(&b, "- %s %s (%s): %s\n", rt.method, rt.path, auth, rt.summary)
	}
	if a.svc.Support != nil {
		fmt.Fprintf(&b, "\n## Support\n\nFile feedback, tickets, suggestions, enterprise inquiries and bug reports with the POST /v1/support/* endpoints (201). ")
		fmt.Fprintf(&b, "A ticket gets a ticket_id like SR-000142 and starts open; an administrator moves it: open -> in_progress|resolved|closed, ")
		fmt.Fprintf(&b, "in_progress -> open|resolved|closed, resolved -> open|closed; closed is final (other moves: 409). ")
		fmt.Fprintf(&b, "Lists page with ?limit= and ?cursor= (next_cursor of the previous answer). Agents see only their own tickets; ")
		fmt.Fprintf(&b, "everything written in free text is encrypted at rest with the agent's own key.\n")
	}
	fmt.Fprintf(&b, "\n## Tools\n\nCall with POST /v1/tools/call {\"tool_name\": \"...\", \"arguments\": {...}}. Numbers are decimal strings (JSON numbers work too); null for an optional argument means absent.\n")
	fmt.Fprintf(&b, "Tool lists ready for an agent host's request: GET /v1/tools/list?format=anthropic, openai (strict), gemini or mcp.\n\n")
	for _, t := range a.svc.Catalog.Tools() {
		fmt.Fprintf(&b, "- %s ($%s): %s\n", t.Name, a.svc.Billing.Price(t.Operation, false), t.Description)
	}
	fmt.Fprintf(&b, "\n## Errors\n\nBody: {\"detail\": \"...\", \"code\": \"...\"}. 400 invalid (detail names the field), 401 bad key, ")
	fmt.Fprintf(&b, "402 insufficient balance (nothing ran, nothing charged), 403 suspended/not allowed, 404 unknown, 405 wrong method (see Allow), ")
	fmt.Fprintf(&b, "409 conflict, 413 too large, 429 rate limited (wait Retry-After seconds).\n\n")
	fmt.Fprintf(&b, "## Rate limits\n\nToken buckets per API key, per client address on public routes (registration and reports stricter), ")
	fmt.Fprintf(&b, "and per address for failed authentications (too many bad keys block the address for a while). ")
	fmt.Fprintf(&b, "Limited answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until the bucket is full); a 429 carries Retry-After.\n\n")
	fmt.Fprintf(&b, "## Operations\n\nGET %s/healthz (liveness), GET %s/readyz (store reachable and migrated, else 503)", base, base)
	if a.svc.Guardian != nil {
		fmt.Fprintf(&b, ", GET %s/v1/guardian/status (operational, degraded or maintenance; public). ", base)
		fmt.Fprintf(&b, "Report a wrong result, slowness or suspicious activity with POST /v1/guardian/report; send your X-API-Key to have it verified")
	}
	fmt.Fprintf(&b, ".\n\n")
	fmt.Fprintf(&b, "## Example\n\n```\ncurl -X POST %s/v1/tools/call -H 'X-API-Key: <api_key>' \\\n  -d '{\"tool_name\":\"calculate_position_size\",\"arguments\":{\"equity\":\"100000\",\"entry_price\":\"185.50\",\"stop_price\":\"180.00\",\"direction\":\"long\"}}'\n```\n", base)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
	return nil
}

// supportEndpoints lists the support endpoints an agent may call, as
// "METHOD path", for the agent card.
func (a *API) supportEndpoints() []string {
	var out []string
	for _, rt := range a.routes {
		if rt.auth == authAgent && strings.HasPrefix(rt.path, "/v1/support/") {
			out = append(out, rt.method+" "+rt.path)
		}
	}
	return out
}
