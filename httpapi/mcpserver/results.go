package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolResult is a successful call: the result as structuredContent and,
// for clients that read only content, as JSON text, carried as c says
// (see carriage). A priced call's _meta says what it cost: charged (USDC
// credits; 0.00 when replayed or not chargeable), balance (after the
// debit; absent when nothing was debited) and replayed (the stored answer
// of an idempotency key), like the REST answer's X-Charged, X-Balance and
// Idempotent-Replayed headers.
func (h *Handler) toolResult(out toolcall.Result, ag agents.Agent, c carriage) *mcp.CallToolResult {
	text, structured, size := c.layout(out.Response)
	if size > c.max {
		// Only a replay gets here (a fresh call over the cap was refused
		// before it was charged), and a replay is never charged.
		return h.toolError(toolkit.Errorf(toolkit.TooLarge, "The answer of %s would carry %d bytes of result, more than the %d allowed; "+
			"call it again with a protocol version that reads structuredContent", out.Tool, size, c.max), ag)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: pointerText(len(out.Response), c.max)}}}
	if text {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(out.Response)}}
	}
	if structured {
		res.StructuredContent = json.RawMessage(out.Response)
	}
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

// failed is a call's failure as a tool error, with what the transport
// owes the operator: one log line for an internal error or a storage
// fault (a full or read-only database), which is also a guardian event,
// as the REST middleware records it.
func (h *Handler) failed(ctx context.Context, t catalog.Tool, ag agents.Agent, err error) *mcp.CallToolResult {
	if guardian.RecordStorageFault(ctx, h.cfg.Recorder, err) || toolkit.KindOf(err) == toolkit.Internal {
		h.cfg.Logger.Error("mcp tool call", "tool", t.Name, "agent_id", ag.ID, "error", err.Error())
	}
	return h.toolError(err, ag)
}

// toolError is a failed call as an MCP tool error. Its _meta carries code
// (the REST error code) and, when a validation found them, errors: every
// violation (at most 50, the first being the detail) as
// [{field, rule, message}]; a 402 adds the REST 402's required and
// available and top_up, how this agent adds credits; a refusal to retry
// later adds retry_after (seconds). The text is the same fields and the
// detail, as JSON: the REST error body.
func (h *Handler) toolError(err error, ag agents.Agent) *mcp.CallToolResult {
	kind := toolkit.KindOf(err)
	meta := mcp.Meta{"code": kind.String()}
	if fields := toolkit.FieldsOf(err); len(fields) > 0 {
		meta["errors"] = fields
	}
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

// carriage is how an MCP answer carries a tool's result to one client
// within the answer cap max (toolcall's MaxResponseBytes, the REST cap):
// an answer repeats the result as text content and as structuredContent,
// which would double what the cap bounds. So the result goes twice only
// while both copies, as the SDK encodes them, fit within max. Past that, a
// client that reads structuredContent (protocol 2025-06-18 and later)
// gets the result there once and a short pointer as text; an older client
// gets it once as text. An answer that does not fit even so is a
// too_large tool error, refused before the call is charged (size is the
// toolcall.Request's AnswerSize).
type carriage struct {
	// structured: the client reads structuredContent.
	structured bool
	// max is the most bytes of result an answer carries.
	max int
}

// carriageFor is the carriage of a call in session ss: structured unless
// the client asked for a protocol version from before structuredContent.
func (h *Handler) carriageFor(ss *mcp.ServerSession) carriage {
	c := carriage{structured: true, max: h.cfg.Calls.MaxResponseBytes()}
	if ss == nil {
		return c
	}
	if p := ss.InitializeParams(); p != nil {
		c.structured = readsStructured(p.ProtocolVersion)
	}
	return c
}

// readsStructured reports whether a client asking for protocol version v
// reads structuredContent: v is 2025-06-18 or later, or a version the SDK
// does not speak (it then answers with its latest).
func readsStructured(v string) bool {
	return v >= "2025-06-18" || !slices.Contains(mcp.SupportedProtocolVersions(), v)
}

// layout says what an answer carries of result: the text content is the
// result (else the pointer), structuredContent is present, and the bytes
// of both as the SDK encodes them.
func (c carriage) layout(result []byte) (text, structured bool, size int) {
	raw, quoted := encodedLen(result, false), encodedLen(result, true)
	switch {
	case raw+quoted <= c.max:
		return true, true, raw + quoted
	case c.structured:
		return false, true, raw + encodedLen([]byte(pointerText(len(result), c.max)), true)
	}
	return true, false, quoted
}

// size is the bytes of result an answer carries (toolcall.Request's
// AnswerSize).
func (c carriage) size(result []byte) int {
	_, _, n := c.layout(result)
	return n
}

// pointerText is the text content of an answer whose result is in
// structuredContent only.
func pointerText(resultBytes, max int) string {
	return `{"detail":"The result (` + strconv.Itoa(resultBytes) + ` bytes) is in structuredContent only: ` +
		`as text too, the answer would be over its ` + strconv.Itoa(max) + `-byte cap"}`
}

// encodedLen is the length of b as the SDK encodes a result
// (encoding/json, HTML characters escaped): as a JSON string when quoted
// (text content), else as the compact JSON value b is (structuredContent).
func encodedLen(b []byte, quoted bool) int {
	n := 0
	if quoted {
		n = 2
	}
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '<' || c == '>' || c == '&':
				n += len(`\u003c`)
			case !quoted:
				n++
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += len(`\u001f`)
			default:
				n++
			}
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		switch {
		case r == '\u2028' || r == '\u2029':
			n += len(`\u2028`)
		case r == utf8.RuneError && size == 1 && quoted:
			n += len(`\ufffd`)
		default:
			n += size
		}
	}
	return n
}
