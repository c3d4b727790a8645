package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAPIDocument checks the document's header and that every /v1
// route of the API is in it.
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
		"/v1/guardian/alerts/{event_id}/acknowledge", "/v1/guardian/metrics", "/v1/guardian/maintenance",
		"/v1/agents/register-wallet", "/v1/agents/link-wallet",
		"/v1/billing/deposit-usdc", "/v1/billing/deposit-usdt", "/v1/billing/deposit-pyusd", "/v1/billing/deposit-sol",
		"/v1/billing/deposit-native", "/v1/billing/deposit-osr"} {
		assert.Contains(t, paths, p)
	}
	events := paths["/v1/guardian/events"].(map[string]any)["get"].(map[string]any)
	var params []string
	for _, p := range events["parameters"].([]any) {
		params = append(params, resolveRef(doc, p.(map[string]any))["name"].(string))
	}
	assert.Equal(t, []string{"X-Request-Id", "limit", "category", "severity", "cursor"}, params, "declared query parameters are published")
	assert.Contains(t, events["responses"], "429", "every route documents its rate limit")
	schemes := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)
	assert.Contains(t, schemes, "ApiKey")
	assert.Contains(t, schemes, "AdminKey")
	ticket := paths["/v1/support/ticket"].(map[string]any)["post"].(map[string]any)
	assert.Contains(t, ticket["responses"], "201", "support creations answer 201")
	tbody := resolveRef(doc, ticket["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
	subject := tbody["properties"].(map[string]any)["subject"].(map[string]any)
	assert.EqualValues(t, 200, subject["maxLength"], "limits are published")
	var listParams []string
	for _, p := range paths["/v1/support/tickets"].(map[string]any)["get"].(map[string]any)["parameters"].([]any) {
		listParams = append(listParams, resolveRef(doc, p.(map[string]any))["name"].(string))
	}
	assert.Equal(t, []string{"X-Request-Id", "status", "limit", "cursor"}, listParams)
	sizing := paths["/v1/sizing/calculate"].(map[string]any)["post"].(map[string]any)
	body := sizing["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	assert.Equal(t, "#/components/schemas/CalculatePositionSizeArguments", body["$ref"], "shortcut bodies are the tool's input schema")
	args := doc["components"].(map[string]any)["schemas"].(map[string]any)["CalculatePositionSizeArguments"].(map[string]any)
	assert.Contains(t, args["required"], "equity")

}

// resolveRef follows a local $ref of the document.
func resolveRef(doc, m map[string]any) map[string]any {
	ref, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	out := doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		out = out[part].(map[string]any)
	}
	return out
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
	assert.Contains(t, string(txt), e.srv.URL+"/docs/")
	assert.Contains(t, string(txt), "POST /v1/support/ticket (key)")
	assert.Contains(t, string(txt), "closed is final")
	assert.Contains(t, card["capabilities"].(map[string]any)["support"], "GET /v1/support/ticket/{ticket_id}")
	assert.Contains(t, string(txt), "GET /v1/guardian/status (public)")
	assert.Contains(t, string(txt), "RateLimit-Remaining")
	assert.Contains(t, string(txt), e.srv.URL+"/readyz")
	caps := card["capabilities"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/v1/guardian/status", caps["status"])
	assert.Equal(t, e.srv.URL+"/healthz", caps["health"])
	for _, want := range []string{"POST /v1/agents/register-wallet (public)", "POST /v1/agents/link-wallet (key)",
		"POST /v1/billing/deposit-sol (key)", "POST /v1/billing/deposit-osr (key)", "aft-auth:<wallet_address>:<unix seconds>",
		"sandbox_balance", "0.005 per token, 0.004 for presale buyers"} {
		assert.Contains(t, string(txt), want)
	}
	auth := card["auth"].(map[string]any)
	assert.Contains(t, auth["obtain_by_wallet"], "/v1/agents/register-wallet")
	funding := card["funding"].(map[string]any)
	assert.Contains(t, funding["deposits"], "POST "+e.srv.URL+"/v1/billing/deposit-usdc")
	assert.Len(t, funding["deposits"], 7, "the generic deposit, four assets, the native token and its alias")
	register := doc(t, e)["/v1/agents/register-wallet"].(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)
	assert.Contains(t, register, "201", "a new agent")
	assert.Contains(t, register, "200", "a rotated key")
	assert.Contains(t, register, "503", "no vault")
}

func doc(t *testing.T, e *env) map[string]any {
	t.Helper()
	status, d := e.do("GET", "/v1/openapi.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	return d["paths"].(map[string]any)
}

// TestOperationIDsSuitGenerators: every operation has an explicit id, and
// no component schema takes a name a generator gives an operation's own
// types (oapi-codegen: <Id>Response, <Id>Params, <Id>JSONBody,
// <Id>JSONRequestBody), which would not compile.
func TestOperationIDsSuitGenerators(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, doc := e.do("GET", "/v1/openapi.json", nil, "")
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	seen := map[string]bool{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			id, _ := op.(map[string]any)["operationId"].(string)
			require.Regexp(t, `^[a-z][A-Za-z]+$`, id, "%s %s", method, path)
			assert.False(t, seen[id], "operationId %s is used twice", id)
			seen[id] = true
			pascal := strings.ToUpper(id[:1]) + id[1:]
			for _, suffix := range []string{"Response", "Params", "JSONBody", "JSONRequestBody"} {
				assert.NotContains(t, schemas, pascal+suffix, "component %s collides with the generated types of %s", pascal+suffix, id)
			}
		}
	}
	assert.Contains(t, seen, "registerAgent")
	assert.Contains(t, seen, "callTool")
}
