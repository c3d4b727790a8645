package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
)

// toolAliases maps published tool names to the catalog's names.
var toolAliases = map[string]string{
	"calculate_confidence":     "analyze_confidence",
	"calculate_risk_adjusted":  "analyze_risk_adjusted",
	"analyze_segmentation":     "segment_trades",
	"analyze_peak_valley":      "detect_peak_valley",
	"calculate_options_size":   "size_options_position",
	"calculate_futures_size":   "size_futures_position",
	"record_trade_outcome":     "analyze_trade_outcome",
	"calculate_system_r_score": "calculate_system_score",
}

// shortcutSpec is a REST shortcut for a catalog tool.
type shortcutSpec struct {
	path    string
	summary string
	tool    string
	tier    string // evaluate_performance tier fixed by the path
}

var shortcuts = []shortcutSpec{
	{"/v1/sizing/calculate", "Position size (tool calculate_position_size)", "calculate_position_size", ""},
	{"/v1/risk/check", "Trade risk check (tool check_trade_risk)", "check_trade_risk", ""},
	{"/v1/eval/basic", "G-metric evaluation, basic tier (tool evaluate_performance)", "evaluate_performance", "basic"},
	{"/v1/eval/full", "Evaluation with rolling G and system score (tool evaluate_performance)", "evaluate_performance", "full"},
	{"/v1/eval/comprehensive", "Evaluation with impact analysis (tool evaluate_performance)", "evaluate_performance", "comprehensive"},
	{"/v1/compound/pre-trade-gate", "Sizing, risk and health in one call (tool pre_trade_gate)", "pre_trade_gate", ""},
	{"/v1/compound/assess-system", "Full system assessment (tool assess_trading_system)", "assess_trading_system", ""},
}

// lookupTool resolves a tool name or published alias.
func (a *API) lookupTool(name string) (catalog.Tool, error) {
	if t, ok := a.svc.Catalog.Lookup(name); ok {
		return t, nil
	}
	if t, ok := a.svc.Catalog.Lookup(toolAliases[name]); ok {
		return t, nil
	}
	return catalog.Tool{}, toolkit.Errorf(toolkit.NotFound, "Unknown tool: '%s'. Available: %s",
		name, strings.Join(a.svc.Catalog.Names(), ", "))
}

// mayCall reports whether the agent's authorized_actions allow the tool:
// an action matches the tool's name, billed operation or category.
func mayCall(ag agents.Agent, t catalog.Tool, operation string) error {
	if len(ag.AuthorizedActions) == 0 {
		return nil
	}
	if slices.Contains(ag.AuthorizedActions, t.Name) || slices.Contains(ag.AuthorizedActions, t.Category) ||
		(operation != "" && slices.Contains(ag.AuthorizedActions, operation)) {
		return nil
	}
	return toolkit.Errorf(toolkit.Forbidden, "Tool %s is not in this agent's authorized_actions", t.Name)
}

// invoke runs a tool for an agent through billing's single metering point
// and returns the JSON result. Every surface (REST shortcuts, tools/call,
// MCP) calls it.
func (a *API) invoke(ctx context.Context, ag agents.Agent, t catalog.Tool, args json.RawMessage, idempotencyKey string) ([]byte, error) {
	op := t.BilledOperation(args)
	if err := mayCall(ag, t, op); err != nil {
		return nil, err
	}
	// Bad arguments are rejected before metering: a 400 never costs
	// anything and never hides behind a 402.
	run, err := t.Prepare(catalog.Call{AgentID: ag.ID, Limits: ag.Limits(), Arguments: args})
	if err != nil {
		return nil, err
	}
	m, err := a.svc.Billing.Meter(ctx, billing.MeterRequest{
		Account: account(ag), Operation: op,
		IdempotencyKey: idempotencyKey,
		Body:           append([]byte(t.Name+"\x00"), args...),
	}, func(ctx context.Context) (billing.Outcome, error) {
		res, err := run(ctx)
		if err != nil {
			return billing.Outcome{}, err
		}
		b, err := json.Marshal(res)
		if errors.Is(err, toolkit.ErrNonFinite) {
			return billing.Outcome{}, toolkit.Errorf(toolkit.Invalid,
				"The inputs give a result too large to represent (a statistic overflowed); use smaller values for %s", t.Name)
		}
		if err != nil {
			return billing.Outcome{}, toolkit.Wrap(toolkit.Internal, "httpapi.invoke", err)
		}
		return billing.Outcome{Response: b, Chargeable: catalog.IsChargeable(res)}, nil
	})
	return m.Response, err
}

func (a *API) shortcut(s shortcutSpec) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		t, err := a.lookupTool(s.tool)
		if err != nil {
			return err
		}
		body, err := readBody(r)
		if err != nil {
			return err
		}
		if s.tier != "" {
			if body, err = catalog.WithTier(body, s.tier); err != nil {
				return err
			}
		}
		out, err := a.invoke(r.Context(), agentFrom(r), t, body, r.Header.Get("Idempotency-Key"))
		if err != nil {
			return err
		}
		writeRawJSON(w, http.StatusOK, out)
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
	if a := bytes.TrimSpace(args); len(a) > 0 && a[0] != '{' && !bytes.Equal(a, []byte("null")) {
		return toolkit.Errorf(toolkit.Invalid, "arguments: must be a JSON object")
	}
	t, err := a.lookupTool(name)
	if err != nil {
		return err
	}
	out, err := a.invoke(r.Context(), agentFrom(r), t, args, r.Header.Get("Idempotency-Key"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ToolCallResponse{ToolName: t.Name, Result: out})
	return nil
}

func (a *API) toolsList(w http.ResponseWriter, _ *http.Request) error {
	tools := a.svc.Catalog.Tools()
	out := ToolListResponse{ToolCount: len(tools), Tools: make([]ToolInfo, len(tools))}
	for i, t := range tools {
		info := ToolInfo{Name: t.Name, Description: t.Description, Category: t.Category,
			BillingClass: BillingClassFree, Price: a.svc.Billing.Price(t.Operation, false), InputSchema: t.InputSchema}
		if t.Operation != "" {
			op := t.Operation
			info.Operation = &op
		}
		if info.Price.Sign() > 0 {
			info.BillingClass = BillingClassMetered
		}
		out.Tools[i] = info
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
