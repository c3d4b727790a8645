package billing

import (
	"context"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
)

// Transaction types in the ledger.
const (
	TypeConsumption = "consumption"
	TypeDeposit     = "deposit"
)

// Transaction is one ledger row. Amounts are micro-USD; consumption
// amounts are negative. Every row moves one class of funds, and
// BalanceAfter is that class's balance after the row.
type Transaction struct {
	TxID         string
	AgentID      string
	Type         string
	Funds        Funds
	AmountMicros int64
	BalanceAfter int64
	Operation    *string // set for consumption
	FundingPath  *string // set for deposits
	// Currency, Quantity and PriceUSD describe an on-chain deposit: the
	// asset received, its quantity in whole tokens and the USD price per
	// token it was credited at (the SOL market price, or the native
	// token's rate). Nil otherwise.
	Currency  *string
	Quantity  *toolkit.Amount
	PriceUSD  *toolkit.Amount
	CreatedAt time.Time
	// Seq is the row's sequence number, assigned by the store in the
	// order rows are written (> 0, unique in the store): the ledger's
	// order, newest first, is Seq descending.
	Seq int64
}

// TransactionQuery asks for rows of one agent's ledger, or of several
// agents' ledgers merged, newest first.
type TransactionQuery struct {
	AgentID string
	// AgentIDs, when AgentID is empty, selects the rows of any of these
	// agents (an owner's ledger across agents).
	AgentIDs []string
	// Limit is the most rows returned (> 0).
	Limit int
	// BeforeSeq, when > 0, returns only rows with a smaller Seq (older):
	// the page after the row with that Seq.
	BeforeSeq int64
}

// BalanceRecord is an agent's balance row: real funds (verified deposits)
// and test funds (sandbox self-credit), kept apart.
type BalanceRecord struct {
	AgentID    string
	Micros     int64 // real funds
	TestMicros int64 // test funds
	UpdatedAt  time.Time
}

// Of returns the balance of one class of funds.
func (b BalanceRecord) Of(f Funds) int64 {
	if f.normal() == FundsTest {
		return b.TestMicros
	}
	return b.Micros
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
	// Ceilings are the administrator's bounds on what the agent's owner
	// may set; they travel with the caps so one compare-and-swap covers
	// both.
	Ceilings Ceilings
	// Version counts the changes of the caps: 0 when never set, bumped by
	// every SetSpendLimits.
	Version int64
}

// Ceilings bound the spend caps an owner may set for an agent. Nil means
// no ceiling; an empty AllowedOperations bounds nothing.
type Ceilings struct {
	DailyMicros       *int64
	MonthlyMicros     *int64
	AllowedOperations []string
}

// UsageQuery asks for the consumption of some agents per UTC day in
// [From, To).
type UsageQuery struct {
	AgentIDs []string
	From, To time.Time
}

// DailyUsage totals one agent's consumption of one operation on one UTC
// day (whichever class of funds paid).
type DailyUsage struct {
	Day         time.Time // 00:00 UTC
	AgentID     string
	Operation   string
	Count       int64
	TotalMicros int64
}

// ChargeCheck is what the meter checks before a priced call runs, read
// by the store in one query: the balances, the spend caps and the
// consumption in the current cap windows.
type ChargeCheck struct {
	Balance BalanceRecord
	Limits  SpendLimits
	// SpentDay and SpentMonth are the consumption since the day and month
	// starts asked for.
	SpentDay   int64
	SpentMonth int64
}

// ChargeRequest is one debit. The store applies it in one transaction:
// conditional balance UPDATE (never below zero), spend-cap check against
// the agent's running consumption totals (never a ledger scan), ledger row, usage upsert and, with an idempotency key, the
// stored response.
type ChargeRequest struct {
	TxID      string
	AgentID   string
	Operation string
	// Funds is the class debited (empty: FundsReal); the other class is
	// never touched.
	Funds      Funds
	Micros     int64 // > 0
	At         time.Time
	DayStart   time.Time // start of the UTC day containing At (daily cap window)
	MonthStart time.Time // start of the UTC month containing At (monthly cap window)
	// Limits are the caps the caller checked the call against, as read
	// (Version included): the store applies them only while the agent's
	// stored limits are still at Limits.Version.
	Limits SpendLimits
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
	TxID    string
	AgentID string
	// Funds is the class credited (empty: FundsReal): FundsTest for
	// sandbox self-credit, FundsReal for verified payments.
	Funds       Funds
	Micros      int64 // > 0
	FundingPath string
	// ExternalRef identifies the external payment: for an on-chain deposit
	// the hex keyed hash of its transaction signature (the same on every
	// deposit endpoint), for an onramp payment the provider's reference.
	// It is unique across the ledger, which makes deposits exactly-once.
	// Nil for sandbox self-credits.
	ExternalRef *string
	// SealedSignature is the transaction signature sealed for the agent
	// (cryptovault, field "tx_signature"); nil when there is none.
	SealedSignature []byte
	// Currency, Quantity and PriceUSD describe an on-chain deposit (see
	// Transaction).
	Currency *string
	Quantity *toolkit.Amount
	PriceUSD *toolkit.Amount
	// SelfCreditCapMicros, when > 0, bounds the agent's total of test-fund
	// deposits, checked in the same transaction.
	SelfCreditCapMicros int64
	At                  time.Time
}

