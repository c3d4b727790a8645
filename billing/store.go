package billing

import (
	"context"
	"time"
)

// Transaction types in the ledger.
const (
	TypeConsumption = "consumption"
	TypeDeposit     = "deposit"
)

// Transaction is one ledger row. Amounts are micro-USD; consumption
// amounts are negative.
type Transaction struct {
	TxID         string
	AgentID      string
	Type         string
	AmountMicros int64
	BalanceAfter int64
	Operation    *string // set for consumption
	FundingPath  *string // set for deposits
	CreatedAt    time.Time
}

// BalanceRecord is an agent's balance row.
type BalanceRecord struct {
	AgentID   string
	Micros    int64
	UpdatedAt time.Time
}

// UsageLine totals the consumption of one operation.
type UsageLine struct {
	Operation   string
	Count       int64
	TotalMicros int64
}

// SpendLimits are an agent's optional spend caps. Nil means no cap; an
// empty AllowedOperations means every operation is allowed.
type SpendLimits struct {
	DailyMicros       *int64
	MonthlyMicros     *int64
	AllowedOperations []string
}

// ChargeRequest is one debit. The store applies it in one transaction:
// conditional balance UPDATE (never below zero), spend-cap check against
// the ledger, ledger row, usage upsert and, with an idempotency key, the
// stored response.
type ChargeRequest struct {
	TxID       string
	AgentID    string
	Operation  string
	Micros     int64 // > 0
	At         time.Time
	DayStart   time.Time // start of the UTC day containing At (daily cap window)
	MonthStart time.Time // start of the UTC month containing At (monthly cap window)
	Limits     SpendLimits
	// Idempotency, when Key is set, records Response under (AgentID, Key).
	Idempotency *IdempotentResponse
}

// IdempotentResponse is a stored response of a priced call.
type IdempotentResponse struct {
	Key         string
	RequestHash string // SHA-256 (hex) of the operation and the request body
	Response    []byte
}

// CreditRequest is one deposit.
type CreditRequest struct {
	TxID        string
	AgentID     string
	Micros      int64 // > 0
	FundingPath string
	// ExternalRef identifies the external payment (e.g. "solana:<sig>");
	// it is unique across the ledger, which makes deposits exactly-once.
	// Nil for sandbox self-credits.
	ExternalRef *string
	// SelfCreditCapMicros, when > 0, bounds the agent's total of
	// self-credits (deposits without ExternalRef), checked in the same
	// transaction.
	SelfCreditCapMicros int64
	At                  time.Time
}

// Store persists balances, the ledger, usage, idempotency keys and spend
// limits. Every method is one transaction. Implementations live in
// adapters and must pass adapters/storetest.
type Store interface {
	// Balance returns the agent's balance (toolkit.NotFound if none).
	Balance(ctx context.Context, agentID string) (BalanceRecord, error)
	// Charge debits atomically. toolkit.InsufficientCredits when the
	// balance is below the amount (nothing written), toolkit.Forbidden
	// when a spend cap would be exceeded, toolkit.Conflict when the
	// idempotency key is already stored.
	Charge(ctx context.Context, req ChargeRequest) (Transaction, error)
	// Credit adds a deposit. toolkit.Conflict when ExternalRef was already
	// credited; toolkit.Forbidden when the self-credit cap would be exceeded.
	Credit(ctx context.Context, req CreditRequest) (Transaction, error)
	// Transactions returns up to limit ledger rows, newest first.
	Transactions(ctx context.Context, agentID string, limit int) ([]Transaction, error)
	// Usage returns the agent's usage totals by operation, alphabetical.
	Usage(ctx context.Context, agentID string) ([]UsageLine, error)
	// StoredResponse returns the response stored under an idempotency key
	// (toolkit.NotFound if none).
	StoredResponse(ctx context.Context, agentID, key string) (IdempotentResponse, error)
	// PruneStoredResponses deletes the idempotency records of every agent
	// stored before a time and reports how many it deleted.
	PruneStoredResponses(ctx context.Context, before time.Time) (int64, error)
	// SpendLimits returns the agent's caps (zero value if never set).
	SpendLimits(ctx context.Context, agentID string) (SpendLimits, error)
	// SetSpendLimits replaces the agent's caps.
	SetSpendLimits(ctx context.Context, agentID string, limits SpendLimits) error
	// Spent returns the agent's consumption in micro-USD since a time.
	Spent(ctx context.Context, agentID string, since time.Time) (int64, error)
}
