package support_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/support"
)

// An agent opens a ticket (its description sealed with the agent's own
// key), finds it again by its reference, and lists its open tickets.
func Example() {
	ctx := context.Background()
	master, lookup, _ := tinkkeys.NewKeysets()
	keys, _ := tinkkeys.New(master, lookup)
	store := memstore.New()
	desk, _ := support.NewService(store, support.Config{Vault: cryptovault.New(keys)})
	reg, _ := agents.NewService(store, agents.Config{})
	registered, _ := reg.Register(ctx, agents.RegisterInput{OwnerID: "desk-7", AgentName: "ops", AgentType: "risk"}, "")
	ag := registered.Agent

	t, err := desk.CreateTicket(ctx, ag.ID, support.TicketInput{
		Subject: "Deposit not credited", Description: "tx 5h3... sent 10 USDC an hour ago",
		Priority: "high", Category: "billing"})
	if err != nil {
		panic(err)
	}
	again, _ := desk.Ticket(ctx, ag.ID, t.Ref)
	open, _ := desk.Tickets(ctx, ag.ID, "open", toolkit.PageInput{})
	fmt.Println(again.Status, again.Description, len(open.Tickets), open.HasMore)

	_, err = desk.Ticket(ctx, "agt_other00000000000", t.Ref)
	fmt.Println(toolkit.KindOf(err), "for another agent")
	// Output:
	// open tx 5h3... sent 10 USDC an hour ago 1 false
	// not_found for another agent
}
