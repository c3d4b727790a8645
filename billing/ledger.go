package billing

import (
	"context"
	"encoding/base64"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// Ledger page sizes.
const (
	DefaultTransactionsLimit = 100
	MaxTransactionsLimit     = 1000
)

// MaxCursorLen bounds a ledger cursor before it is decoded.
const MaxCursorLen = 128

// TransactionPage is one page of an agent's ledger, newest first. When
// HasMore is true, NextCursor continues after the last row.
type TransactionPage struct {
	Transactions []Transaction
	HasMore      bool
	NextCursor   string
}

// Transactions returns a page of up to limit ledger rows (1..1000),
// newest first, continuing after cursor (a NextCursor of an earlier page
// of the same agent; "" starts at the newest row). Pages are keyset
// pages over the ledger's sequence: rows credited or charged while a
// client pages through never repeat or hide the older rows. A cursor that was not made by this
// function is toolkit.Invalid.
func (s *Service) Transactions(ctx context.Context, agentID string, limit int, cursor string) (TransactionPage, error) {
	q, err := s.transactionQuery(agentID, limit, cursor)
	if err != nil {
		return TransactionPage{}, err
	}
	return s.transactionPage(ctx, q, limit)
}

// transactionQuery checks a page request and returns its store query.
func (s *Service) transactionQuery(agentID string, limit int, cursor string) (TransactionQuery, error) {
	if limit < 1 || limit > MaxTransactionsLimit {
		return TransactionQuery{}, toolkit.Errorf(toolkit.Invalid, "limit: must be between 1 and %d (got %d)", MaxTransactionsLimit, limit)
	}
	q := TransactionQuery{AgentID: agentID, Limit: limit + 1}
	if cursor != "" {
		seq, ok := decodeLedgerCursor(cursor)
		if !ok {
			return TransactionQuery{}, toolkit.Errorf(toolkit.Invalid, "cursor: must be the next_cursor of a previous page, unchanged")
		}
		q.BeforeSeq = seq
	}
	return q, nil
}

// transactionPage reads one page: one row more than limit tells whether
// another page follows.
func (s *Service) transactionPage(ctx context.Context, q TransactionQuery, limit int) (TransactionPage, error) {
	txs, err := s.store.Transactions(ctx, q)
	if err != nil {
		return TransactionPage{}, toolkit.WithOp("billing.Transactions", err)
	}
	page := TransactionPage{Transactions: txs}
	if len(txs) > limit {
		page.Transactions, page.HasMore = txs[:limit], true
		page.NextCursor = encodeLedgerCursor(txs[limit-1].Seq)
	}
	return page, nil
}

// ledgerCursorVersion starts every ledger cursor so the format can change.
const ledgerCursorVersion = "l1"

// encodeLedgerCursor makes the opaque cursor continuing after the row
// with sequence number seq: base64url of "l1.<seq>.<CRC-32 of the
// preceding>". The checksum makes an edited cursor a 400 instead of a page
// from somewhere else; a cursor only ever selects rows of the caller's own
// ledger, so it needs no secret.
func encodeLedgerCursor(seq int64) string {
	body := ledgerCursorVersion + "." + strconv.FormatInt(seq, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(body + "." + checksum(body)))
}

// decodeLedgerCursor reverses encodeLedgerCursor, refusing anything it did
// not make.
func decodeLedgerCursor(s string) (int64, bool) {
	if len(s) > MaxCursorLen {
		return 0, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return 0, false
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 3 || parts[0] != ledgerCursorVersion || checksum(parts[0]+"."+parts[1]) != parts[2] {
		return 0, false
	}
	seq, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || seq < 1 {
		return 0, false
	}
	return seq, true
}

// checksum is the CRC-32 of s in hex.
func checksum(s string) string {
	return strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(s))), 16)
}
