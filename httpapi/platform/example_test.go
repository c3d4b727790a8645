package platform_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// Every service over an in-memory store and fresh keys; then one priced
// tool call from Go, metered like a call over HTTP or MCP.
func Example() {
	ctx := context.Background()
	master, lookup, _ := tinkkeys.NewKeysets()
	keys, _ := tinkkeys.New(master, lookup)
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys}, platform.Config{SandboxSelfCredit: true})
	if err != nil {
		panic(err)
	}
	defer p.Close()
	go p.Run(ctx)

	registered, _ := p.Agents.Register(ctx, agents.RegisterInput{OwnerID: "desk-7", AgentName: "sizer", AgentType: "trading"}, "")
	ag := registered.Agent
	_, _ = p.Billing.Deposit(ctx, billing.AccountOf(ag), billing.DepositInput{
		Amount: toolkit.MustParseAmount("1.00"), FundingPath: billing.FundingDirectTransfer})
	res, err := p.Calls.Call(ctx, ag, toolcall.Request{Tool: "calculate_position_size",
		Arguments: json.RawMessage(`{"equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long","risk_percent":"0.02"}`)})
	if err != nil {
		panic(err)
	}
	var out struct {
		Shares int `json:"shares"`
	}
	_ = json.Unmarshal(res.Response, &out)
	fmt.Printf("%d tools; %d shares; charged %s, left %s\n", len(p.Catalog.Tools()), out.Shares, res.Charged, res.Balance)
	// Output: 45 tools; 5000 shares; charged 0.003, left 0.997
}
