package httpapi

import (
	"net/http"
	"strconv"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/internal/httpbody"
)

// shortcutSpec is a REST shortcut for a catalog tool.
type shortcutSpec struct {
	path    string
	id      string // operationId
	summary string
	tool    string
	tier    string // evaluate_performance tier fixed by the path
}

var shortcuts = []shortcutSpec{
	{"/v1/sizing/calculate", "calculatePositionSize", "Position size (tool calculate_position_size)", "calculate_position_size", ""},
	{"/v1/risk/check", "checkTradeRisk", "Trade risk check (tool check_trade_risk)", "check_trade_risk", ""},
	{"/v1/eval/basic", "evaluateBasic", "G-metric evaluation, basic tier (tool evaluate_performance)", "evaluate_performance", "basic"},
	{"/v1/eval/full", "evaluateFull", "Evaluation with rolling G and system score (tool evaluate_performance)", "evaluate_performance", "full"},
	{"/v1/eval/comprehensive", "evaluateComprehensive", "Evaluation with impact analysis (tool evaluate_performance)", "evaluate_performance", "comprehensive"},
	{"/v1/compound/pre-trade-gate", "preTradeGate", "Sizing, risk and health in one call (tool pre_trade_gate)", "pre_trade_gate", ""},
	{"/v1/compound/assess-system", "assessTradingSystem", "Full system assessment (tool assess_trading_system)", "assess_trading_system", ""},
}

// shortcut serves a REST shortcut: the body is the tool's arguments and
// the answer is the bare result.
func (a *API) shortcut(s shortcutSpec) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		body, err := httpbody.Read(r)
		if err != nil {
			return err
		}
		res, err := a.calls.Call(r.Context(), agentFrom(r), toolcall.Request{
			Tool: s.tool, Tier: s.tier, Arguments: body, IdempotencyKey: r.Header.Get("Idempotency-Key"),
		})
		if err != nil {
			return err
		}
		writeCallHeaders(w, res)
		writeRawJSON(w, http.StatusOK, res.Response)
		return nil
	}
}

func (a *API) toolsCall(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ToolCallRequest](a, r)
	if err != nil {
		return err
	}
	name, args := req.ToolName, req.Arguments
	if req.Tool != "" || req.Params != nil {
		if name != "" || args != nil {
			return toolkit.Errorf(toolkit.Invalid, "Send either tool_name/arguments or tool/params, not both")
		}
		name, args = req.Tool, req.Params
	}
	if name == "" {
		return toolkit.Errorf(toolkit.Invalid, "Missing required field: tool_name")
	}
	res, err := a.calls.Call(r.Context(), agentFrom(r), toolcall.Request{
		Tool: name, Arguments: args, IdempotencyKey: r.Header.Get("Idempotency-Key"),
	})
	if err != nil {
		return err
	}
	writeCallHeaders(w, res)
	writeJSON(w, http.StatusOK, ToolCallResponse{ToolName: res.Tool, Result: res.Response})
	return nil
}

// observeCall counts a call of the API's own call service (see New): the
// guardian's 24-hour tool-call count and the charge metrics.
func (a *API) observeCall(res toolcall.Result, err error) {
	if a.svc.Guardian != nil {
		a.svc.Guardian.CountToolCall()
	}
	a.opts.Metrics.ObserveCall(res, err)
}

// writeCallHeaders says what a priced answer cost and what is left, and
// marks an idempotent replay.
func writeCallHeaders(w http.ResponseWriter, res toolcall.Result) {
	h := w.Header()
	if res.Operation != "" {
		h.Set("X-Charged", res.Charged.String())
	}
	if res.Balance != nil {
		h.Set("X-Balance", res.Balance.String())
	}
	if res.Replayed {
		h.Set("Idempotent-Replayed", strconv.FormatBool(true))
	}
}

func (a *API) toolsList(w http.ResponseWriter, _ *http.Request) error {
	tools := a.svc.Catalog.Tools()
	out := ToolListResponse{ToolCount: len(tools), Tools: make([]ToolInfo, len(tools))}
	for i, t := range tools {
		price := toolcall.PricingOf(t, func(op string) toolkit.Amount { return a.svc.Billing.Price(op, false) })
		info := ToolInfo{Name: t.Name, Description: t.Description, Category: t.Category,
			BillingClass: price.BillingClass(), Price: price.Price, InputSchema: t.InputSchema}
		if t.Operation != "" {
			op := t.Operation
			info.Operation = &op
		}
		out.Tools[i] = info
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
