package httpapi

import (
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTool is a catalog tool and its MCP definition. The definitions are
// built once, by New, and shared read-only by every session's server.
type mcpTool struct {
	tool catalog.Tool
	def  *mcp.Tool
}

// mcpTools defines every catalog tool for MCP: its title, annotations
// (from its Effect), its description ending with its price, its price in
// _meta (from the billing price table) and its outputSchema (from the
// OpenAPI document doc).
func (a *API) mcpTools(doc schema) ([]mcpTool, error) {
	tools := a.svc.Catalog.Tools()
	out := make([]mcpTool, len(tools))
	for i, t := range tools {
		output, err := mcpOutputSchema(doc, t.Name)
		if err != nil {
			return nil, err
		}
		price := a.toolPrice(t)
		out[i] = mcpTool{tool: t, def: &mcp.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description + " " + price.sentence(),
			InputSchema: t.InputSchema, OutputSchema: output, Annotations: annotations(t), Meta: price.meta(),
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

// toolPrice is what a tool costs at list price: one operation, or one
// per value of the argument that picks the operation (evaluate_performance
// by tier).
type toolPrice struct {
	operation string         // the operation of the default arguments
	price     toolkit.Amount // its list price, in USDC credits
	argument  string         // the argument that picks the operation; empty for one price
	choices   []pricedChoice
}

// pricedChoice is one operation of a tool and its list price.
type pricedChoice struct {
	catalog.OperationChoice
	price toolkit.Amount
}

func (a *API) toolPrice(t catalog.Tool) toolPrice {
	p := toolPrice{operation: t.Operation, price: a.svc.Billing.Price(t.Operation, false)}
	for _, c := range t.BilledOperations() {
		p.argument = c.Argument
		p.choices = append(p.choices, pricedChoice{OperationChoice: c, price: a.svc.Billing.Price(c.Operation, false)})
	}
	return p
}

// metered reports whether some call of the tool costs something.
func (p toolPrice) metered() bool {
	for _, c := range p.choices {
		if c.price.Sign() > 0 {
			return true
		}
	}
	return false
}

// sentence ends the tool's description: "Price: 0.003 USD per call
// (metered).", each tier's price, or "Price: free.".
func (p toolPrice) sentence() string {
	switch {
	case !p.metered():
		return "Price: free."
	case p.argument == "":
		return fmt.Sprintf("Price: %s USD per call (metered).", p.price)
	}
	parts := make([]string, len(p.choices))
	for i, c := range p.choices {
		parts[i] = fmt.Sprintf("%s %s USD", c.Value, c.price)
	}
	return fmt.Sprintf("Price per call by %s (metered): %s.", p.argument, strings.Join(parts, ", "))
}

// meta is the tool's _meta: price (list price of the default arguments,
// in USDC credits), currency, billing_class and operation (absent when
// the tool has none), as in GET /v1/tools/list; a tool priced by an
// argument adds priced_by and prices (value -> price).
func (p toolPrice) meta() mcp.Meta {
	class := BillingClassFree
	if p.metered() {
		class = BillingClassMetered
	}
	m := mcp.Meta{"price": p.price, "currency": billing.Currency, "billing_class": class}
	if p.operation != "" {
		m["operation"] = p.operation
	}
	if p.argument != "" {
		prices := map[string]toolkit.Amount{}
		for _, c := range p.choices {
			prices[c.Value] = c.price
		}
		m["priced_by"], m["prices"] = p.argument, prices
	}
	return m
}
