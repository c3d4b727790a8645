package httpapi

import (
	"fmt"
	"net/http"
	"strings"
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
	Skills       []CardSkill    `json:"skills"`
}

// CardAuth says how to authenticate.
type CardAuth struct {
	Type   string   `json:"type"`
	Header string   `json:"header"`
	Also   []string `json:"also_accepted"`
	Obtain string   `json:"obtain"`
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
		Obtain: "POST " + base + "/v1/agents/register"}
}

func (a *API) agentCard(w http.ResponseWriter, r *http.Request) error {
	base, err := a.baseURL(r)
	if err != nil {
		return err
	}
	card := AgentCard{
		Name:        "Agent Finance Toolkit",
		Description: "Metered finance calculations for autonomous agents: sizing, risk, evaluation, Monte Carlo, Kelly, regime and patterns, options and futures; a private workspace per agent (sealed memories, trade journal, bias analysis, read-only broker). Never places orders.",
		URL:         base, Version: Version,
		Capabilities: map[string]any{"rest": base + "/v1", "mcp": base + "/mcp/sse", "openapi": base + "/v1/openapi.json", "streaming": false,
			"health": base + healthPath},
		Auth: a.cardAuth(base),
	}
	if a.svc.Guardian != nil {
		card.Capabilities["status"] = base + "/v1/guardian/status"
	}
	if support := a.supportEndpoints(); len(support) > 0 {
		card.Capabilities["support"] = support
	}
	for _, t := range a.svc.Catalog.Tools() {
		card.Skills = append(card.Skills, CardSkill{ID: t.Name, Name: t.Name, Description: t.Description,
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
	card := ServerCard{Name: mcpServerName, Version: Version, Auth: a.cardAuth(base), Tools: a.svc.Catalog.Names(),
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
	fmt.Fprintf(&b, "Base URL: %s\nOpenAPI: %s/v1/openapi.json\nMCP: %s/mcp/sse (SSE) and %s/mcp (streamable HTTP)\n\n", base, base, base, base)
	fmt.Fprintf(&b, "## Auth\n\nRegister with POST /v1/agents/register (public) to get an api_key, shown once.\n")
	fmt.Fprintf(&b, "Send it as `X-API-Key: <api_key>` (or `Authorization: Bearer <api_key>`). Admin endpoints use `X-Admin-Key`.\n\n")
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
	fmt.Fprintf(&b, "\n## Tools\n\nCall with POST /v1/tools/call {\"tool_name\": \"...\", \"arguments\": {...}}. Numbers are decimal strings.\n\n")
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
