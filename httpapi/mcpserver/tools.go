package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is a catalog tool and its MCP definition. The definitions are
// built once, by New, and shared read-only by every session's server.
type tool struct {
	tool catalog.Tool
	def  *mcp.Tool
}

// defineTools defines every catalog tool for MCP from the toolformat MCP
// shape (one source with GET /v1/tools/list?format=mcp): its title, its
// input schema in the Anthropic list's form, its annotations (from its
// Effect), and what this server adds: its description ending with its
// price, its price in _meta (from the billing price table) and its
// outputSchema. It also returns the list as tools/list answers it (see
// ToolList).
func (h *Handler) defineTools() ([]tool, []byte, error) {
	tools := h.cfg.Catalog.Tools()
	shaped, err := toolformat.MCPTools(tools, h.served)
	if err != nil {
		return nil, nil, err
	}
	out := make([]tool, len(tools))
	defs := make([]*mcp.Tool, len(tools))
	for i, t := range shaped {
		a := t.Annotations
		def := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
			Annotations: &mcp.ToolAnnotations{Title: a.Title, ReadOnlyHint: a.ReadOnly, DestructiveHint: &a.Destructive,
				IdempotentHint: a.Idempotent, OpenWorldHint: &a.OpenWorld},
			Meta: t.Meta}
		if len(t.OutputSchema) > 0 { // a nil RawMessage in the interface would be a schema the SDK refuses
			def.OutputSchema = t.OutputSchema
		}
		out[i], defs[i] = tool{tool: tools[i], def: def}, def
	}
	list, err := encodeToolList(defs)
	if err != nil {
		return nil, nil, err
	}
	return out, list, nil
}

// served is what this server adds to tool t's MCP shape: its price (a
// sentence and _meta) and its output schema.
func (h *Handler) served(t catalog.Tool) (toolformat.Served, error) {
	price := toolcall.PricingOf(t, func(op string) toolkit.Amount { return h.cfg.Billing.Price(op, false) })
	s := toolformat.Served{Price: priceSentence(price), Meta: priceMeta(price)}
	if h.cfg.OutputSchema == nil {
		return s, nil
	}
	output, err := h.cfg.OutputSchema(t.Name)
	if err != nil || output == nil {
		return s, err
	}
	s.OutputSchema, err = json.Marshal(output)
	return s, err
}

// encodeToolList encodes the tools as the SDK writes the tools member of
// a tools/list result ({"tools": [...]}, ordered by name, without HTML
// escaping).
func encodeToolList(defs []*mcp.Tool) ([]byte, error) {
	defs = slices.SortedFunc(slices.Values(defs), func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Tools []*mcp.Tool `json:"tools"`
	}{defs}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ToolList is what tools/list answers, as {"tools": [...]}: every tool
// as this server lists it, byte for byte (GET /v1/tools/list?format=mcp
// serves it).
func (h *Handler) ToolList() []byte { return h.toolList }

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
