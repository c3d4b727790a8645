package httpapi

import (
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
)

// PricingResponse is the body of GET /v1/billing/pricing.
type PricingResponse struct {
	Prices   map[string]toolkit.Amount `json:"prices"`
	Currency string                    `json:"currency"`
}

// BalanceResponse is an agent's balance: balance is what its calls are
// paid from now (test money in sandbox mode, real money otherwise, as
// pays_from says), is_low is about it, and real_balance and
// sandbox_balance show both kinds of money, which never mix.
type BalanceResponse struct {
	AgentID        string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Balance        toolkit.Amount `json:"balance" example:"75.00" doc:"what the agent's calls are paid from now (pays_from): the test credits in sandbox mode, the real credits otherwise; USDC credits"`
	RealBalance    toolkit.Amount `json:"real_balance" example:"75.00" doc:"real credits (verified deposits), spent by calls in live mode; never mixed with test credits"`
	SandboxBalance toolkit.Amount `json:"sandbox_balance" example:"0.00" doc:"test credits (sandbox self-credit), spent by calls in sandbox mode only; never mixed with real credits"`
	PaysFrom       string         `json:"pays_from" doc:"the credits the agent's calls are paid from now: test in sandbox mode, real otherwise"`
	IsLow          bool           `json:"is_low" doc:"balance is below the server's low-balance threshold"`
	UpdatedAt      time.Time      `json:"updated_at"`
}

// DepositRequest is the body of POST /v1/billing/deposit.
type DepositRequest struct {
	Amount        toolkit.Amount `json:"amount"`
	FundingPath   string         `json:"funding_path"`
	OnChainTxHash string         `json:"on_chain_tx_hash,omitempty"`
}

// TransactionResponse is one ledger row. funds is the class of money it
// moved (real or test) and balance_after that class's balance after it
// (for a sandbox agent's test rows and a live agent's real rows, the
// balance its calls were paid from);
// currency, quantity and price_usd describe an on-chain deposit (the
// asset, the tokens received, the USD credited per token).
type TransactionResponse struct {
	TxID         string          `json:"tx_id"`
	Type         string          `json:"type"`
	Funds        string          `json:"funds"`
	Amount       toolkit.Amount  `json:"amount" example:"25.00"`
	BalanceAfter toolkit.Amount  `json:"balance_after" example:"75.00" doc:"the balance of the funds this row moved (funds) right after it"`
	CreatedAt    time.Time       `json:"created_at"`
	Operation    *string         `json:"operation"`
	FundingPath  *string         `json:"funding_path"`
	Currency     *string         `json:"currency"`
	Quantity     *toolkit.Amount `json:"quantity"`
	PriceUSD     *toolkit.Amount `json:"price_usd"`
}

func transactionResponse(tx billing.Transaction) TransactionResponse {
	return TransactionResponse{TxID: tx.TxID, Type: tx.Type, Funds: string(tx.Funds), Amount: billing.USD(tx.AmountMicros),
		BalanceAfter: billing.USD(tx.BalanceAfter), CreatedAt: tx.CreatedAt.UTC(),
		Operation: tx.Operation, FundingPath: tx.FundingPath, Currency: tx.Currency, Quantity: tx.Quantity, PriceUSD: tx.PriceUSD}
}

// TransactionsResponse is one page of the ledger, newest first. Pass
// next_cursor as ?cursor= for the next page; it is null on the last one.
type TransactionsResponse struct {
	Transactions []TransactionResponse `json:"transactions"`
	Count        int                   `json:"count"`
	HasMore      bool                  `json:"has_more"`
	NextCursor   *string               `json:"next_cursor"`
}

// UsageEntry totals one operation.
type UsageEntry struct {
	Count     int64          `json:"count"`
	TotalCost toolkit.Amount `json:"total_cost" example:"0.012"`
}

// UsageResponse is the body of GET /v1/billing/usage.
type UsageResponse struct {
	AgentID    string                `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Operations map[string]UsageEntry `json:"operations"`
}

// LimitsRequest is the body of PUT /v1/agents/limits. Omitted or null caps
// are removed; an empty allowed_operations allows every operation.
type LimitsRequest struct {
	DailyLimit        *toolkit.Amount `json:"daily_limit,omitempty"`
	MonthlyLimit      *toolkit.Amount `json:"monthly_limit,omitempty"`
	AllowedOperations []string        `json:"allowed_operations,omitempty"`
}

func (req LimitsRequest) input() billing.LimitsInput {
	return billing.LimitsInput{DailyLimit: req.DailyLimit, MonthlyLimit: req.MonthlyLimit, AllowedOperations: req.AllowedOperations}
}

// LimitsResponse is an agent's spend caps.
type LimitsResponse struct {
	AgentID           string          `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	DailyLimit        *toolkit.Amount `json:"daily_limit" example:"25.00"`
	MonthlyLimit      *toolkit.Amount `json:"monthly_limit" example:"500.00"`
	AllowedOperations []string        `json:"allowed_operations"`
	// Ceilings bound what the agent's owner may set (admin).
	Ceilings CeilingsResponse `json:"ceilings"`
}

func balanceResponse(b billing.Balance) BalanceResponse {
	return BalanceResponse{AgentID: b.AgentID, Balance: b.Balance, RealBalance: b.RealBalance, SandboxBalance: b.SandboxBalance,
		PaysFrom: string(b.PaysFrom), IsLow: b.IsLow, UpdatedAt: b.UpdatedAt}
}

// DepositBalances are the balances every on-chain deposit answer carries:
// balance_after is what the agent's calls are paid from now, right after
// the deposit (for a sandbox agent, its test credits: an on-chain deposit
// adds real credits, shown in real_balance).
type DepositBalances struct {
	BalanceAfter   toolkit.Amount `json:"balance_after" example:"75.00" doc:"balance (what the agent's calls are paid from now) right after this deposit"`
	RealBalance    toolkit.Amount `json:"real_balance" example:"75.00" doc:"real credits (verified deposits), spent by calls in live mode; never mixed with test credits"`
	SandboxBalance toolkit.Amount `json:"sandbox_balance" example:"0.00" doc:"test credits (sandbox self-credit), spent by calls in sandbox mode only; never mixed with real credits"`
	PaysFrom       string         `json:"pays_from" doc:"the credits the agent's calls are paid from now: test in sandbox mode, real otherwise"`
}

func depositBalances(b billing.Balance) DepositBalances {
	return DepositBalances{BalanceAfter: b.Balance, RealBalance: b.RealBalance, SandboxBalance: b.SandboxBalance, PaysFrom: string(b.PaysFrom)}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (BalanceResponse) Enums() map[string][]string {
	return map[string][]string{"pays_from": fundsValues()}
}

func fundsValues() []string { return []string{string(billing.FundsTest), string(billing.FundsReal)} }

func limitsResponse(l billing.Limits) LimitsResponse {
	return LimitsResponse{AgentID: l.AgentID, DailyLimit: l.DailyLimit, MonthlyLimit: l.MonthlyLimit, AllowedOperations: l.AllowedOperations,
		Ceilings: ceilingsResponse(l.Ceilings)}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (PricingResponse) Enums() map[string][]string {
	return map[string][]string{"currency": {billing.Currency}}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (TransactionResponse) Enums() map[string][]string {
	return map[string][]string{"type": {billing.TypeConsumption, billing.TypeDeposit}, "funding_path": billing.FundingPaths()}
}
