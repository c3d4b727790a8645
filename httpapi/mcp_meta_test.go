package httpapi_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/billing"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appendingTools are the tools that write: each call adds a record.
var appendingTools = []string{"store_memory", "record_trade_journal"}

// listMCPTools connects over streamable HTTP and lists the tools by name.
func (e *env) listMCPTools(t *testing.T, k string) (*mcp.ClientSession, map[string]*mcp.Tool) {
	t.Helper()
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	tools := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		tools[tool.Name] = tool
	}
	return cs, tools
}

// TestMCPToolsHaveTitlesAndAnnotations checks every one of the 45 tools
// has a human title and the hints of what it does: pure calculations and
// reads are read-only and idempotent, the two writes append (neither
// read-only nor idempotent), nothing is destructive or open-world.
func TestMCPToolsHaveTitlesAndAnnotations(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	_, tools := e.listMCPTools(t, k)
	require.Len(t, tools, 45)
	titles := map[string]string{}
	for name, tool := range tools {
		assert.NotEmpty(t, tool.Title, name)
		assert.NotEqual(t, name, tool.Title, name)
		if other, dup := titles[tool.Title]; dup {
			t.Errorf("%s and %s share the title %q", name, other, tool.Title)
		}
		titles[tool.Title] = name
		a := tool.Annotations
		require.NotNil(t, a, name)
		assert.Equal(t, tool.Title, a.Title, name)
		require.NotNil(t, a.OpenWorldHint, name)
		assert.False(t, *a.OpenWorldHint, "%s works on a closed world", name)
		require.NotNil(t, a.DestructiveHint, name)
		assert.False(t, *a.DestructiveHint, "%s destroys nothing", name)
		writes := slices.Contains(appendingTools, name)
		assert.Equal(t, !writes, a.ReadOnlyHint, "%s read-only", name)
		assert.Equal(t, !writes, a.IdempotentHint, "%s idempotent", name)
	}
	assert.Equal(t, "Position Size (Fixed Fractional)", tools["calculate_position_size"].Title)
	assert.Equal(t, "Store Memory", tools["store_memory"].Title)

	_, card := e.do("GET", "/.well-known/agent.json", nil, "")
	for _, raw := range card["skills"].([]any) {
		skill := raw.(map[string]any)
		assert.Equal(t, tools[skill["id"].(string)].Title, skill["name"], "the agent card names a skill by its title")
	}
}

// TestMCPToolsShowThePriceTable checks each tool's description and _meta
// carry its price as the live price table (GET /v1/billing/pricing) says,
// with every tier of evaluate_performance, and that a changed table
// changes them (nothing is hard-coded).
func TestMCPToolsShowThePriceTable(t *testing.T) {
	changes := billing.Prices{"position_sizing": mustAmount("0.05"), "full_eval": mustAmount("0.75")}
	e := newEnv(t, withFullCatalog, func(c *envConfig) { c.priceChanges = changes })
	_, k := e.register("acme")
	_, tools := e.listMCPTools(t, k)

	_, pricing := e.do("GET", "/v1/billing/pricing", nil, "")
	table := pricing["prices"].(map[string]any)
	_, list := e.do("GET", "/v1/tools/list", nil, "")
	require.Len(t, list["tools"], 45)
	for _, raw := range list["tools"].([]any) {
		info := raw.(map[string]any)
		name := info["name"].(string)
		tool := tools[name]
		require.NotNil(t, tool, name)
		meta := tool.Meta
		assert.Equal(t, info["operation"], meta["operation"], name)
		assert.Equal(t, info["billing_class"], meta["billing_class"], name)
		assert.Equal(t, "USDC", meta["currency"], name)
		assert.Zero(t, mustAmount(info["price"].(string)).Cmp(mustAmount(meta["price"].(string))), name)
		operation, _ := info["operation"].(string)
		listed, priced := table[operation].(string)
		switch {
		case name == "evaluate_performance":
			assert.Equal(t, "tier", meta["priced_by"])
			assert.Equal(t, map[string]any{"basic": table["basic_eval"], "full": "0.75", "comprehensive": table["comprehensive_eval"]},
				meta["prices"])
			assert.True(t, strings.HasSuffix(tool.Description, " Price per call by tier (metered): basic 0.10 USD, full 0.75 USD, comprehensive 1.00 USD."),
				tool.Description)
		case priced:
			assert.Equal(t, listed, meta["price"], name)
			assert.Equal(t, "metered", meta["billing_class"], name)
			assert.True(t, strings.HasSuffix(tool.Description, " Price: "+listed+" USD per call (metered)."), "%s: %s", name, tool.Description)
		default:
			assert.Equal(t, "0.00", meta["price"], name)
			assert.Equal(t, "free_public_tool", meta["billing_class"], name)
			assert.True(t, strings.HasSuffix(tool.Description, " Price: free."), "%s: %s", name, tool.Description)
		}
	}
	assert.Contains(t, tools["calculate_position_size"].Description, "Price: 0.05 USD per call (metered).")
	assert.Contains(t, tools["assess_trading_system"].Description, "Price: 2.00 USD per call (metered).")
}

