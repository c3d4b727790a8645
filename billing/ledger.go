package billing

import (
	"context"
	"strconv"

	"github.com/agentfinance/toolkit"
)

// Ledger page sizes.
const (
	DefaultTransactionsLimit = 100
	MaxTransactionsLimit     = 1000
)

// TransactionPage is one page of an agent's ledger, newest first. When
// HasMore is true, NextCursor continues after the last row.
type TransactionPage struct {
	Transactions []Transaction
	toolkit.Page
}

// ledgerKeyset pages the ledger: rows newest first by sequence number (the
// cursor's id; its time is the row's).
var ledgerKeyset = toolkit.Keyset{Tag: "l2", DefaultLimit: DefaultTransactionsLimit, MaxLimit: MaxTransactionsLimit,
	ValidID: func(id string) bool {
		seq, err := strconv.ParseInt(id, 10, 64)
		return err == nil && seq > 0 && id == strconv.FormatInt(seq, 10)
	}}

// Transactions returns a page of up to limit ledger rows (0: 100; at most
// 1000), newest first, continuing after cursor (a NextCursor of an earlier
// page of the same agent; "" starts at the newest row). Pages are keyset
// pages over the ledger's sequence: rows credited or charged while a
// client pages through never repeat or hide the older rows. A cursor that
// was not made by this function is toolkit.Invalid.
func (s *Service) Transactions(ctx context.Context, agentID string, limit int, cursor string) (TransactionPage, error) {
	q, limit, err := s.transactionQuery(agentID, limit, cursor)
	if err != nil {
		return TransactionPage{}, err
	}
	return s.transactionPage(ctx, q, limit)
}

// transactionQuery checks a page request and returns its store query and
// its limit.
func (s *Service) transactionQuery(agentID string, limit int, cursor string) (TransactionQuery, int, error) {
	limit, after, err := ledgerKeyset.Parse(toolkit.PageInput{Limit: limit, Cursor: cursor})
	if err != nil {
		return TransactionQuery{}, 0, err
	}
	q := TransactionQuery{AgentID: agentID, Limit: limit + 1}
	if after != nil {
		q.BeforeSeq, _ = strconv.ParseInt(after.ID, 10, 64) // ValidID checked it
	}
	return q, limit, nil
}

// transactionPage reads one page: one row more than limit tells whether
// another page follows.
func (s *Service) transactionPage(ctx context.Context, q TransactionQuery, limit int) (TransactionPage, error) {
	txs, err := s.store.Transactions(ctx, q)
	if err != nil {
		return TransactionPage{}, toolkit.WithOp("billing.Transactions", err)
	}
	page := TransactionPage{}
	page.Transactions, page.Page = toolkit.PageOf(ledgerKeyset, txs, limit, func(tx Transaction) toolkit.Cursor {
		return toolkit.Cursor{At: tx.CreatedAt, ID: strconv.FormatInt(tx.Seq, 10)}
	})
	return page, nil
}
