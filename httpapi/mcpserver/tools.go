package mcpserver

import (
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is a catalog tool and its MCP definition. The definitions are
// built once, by New, and shared read-only by every session's server.
type tool struct {
	tool catalog.Tool
	def  *mcp.Tool
}

// defineTools defines every catalog tool for MCP: its title, annotations
// (from its Effect), its description ending with its price, its price in
// _meta (from the billing price table) and its outputSchema.
func (h *Handler) defineTools() ([]tool, error) {
	tools := h.cfg.Catalog.Tools()
	out := make([]tool, len(tools))
	for i, t := range tools {
		var output *jsonschema.Schema
		if h.cfg.OutputSchema != nil {
			var err error
			if output, err = h.cfg.OutputSchema(t.Name); err != nil {
				return nil, err
			}
		}
		price := toolcall.PricingOf(t, func(op string) toolkit.Amount { return h.cfg.Billing.Price(op, false) })
		out[i] = tool{tool: t, def: &mcp.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description + " " + priceSentence(price),
			InputSchema: t.InputSchema, OutputSchema: output, Annotations: annotations(t), Meta: priceMeta(price),
		}}
	}
	return out, nil
}

// annotations are the MCP hints of a tool. Every tool works on a closed
// world (the arguments, or the calling agent's own workspace) and none
// destroys anything; a read-only tool is idempotent, an appending one is
// not (a repeat adds another record).
func annotations(t catalog.Tool) *mcp.ToolAnnotations {
	no := false
	a := &mcp.ToolAnnotations{Title: t.Title, OpenWorldHint: &no, DestructiveHint: &no}
	if t.Effect == catalog.ReadOnly {
		a.ReadOnlyHint, a.IdempotentHint = true, true
	}
	return a
}

// priceSentence ends the tool's description: "Price: 0.003 USD per call
// (metered).", each tier's price, or "Price: free.".
func priceSentence(p toolcall.Pricing) string {
	switch {
	case !p.Metered():
		return "Price: free."
	case p.Argument == "":
		return fmt.Sprintf("Price: %s USD per call (metered).", p.Price)
	}
	parts := make([]string, len(p.Choices))
	for i, c := range p.Choices {
		parts[i] = fmt.Sprintf("%s %s USD", c.Value, c.Price)
	}
	return fmt.Sprintf("Price per call by %s (metered): %s.", p.Argument, strings.Join(parts, ", "))
}

// priceMeta is the tool's _meta: price (list price of the default
// arguments, in USDC credits), currency, billing_class and operation
// (absent when the tool has none), as in GET /v1/tools/list; a tool priced
// by an argument adds priced_by and prices (value -> price).
func priceMeta(p toolcall.Pricing) mcp.Meta {
	m := mcp.Meta{"price": p.Price, "currency": billing.Currency, "billing_class": p.BillingClass()}
	if p.Operation != "" {
		m["operation"] = p.Operation
	}
	if p.Argument != "" {
		prices := map[string]toolkit.Amount{}
		for _, c := range p.Choices {
			prices[c.Value] = c.Price
		}
		m["priced_by"], m["prices"] = p.Argument, prices
	}
	return m
}