// TestMCPServerInstructions checks the server explains credits, prices,
// a 402, topping up and the idempotency key.
func TestMCPServerInstructions(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	got := cs.InitializeResult().Instructions
	for _, want := range []string{"1 credit = 1 USD", "USDC", "Price:", "402", "_meta.top_up", "/v1/billing/deposit-usdc",
		"_meta.idempotency_key", "charged once", "charged, balance", "80 %"} {
		assert.Contains(t, got, want)
	}
	assert.Equal(t, "Agent Finance Toolkit", cs.InitializeResult().ServerInfo.Title)
}

// outputValidator compiles a tool's outputSchema with the SDK's JSON
// Schema library.
func outputValidator(t *testing.T, tool *mcp.Tool) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(tool.OutputSchema)
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(b, &s), tool.Name)
	require.Equal(t, "object", s.Type, "%s: MCP requires an object outputSchema", tool.Name)
	resolved, err := s.Resolve(nil)
	require.NoError(t, err, tool.Name)
	return resolved
}

// TestMCPStructuredContentMatchesTheOutputSchema calls every tool through
// the MCP SDK client, several answer shapes per tool (insufficient-bars
// answers included), and validates each structuredContent against the
// tool's outputSchema; the text content carries the same JSON for older
// clients. It also proves the check can fail.
func TestMCPStructuredContentMatchesTheOutputSchema(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "100")
	cs, tools := e.listMCPTools(t, k)
	calls := toolCallsForEveryTool()
	workspaceArgs := toolArguments()
	for _, name := range []string{"store_memory", "search_memory", "record_trade_journal", "get_trading_biases"} {
		calls[name] = []string{workspaceArgs[name]}
	}
	require.ElementsMatch(t, slices.Collect(maps.Keys(tools)), slices.Collect(maps.Keys(calls)))
	ctx := context.Background()
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		validator := outputValidator(t, tools[name])
		for _, args := range calls[name] {
			var arguments map[string]any
			require.NoError(t, json.Unmarshal([]byte(args), &arguments), name)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
			require.NoError(t, err, name)
			require.False(t, res.IsError, "%s: %v", name, res.Content)
			require.NotNil(t, res.StructuredContent, name)
			assert.NoError(t, validator.Validate(res.StructuredContent), "%s %s", name, args)
			var text any
			require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &text), name)
			assert.Equal(t, res.StructuredContent, text, "%s: the text is the same result", name)
		}
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "detect_regime", Arguments: map[string]any{
		"bars": json.RawMessage(syntheticBars(10, 0))}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	insufficient := res.StructuredContent.(map[string]any)
	assert.Contains(t, insufficient, "error", "a short history answers its insufficient-bars result")
	validator := outputValidator(t, tools["detect_regime"])
	require.NoError(t, validator.Validate(insufficient))
	delete(insufficient, "error")
	assert.Error(t, validator.Validate(insufficient), "a missing field fails")
	sizing := outputValidator(t, tools["calculate_position_size"])
	assert.Error(t, sizing.Validate(map[string]any{"shares": 1}), "another shape fails")
}

// TestMCPPricedResultsSayWhatTheyCost checks a priced call's _meta
// carries charged and balance, and a free call's carries nothing.
func TestMCPPricedResultsSayWhatTheyCost(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "10")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_position_size", Arguments: map[string]any{
		"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "direction": "long"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Equal(t, mcp.Meta{"charged": "0.003", "balance": "9.997", "replayed": false}, ownMeta(res.Meta))
	assert.Equal(t, "9.997", e.balance(k))

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_kelly", Arguments: map[string]any{
		"r_multiples": []string{"1", "-1", "2"}}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Empty(t, ownMeta(res.Meta), "a free call has nothing to say about money")

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "detect_regime", Arguments: map[string]any{
		"bars": json.RawMessage(syntheticBars(10, 0))}})
	require.NoError(t, err)
	assert.Empty(t, ownMeta(res.Meta), "detect_regime is free")
}

// ownMeta is a result's _meta without the protocol's own keys
// (io.modelcontextprotocol/..., such as the serverInfo the SDK adds to
// every result of a session-less request).
func ownMeta(m mcp.Meta) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range m {
		if !strings.HasPrefix(k, "io.modelcontextprotocol/") {
			out[k] = v
		}
	}
	return out
}

// errorBody decodes a tool error's JSON text.
func errorBody(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	require.True(t, res.IsError)
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &body))
	return body
}

