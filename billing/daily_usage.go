package billing

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// MaxUsageDays bounds the range of a DailyUsage query.
const MaxUsageDays = 366

// DailyUsage returns the consumption of the given agents per UTC day,
// agent and operation, for the days from `from` through `to` (dates:
// their times are ignored). The range must hold 1 to MaxUsageDays days.
func (s *Service) DailyUsage(ctx context.Context, agentIDs []string, from, to time.Time) ([]DailyUsage, error) {
	from, to = utcDayStart(from), utcDayStart(to)
	switch days := int(to.Sub(from)/(24*time.Hour)) + 1; {
	case to.Before(from):
		return nil, toolkit.Errorf(toolkit.Invalid, "to: must not be before from (%s)", from.Format(time.DateOnly))
	case days > MaxUsageDays:
		return nil, toolkit.Errorf(toolkit.Invalid, "to: the range may hold at most %d days (got %d)", MaxUsageDays, days)
	}
	if len(agentIDs) == 0 {
		return []DailyUsage{}, nil
	}
	rows, err := s.store.DailyUsage(ctx, UsageQuery{AgentIDs: agentIDs, From: from, To: to.AddDate(0, 0, 1)})
	return rows, toolkit.WithOp("billing.DailyUsage", err)
}

// TransactionsOf is Transactions over the ledgers of several agents
// merged (an owner's ledger), newest first, with the same cursors.
func (s *Service) TransactionsOf(ctx context.Context, agentIDs []string, limit int, cursor string) (TransactionPage, error) {
	q, limit, err := s.transactionQuery("", limit, cursor)
	if err != nil || len(agentIDs) == 0 {
		return TransactionPage{Transactions: []Transaction{}}, err
	}
	q.AgentIDs = agentIDs
	return s.transactionPage(ctx, q, limit)
}
