package mcpserver

import (
	"encoding/json"
	"errors"
	"maps"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolResult is a successful call: the result as structuredContent and, for
// older clients, as JSON text. A priced call's _meta says what it cost:
// charged (USDC credits; 0.00 when replayed or not chargeable), balance
// (after the debit; absent when nothing was debited) and replayed (the
// stored answer of an idempotency key), like the REST answer's X-Charged,
// X-Balance and Idempotent-Replayed headers.
func (h *Handler) toolResult(out toolcall.Result, ag agents.Agent) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out.Response)}},
		StructuredContent: json.RawMessage(out.Response)}
	if h.cfg.Billing.Price(out.Operation, billing.AccountOf(ag).Presale).Sign() > 0 {
		charged := out.Charged
		if charged.IsZero() {
			charged = billing.USD(0)
		}
		res.Meta = mcp.Meta{"charged": charged, "replayed": out.Replayed}
		if out.Balance != nil {
			res.Meta["balance"] = *out.Balance
		}
	}
	return res
}

// toolError is a failed call as an MCP tool error. Its _meta carries code
// (the REST error code); a 402 adds the REST 402's required and available
// and top_up, how this agent adds credits; a refusal to retry later adds
// retry_after (seconds). The text is the same fields and the detail, as
// JSON: the REST error body.
func (h *Handler) toolError(err error, ag agents.Agent) *mcp.CallToolResult {
	kind := toolkit.KindOf(err)
	meta := mcp.Meta{"code": kind.String()}
	var short *billing.Shortfall
	if kind == toolkit.InsufficientCredits && errors.As(err, &short) {
		meta["required"], meta["available"], meta["top_up"] = short.Required, short.Available, h.topUpHint(ag)
	}
	if d := toolkit.RetryAfterOf(err); d > 0 {
		meta["retry_after"] = int((d + time.Second - 1) / time.Second)
	}
	body := maps.Clone(meta)
	body["detail"] = toolkit.MessageOf(err)
	text, jerr := json.Marshal(body)
	if jerr != nil {
		text = []byte(toolkit.MessageOf(err))
	}
	return &mcp.CallToolResult{IsError: true, Meta: meta, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
}

// topUpHint says how ag adds the credits its calls are paid from: test
// funds by a sandbox self-credit, real funds by a verified USDC deposit.
func (h *Handler) topUpHint(ag agents.Agent) string {
	p := h.pathPrefix()
	if billing.AccountOf(ag).Sandbox() {
		return "POST " + p + "/v1/billing/deposit {\"amount\":\"5.00\",\"funding_path\":\"direct_transfer\"} credits test funds " +
			"(sandbox calls are paid from test funds; the server may cap or disable self-credit)"
	}
	return "send USDC on Solana to the treasury, then POST " + p + "/v1/billing/deposit-usdc {\"tx_signature\":\"<signature>\"} " +
		"(1 USDC = 1 credit; USDT, PYUSD and SOL are accepted at their own endpoints)"
}