// ErrLimitsChanged is the cause of a charge refused because the agent's
// spend limits changed after the caller read them (see Store.Charge): a
// stale read can never lift a limit.
var ErrLimitsChanged = errors.New("the spend limits changed since they were read")

// Store persists balances, the ledger, usage, idempotency keys and spend
// limits. Every method is one transaction. Implementations live in
// adapters and must pass adapters/storetest.
type Store interface {
	// Balance returns the agent's balances (toolkit.NotFound if none).
	Balance(ctx context.Context, agentID string) (BalanceRecord, error)
	// ChargeCheck returns, in one round trip, the agent's balances
	// (toolkit.NotFound if none), its spend limits (zero value if never
	// set) and its consumption since dayStart and monthStart (the starts
	// of the current UTC day and month).
	ChargeCheck(ctx context.Context, agentID string, dayStart, monthStart time.Time) (ChargeCheck, error)
	// Charge debits the request's class of funds atomically (one
	// conditional UPDATE). toolkit.InsufficientCredits when that class's
	// balance is below the amount (nothing written), toolkit.Forbidden
	// when a spend cap would be exceeded, toolkit.Conflict when the
	// idempotency key is already stored, toolkit.Conflict wrapping
	// ErrLimitsChanged when the agent's stored spend limits are no longer
	// at req.Limits.Version (nothing written: the caller read them, or had
	// them cached, before a change). An error wrapping the caller's
	// context error (context.Canceled or DeadlineExceeded) means the
	// charge was not applied: a store that may still apply it after ctx
	// ends must answer with its outcome, not with ctx's error.
	Charge(ctx context.Context, req ChargeRequest) (Transaction, error)
	// Credit adds a deposit. toolkit.Conflict when ExternalRef was already
	// credited; toolkit.Forbidden when the self-credit cap would be exceeded.
	Credit(ctx context.Context, req CreditRequest) (Transaction, error)
	// Transactions returns up to q.Limit rows of q.AgentID's ledger, newest
	// first (Seq descending), older than q.BeforeSeq when set. Rows written
	// meanwhile never shift a later page: keyset pagination.
	Transactions(ctx context.Context, q TransactionQuery) ([]Transaction, error)
	// Usage returns the agent's usage totals by operation, alphabetical.
	Usage(ctx context.Context, agentID string) ([]UsageLine, error)
	// DailyUsage returns the consumption rows of q's agents in q's time
	// range totalled per UTC day, agent and operation, ordered by day,
	// agent and operation.
	DailyUsage(ctx context.Context, q UsageQuery) ([]DailyUsage, error)
	// StoredResponse returns the response stored under an idempotency key
	// (toolkit.NotFound if none).
	StoredResponse(ctx context.Context, agentID, key string) (IdempotentResponse, error)
	// PruneStoredResponses deletes the idempotency records of every agent
	// stored before a time and reports how many it deleted.
	PruneStoredResponses(ctx context.Context, before time.Time) (int64, error)
	// SpendLimits returns the agent's caps (zero value if never set).
	SpendLimits(ctx context.Context, agentID string) (SpendLimits, error)
	// SetSpendLimits replaces the agent's caps and ceilings if their stored version is
	// still limits.Version (0: never set), storing them as version
	// limits.Version+1 — a compare-and-swap: toolkit.Conflict when another
	// change came first, toolkit.NotFound for an unknown agent.
	SetSpendLimits(ctx context.Context, agentID string, limits SpendLimits) error
	// Spent returns the agent's consumption in micro-USD since a time.
	Spent(ctx context.Context, agentID string, since time.Time) (int64, error)
}
