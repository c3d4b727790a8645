package toolcall

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
)

// The billing classes of a tool, as GET /v1/tools/list and MCP's _meta
// name them.
const (
	BillingClassFree    = "free_public_tool" // no call costs anything
	BillingClassMetered = "metered"          // some call is debited from the balance
)

// Pricing is what a tool costs at list price: one operation, or one per
// value of the argument that picks the operation (evaluate_performance by
// tier). It is the one rule of "metered" for every listing (tools/list,
// MCP, the documents).
type Pricing struct {
	// Operation is the billed operation of the default arguments ("" when
	// the tool has none) and Price its list price in USDC credits.
	Operation string
	Price     toolkit.Amount
	// Argument is the argument that picks the operation; empty for a tool
	// with one price.
	Argument string
	// Choices are the operations a call can be billed as, each with its
	// list price (one, for a tool with one price).
	Choices []PricedChoice
}

// PricedChoice is one operation of a tool and its list price.
type PricedChoice struct {
	catalog.OperationChoice
	Price toolkit.Amount
}

// PricingOf prices t with price, the list price of an operation
// (billing.Service.Price with presale false).
func PricingOf(t catalog.Tool, price func(operation string) toolkit.Amount) Pricing {
	p := Pricing{Operation: t.Operation, Price: price(t.Operation)}
	for _, c := range t.BilledOperations() {
		p.Argument = c.Argument
		p.Choices = append(p.Choices, PricedChoice{OperationChoice: c, Price: price(c.Operation)})
	}
	return p
}

// Metered reports whether some call of the tool costs something.
func (p Pricing) Metered() bool {
	for _, c := range p.Choices {
		if c.Price.Sign() > 0 {
			return true
		}
	}
	return false
}

// BillingClass is BillingClassMetered or BillingClassFree.
func (p Pricing) BillingClass() string {
	if p.Metered() {
		return BillingClassMetered
	}
	return BillingClassFree
}
