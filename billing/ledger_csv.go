package billing

import (
	"time"

	"github.com/agentfinance/toolkit"
)

// LedgerCSVHeader names the columns of a ledger exported as CSV (the
// owner API's Accept: text/csv answer and the portal's download).
var LedgerCSVHeader = []string{"agent_id", "tx_id", "created_at", "type", "funds", "operation", "funding_path",
	"amount", "balance_after", "currency", "quantity", "price_usd"}

// LedgerCSVRecord is one ledger row as a CSV record in the order of
// LedgerCSVHeader: amounts as decimal strings, times in RFC 3339 (UTC),
// empty cells for absent values.
func LedgerCSVRecord(tx Transaction) []string {
	text := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	amount := func(a *toolkit.Amount) string {
		if a == nil {
			return ""
		}
		return a.String()
	}
	return []string{tx.AgentID, tx.TxID, tx.CreatedAt.UTC().Format(time.RFC3339Nano), tx.Type, string(tx.Funds), text(tx.Operation),
		text(tx.FundingPath), USD(tx.AmountMicros).String(), USD(tx.BalanceAfter).String(), text(tx.Currency),
		amount(tx.Quantity), amount(tx.PriceUSD)}
}
