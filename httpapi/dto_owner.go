package httpapi

import (
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/owners"
)

// OwnerKeyResponse carries a new owner key, shown once.
type OwnerKeyResponse struct {
	OwnerID  string `json:"owner_id"`
	OwnerKey string `json:"owner_key"`
}

// OwnerAgentResponse is one agent as its owner sees it: mode, both
// balances, spend in the current UTC day and month, limits and key times.
type OwnerAgentResponse struct {
	AgentID           string          `json:"agent_id"`
	AgentName         string          `json:"agent_name"`
	AgentType         string          `json:"agent_type"`
	Mode              string          `json:"mode"`
	IsActive          bool            `json:"is_active"`
	CreatedAt         time.Time       `json:"created_at"`
	RealBalance       toolkit.Amount  `json:"real_balance"`
	SandboxBalance    toolkit.Amount  `json:"sandbox_balance"`
	SpentToday        toolkit.Amount  `json:"spent_today"`
	SpentThisMonth    toolkit.Amount  `json:"spent_this_month"`
	DailyLimit        *toolkit.Amount `json:"daily_limit"`
	MonthlyLimit      *toolkit.Amount `json:"monthly_limit"`
	AllowedOperations []string        `json:"allowed_operations"`
	IsPresaleBuyer    bool            `json:"is_presale_buyer"`
	KeyCreatedAt      time.Time       `json:"key_created_at"`
	KeyLastUsedAt     *time.Time      `json:"key_last_used_at"`
}

// OwnerAgentsResponse is the body of GET /v1/owner/agents.
type OwnerAgentsResponse struct {
	OwnerID string               `json:"owner_id"`
	Agents  []OwnerAgentResponse `json:"agents"`
	Count   int                  `json:"count"`
}

// UsageDayResponse totals one operation on one UTC day.
type UsageDayResponse struct {
	Day       string         `json:"day"`
	Operation string         `json:"operation"`
	Count     int64          `json:"count"`
	Cost      toolkit.Amount `json:"cost"`
}

// OwnerUsageResponse is the body of GET /v1/owner/usage: consumption per
// UTC day and operation over the owner's agents (or one), from and to
// inclusive, test and real funds alike (as spend limits count them).
type OwnerUsageResponse struct {
	OwnerID    string             `json:"owner_id"`
	AgentID    *string            `json:"agent_id"`
	From       string             `json:"from"`
	To         string             `json:"to"`
	Days       []UsageDayResponse `json:"days"`
	TotalCount int64              `json:"total_count"`
	TotalCost  toolkit.Amount     `json:"total_cost"`
}

// OwnerTransactionResponse is one ledger row of one of the owner's agents:
// the agent's id and the row as the agent's own ledger shows it.
type OwnerTransactionResponse struct {
	AgentID string `json:"agent_id"`
	TransactionResponse
}

// OwnerTransactionsResponse is one page of the owner's ledger across
// agents, newest first; next_cursor continues it (null on the last page).
type OwnerTransactionsResponse struct {
	Transactions []OwnerTransactionResponse `json:"transactions"`
	Count        int                        `json:"count"`
	HasMore      bool                       `json:"has_more"`
	NextCursor   *string                    `json:"next_cursor"`
}

// CeilingsResponse are the administrator's ceilings on an owner's limits
// (null: none; an empty list bounds nothing).
type CeilingsResponse struct {
	DailyLimit        *toolkit.Amount `json:"daily_limit"`
	MonthlyLimit      *toolkit.Amount `json:"monthly_limit"`
	AllowedOperations []string        `json:"allowed_operations"`
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (OwnerAgentResponse) Enums() map[string][]string {
	return map[string][]string{"agent_type": stringsOf(agents.Types()), "mode": stringsOf(agents.Modes())}
}

func ownerAgentResponse(v owners.AgentView) OwnerAgentResponse {
	a, s := v.Agent, v.Summary
	return OwnerAgentResponse{AgentID: a.ID, AgentName: a.Name, AgentType: string(a.Type), Mode: string(a.Mode),
		IsActive: a.IsActive(), CreatedAt: a.CreatedAt.UTC(), RealBalance: s.Balance, SandboxBalance: s.SandboxBalance,
		SpentToday: s.SpentToday, SpentThisMonth: s.SpentMonth, DailyLimit: s.Limits.DailyLimit, MonthlyLimit: s.Limits.MonthlyLimit,
		AllowedOperations: nonNil(s.Limits.AllowedOperations), IsPresaleBuyer: a.PresaleBuyer,
		KeyCreatedAt: a.KeyCreatedAt.UTC(), KeyLastUsedAt: a.KeyUsedAt}
}

func ownerTransactionResponse(tx billing.Transaction) OwnerTransactionResponse {
	return OwnerTransactionResponse{AgentID: tx.AgentID, TransactionResponse: transactionResponse(tx)}
}

func ceilingsResponse(c billing.LimitCeilings) CeilingsResponse {
	return CeilingsResponse{DailyLimit: c.DailyLimit, MonthlyLimit: c.MonthlyLimit, AllowedOperations: nonNil(c.AllowedOperations)}
}
