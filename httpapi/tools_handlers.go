package httpapi

import (
	"net/http"
	"strconv"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/internal/httpbody"
)

// shortcutRoutes are the REST shortcuts of the catalog's tools (each
// tool's catalog.Spec lists its own), in catalog order.
func (a *API) shortcutRoutes() []route {
	var rs []route
	for _, t := range a.svc.Catalog.Tools() {
		for _, s := range t.Shortcuts {
			rs = append(rs, route{method: "POST", path: s.Path, id: s.OperationID, auth: authAgent, summary: s.Summary,
				status: http.StatusOK, toolBody: true, tool: t.Name, tier: s.Tier, handle: a.shortcut(t.Name, s.Tier)})
		}
	}
	return rs
}

// shortcut serves a REST shortcut of tool (with the evaluation tier its
// path fixes): the body is the tool's arguments and the answer is the
// bare result.
func (a *API) shortcut(tool, tier string) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		body, err := httpbody.Read(r)
		if err != nil {
			return err
		}
		res, err := a.calls.Call(r.Context(), agentFrom(r), toolcall.Request{
			Tool: tool, Tier: tier, Arguments: body, IdempotencyKey: r.Header.Get("Idempotency-Key"),
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

func (a *API) toolsList(w http.ResponseWriter, r *http.Request) error {
	if format := r.URL.Query().Get("format"); format != "" {
		return a.hostToolsList(w, format)
	}
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
