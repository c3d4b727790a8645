package toolcall_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/finance/catalog"
)

// ExampleService_Call runs a priced tool for an agent from Go, exactly as
// the REST, tools/call and MCP surfaces do.
func ExampleService_Call() {
	ctx := context.Background()
	store := memstore.New()
	ag, _ := agents.NewService(store, agents.Config{})
	tools := catalog.Default()
	bill, _ := billing.NewService(store, billing.Config{SandboxSelfCredit: true, Prices: tools.Prices()})
	calls := toolcall.New(tools, bill, toolcall.Options{})

	registered, _ := ag.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Sizer", AgentType: "trading"}, "")
	a := registered.Agent
	_, _ = bill.Deposit(ctx, billing.AccountOf(a), billing.DepositInput{Amount: toolkit.MustParseAmount("1"), FundingPath: billing.FundingDirectTransfer})

	res, err := calls.Call(ctx, a, toolcall.Request{
		Tool:      "calculate_position_size",
		Arguments: []byte(`{"equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long"}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Tool, res.Operation, res.Charged, *res.Balance)
	// Output: calculate_position_size position_sizing 0.003 0.997
}
