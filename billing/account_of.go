package billing

import "github.com/agentfinance/toolkit/agents"

// AccountOf is the agent's billing account, the one place its pricing and
// funds are decided for every surface (REST, tools/call, MCP, deposits): a
// sandbox agent pays from test funds, any other from real funds; a presale
// buyer pays presale prices.
func AccountOf(ag agents.Agent) Account {
	funds := FundsReal
	if ag.Mode == agents.ModeSandbox {
		funds = FundsTest
	}
	return Account{AgentID: ag.ID, Funds: funds, Presale: ag.PresaleBuyer}
}