// TestMCPInsufficientCreditsSaysHowToTopUp checks a 402 tool error
// carries the code, the REST 402's required and available, and how to
// top up, in _meta and in the text; a 403 carries its code.
func TestMCPInsufficientCreditsSaysHowToTopUp(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "0.50")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	ctx := context.Background()
	args := `{"r_multiples":` + sampleR + `}`
	var arguments map[string]any
	require.NoError(t, json.Unmarshal([]byte(args), &arguments))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "assess_trading_system", Arguments: arguments})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, "insufficient_credits", res.Meta["code"])
	assert.Equal(t, "2.00", res.Meta["required"])
	assert.Equal(t, "0.50", res.Meta["available"])
	assert.Contains(t, res.Meta["top_up"], "POST /v1/billing/deposit {", "a sandbox agent self-credits test funds")
	body := errorBody(t, res)
	status, rest := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"assess_trading_system","arguments":`+args+`}`)
	require.Equal(t, http.StatusPaymentRequired, status)
	for _, field := range []string{"detail", "code", "required", "available"} {
		assert.Equal(t, rest[field], body[field], "%s: as in the REST 402", field)
	}
	assert.Equal(t, res.Meta["top_up"], body["top_up"])
	assert.Equal(t, "0.50", e.balance(k), "nothing charged")

	status, _ = e.do("PUT", "/v1/agents/mode", key(k), `{"mode":"live"}`)
	require.Equal(t, http.StatusOK, status)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "assess_trading_system", Arguments: arguments})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, "0.00", res.Meta["available"], "live calls are paid from real funds")
	assert.Contains(t, res.Meta["top_up"], "POST /v1/billing/deposit-usdc", "a live agent deposits USDC")

	status, _ = e.do("PUT", "/v1/agents/limits", key(k), `{"allowed_operations":["risk_check"]}`)
	require.Equal(t, http.StatusOK, status)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "assess_trading_system", Arguments: arguments})
	require.NoError(t, err)
	body = errorBody(t, res)
	assert.Equal(t, mcp.Meta{"code": "forbidden"}, ownMeta(res.Meta))
	assert.Equal(t, "forbidden", body["code"])
	assert.Contains(t, body["detail"], "allowed operations")
}

// TestMCPIdempotencyKeyInMeta checks _meta.idempotency_key replays like
// the Idempotency-Key header: the same key and arguments answer the
// stored result, charged once (also across MCP and REST); other arguments
// are a conflict; a malformed key or another spelling is refused.
func TestMCPIdempotencyKeyInMeta(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "1")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	ctx := context.Background()
	args := map[string]any{"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "direction": "long"}
	call := func(meta mcp.Meta, arguments map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "calculate_position_size", Arguments: arguments})
		require.NoError(t, err)
		return res
	}

	first := call(mcp.Meta{"idempotency_key": "order-42"}, args)
	require.False(t, first.IsError, "%v", first.Content)
	assert.Equal(t, mcp.Meta{"charged": "0.003", "balance": "0.997", "replayed": false}, ownMeta(first.Meta))
	retry := call(mcp.Meta{"idempotency_key": "order-42"}, args)
	require.False(t, retry.IsError, "%v", retry.Content)
	assert.Equal(t, mcp.Meta{"charged": "0.00", "replayed": true}, ownMeta(retry.Meta))
	assert.Equal(t, first.StructuredContent, retry.StructuredContent)
	assert.Equal(t, "0.997", e.balance(k), "charged once")

	body, err := json.Marshal(args)
	require.NoError(t, err)
	status, h, rest := e.exchange("POST", "/v1/tools/call", map[string]string{"X-API-Key": k, "Idempotency-Key": "order-42"},
		`{"tool_name":"calculate_position_size","arguments":`+string(body)+`}`)
	require.Equal(t, http.StatusOK, status, rest)
	assert.Equal(t, "true", h.Get("Idempotent-Replayed"), "the header and _meta share one key space")
	assert.Equal(t, first.StructuredContent, rest["result"])

	other := maps.Clone(args)
	other["equity"] = "50000"
	conflict := call(mcp.Meta{"idempotency_key": "order-42"}, other)
	assert.Equal(t, "conflict", errorBody(t, conflict)["code"])

	for _, bad := range []mcp.Meta{
		{"idempotency_key": strings.Repeat("k", billing.MaxIdempotencyKeyLen+1)},
		{"idempotency_key": ""},
		{"idempotency_key": 42},
		{"idempotency_key": "a\x00b"},
	} {
		res := call(bad, args)
		body := errorBody(t, res)
		assert.Equal(t, "invalid", body["code"], "%v", bad)
		assert.Contains(t, body["detail"], "_meta.idempotency_key", "%v", bad)
	}
	res := call(mcp.Meta{"Idempotency-Key": "order-43"}, args)
	assert.Contains(t, errorBody(t, res)["detail"], "the idempotency key is _meta.idempotency_key")
	assert.Equal(t, "0.997", e.balance(k), "refused calls cost nothing")

	fresh := call(mcp.Meta{"idempotency_key": strings.Repeat("k", billing.MaxIdempotencyKeyLen)}, args)
	require.False(t, fresh.IsError, "%v", fresh.Content)
	assert.Equal(t, "0.994", e.balance(k), "a new key is a new call")
}
