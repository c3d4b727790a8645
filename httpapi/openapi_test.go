package httpapi_test

import (
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAPIDocument checks the document's header and that every /v1
// route of the API is in it. With TOOLKIT_OPENAPI_OUT set it also writes
// the document there (.ci/run lints it with @redocly/cli).
func TestOpenAPIDocument(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	status, doc := e.do("GET", "/v1/openapi.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "3.1.0", doc["openapi"])
	assert.Equal(t, "1.0.0", doc["info"].(map[string]any)["version"])
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/v1/agents/register", "/v1/agents/me", "/v1/agents/list", "/v1/agents/mode", "/v1/agents/rotate-key",
		"/v1/agents/limits", "/v1/admin/agents/{agent_id}/mode", "/v1/billing/pricing", "/v1/billing/balance", "/v1/billing/deposit",
		"/v1/billing/transactions", "/v1/billing/usage", "/v1/tools/list", "/v1/tools/call", "/v1/openapi.json",
		"/v1/sizing/calculate", "/v1/risk/check", "/v1/eval/basic", "/v1/eval/full", "/v1/eval/comprehensive",
		"/v1/compound/pre-trade-gate", "/v1/compound/assess-system",
		"/v1/support/feedback", "/v1/support/ticket", "/v1/support/suggestion", "/v1/support/enterprise", "/v1/support/bug",
		"/v1/support/tickets", "/v1/support/ticket/{ticket_id}", "/v1/admin/support/tickets", "/v1/admin/support/tickets/{ticket_id}",
		"/v1/admin/support/tickets/{ticket_id}/status", "/v1/admin/support/submissions",
		"/v1/guardian/status", "/v1/guardian/report", "/v1/guardian/events", "/v1/guardian/alerts",
		"/v1/guardian/alerts/{event_id}/acknowledge", "/v1/guardian/metrics", "/v1/guardian/maintenance"} {
		assert.Contains(t, paths, p)
	}
	events := paths["/v1/guardian/events"].(map[string]any)["get"].(map[string]any)
	var params []string
	for _, p := range events["parameters"].([]any) {
		params = append(params, p.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"limit", "category", "severity", "cursor"}, params, "declared query parameters are published")
	assert.Contains(t, events["responses"], "429", "every route documents its rate limit")
	schemes := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)
	assert.Contains(t, schemes, "ApiKey")
	assert.Contains(t, schemes, "AdminKey")
	ticket := paths["/v1/support/ticket"].(map[string]any)["post"].(map[string]any)
	assert.Contains(t, ticket["responses"], "201", "support creations answer 201")
	tbody := ticket["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	subject := tbody["properties"].(map[string]any)["subject"].(map[string]any)
	assert.EqualValues(t, 200, subject["maxLength"], "limits are published")
	var listParams []string
	for _, p := range paths["/v1/support/tickets"].(map[string]any)["get"].(map[string]any)["parameters"].([]any) {
		listParams = append(listParams, p.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"status", "limit", "cursor"}, listParams)
	sizing := paths["/v1/sizing/calculate"].(map[string]any)["post"].(map[string]any)
	body := sizing["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	assert.Contains(t, body["required"], "equity", "shortcut bodies are the tool's input schema")

	if out := os.Getenv("TOOLKIT_OPENAPI_OUT"); out != "" {
		res, err := http.Get(e.srv.URL + "/v1/openapi.json")
		require.NoError(t, err)
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(out, raw, 0o644))
	}
}

func TestPublicDocuments(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	status, card := e.do("GET", "/.well-known/agent.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, e.srv.URL, card["url"], "base URL from the request when not configured")
	assert.NotEmpty(t, card["skills"])
	status, sc := e.do("GET", "/.well-known/mcp/server-card.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	_, tools := e.do("GET", "/v1/tools/list", nil, "")
	assert.Equal(t, tools["tool_count"], sc["tool_count"], "every surface serves the same catalog")
	assert.Len(t, card["skills"], int(tools["tool_count"].(float64)))
	res, err := http.Get(e.srv.URL + "/llms.txt")
	require.NoError(t, err)
	defer res.Body.Close()
	txt, _ := io.ReadAll(res.Body)
	assert.Contains(t, string(txt), "X-API-Key")
	assert.Contains(t, string(txt), "calculate_position_size")
	assert.Contains(t, string(txt), "POST /v1/tools/call")
	assert.Contains(t, string(txt), "POST /v1/support/ticket (key)")
	assert.Contains(t, string(txt), "closed is final")
	assert.Contains(t, card["capabilities"].(map[string]any)["support"], "GET /v1/support/ticket/{ticket_id}")
	assert.Contains(t, string(txt), "GET /v1/guardian/status (public)")
	assert.Contains(t, string(txt), "RateLimit-Remaining")
	assert.Contains(t, string(txt), e.srv.URL+"/readyz")
	caps := card["capabilities"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/v1/guardian/status", caps["status"])
	assert.Equal(t, e.srv.URL+"/healthz", caps["health"])
}
