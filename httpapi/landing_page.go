package httpapi

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit/httpapi/platform"
)

// GET / answers a browser with a short landing page (the links of the
// index, the MCP set-up and a first request) and any other client with
// the JSON index.

// wantsHTML reports whether the client prefers an HTML page (a browser's
// Accept lists text/html; API clients send application/json or */*).
func wantsHTML(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mediaType, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(mediaType), "text/html") {
			return true
		}
	}
	return false
}

// landingData fills the landing page.
type landingData struct {
	Base    string
	Version string
	Tools   int
}

var landingPage = template.Must(template.New("landing").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Finance Toolkit</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f23; }
code, pre { font: 14px/1.4 ui-monospace, monospace; background: #f3f4f6; border-radius: 4px; }
pre { padding: .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
li { margin: .25rem 0; }
</style>
</head>
<body>
<h1>Agent Finance Toolkit</h1>
<p>Metered finance calculations for autonomous agents: {{.Tools}} tools for position sizing, risk, performance evaluation,
market structure and derivatives, paid per call from a prepaid balance in USDC credits (1 credit = 1 USD). It never places orders.</p>
<h2>Start here</h2>
<ul>
<li><a href="docs/">API reference</a>: every operation, interactive, rendered from the live OpenAPI document</li>
<li><a href="v1/openapi.json">OpenAPI 3.1 document</a>, for client generators</li>
<li><a href="llms.txt">llms.txt</a>: the API in one page for language models</li>
<li><a href=".well-known/agent.json">Agent card</a> and <a href=".well-known/mcp/server-card.json">MCP server card</a></li>
<li><a href="docs/tools/">Tool reference</a>: one page per tool (arguments, answer, price, formulas), and the <a href="v1/tools/list">tool catalog</a> and <a href="v1/billing/pricing">prices</a> as JSON</li>
</ul>
<h2>First call</h2>
<pre>curl -s -X POST {{.Base}}/v1/agents/register -H 'Content-Type: application/json' \
  -d '{"owner_id":"my-org","agent_name":"RiskBot","agent_type":"trading"}'</pre>
<p>The answer carries your <code>api_key</code>, shown once: send it as <code>X-API-Key</code> on every other call.</p>
<h2>MCP</h2>
<p>Streamable HTTP at <code>{{.Base}}/mcp</code>, SSE at <code>{{.Base}}/mcp/sse</code>, with the header <code>X-API-Key</code>. For example, with Claude Code:</p>
<pre>claude mcp add --transport http agent-finance {{.Base}}/mcp --header "X-API-Key: $KEY"</pre>
<p>Version {{.Version}}.</p>
</body>
</html>
`))

// landing writes the landing page for base.
func (a *API) landing(w http.ResponseWriter, base string) error {
	var b bytes.Buffer
	if err := landingPage.Execute(&b, landingData{Base: base, Version: platform.Version(), Tools: len(a.svc.Catalog.Tools())}); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b.Bytes())
	return nil
}
