package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

var _ billing.Store = (*Store)(nil)

type ledgerRow struct {
	bun.BaseModel `bun:"table:ledger"`
	Seq           int64     `bun:"seq,pk,autoincrement"`
	TxID          string    `bun:"tx_id"`
	AgentID       string    `bun:"agent_id"`
	Type          string    `bun:"type"`
	Funds         string    `bun:"funds"`
	AmountMicros  int64     `bun:"amount_micros"`
	BalanceAfter  int64     `bun:"balance_after_micros"`
	Operation     *string   `bun:"operation"`
	FundingPath   *string   `bun:"funding_path"`
	ExternalRef   *string   `bun:"external_ref"`
	Currency      *string   `bun:"currency"`
	Quantity      *string   `bun:"quantity"`
	PriceUSD      *string   `bun:"price_usd"`
	SealedSig     []byte    `bun:"tx_signature_sealed"`
	CreatedAt     time.Time `bun:"created_at"`
}

type usageRow struct {
	bun.BaseModel `bun:"table:usage_totals,alias:u"`
	AgentID       string `bun:"agent_id,pk"`
	Operation     string `bun:"operation,pk"`
	Count         int64  `bun:"call_count"`
	TotalMicros   int64  `bun:"total_micros"`
}

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys"`
	AgentID       string    `bun:"agent_id,pk"`
	Key           string    `bun:"idem_key,pk"`
	RequestHash   string    `bun:"request_hash"`
	Response      []byte    `bun:"response"`
	CreatedAt     time.Time `bun:"created_at"`
}

type spendLimitsRow struct {
	bun.BaseModel     `bun:"table:spend_limits"`
	AgentID           string  `bun:"agent_id,pk"`
	DailyMicros       *int64  `bun:"daily_micros"`
	MonthlyMicros     *int64  `bun:"monthly_micros"`
	AllowedOperations *string `bun:"allowed_operations"`
	CeilingDaily      *int64  `bun:"ceiling_daily_micros"`
	CeilingMonthly    *int64  `bun:"ceiling_monthly_micros"`
	CeilingOperations *string `bun:"ceiling_operations"`
	Version           int64   `bun:"version"`
}

// operationsText is an operations list as stored: JSON, NULL when empty.
func operationsText(ops []string) (*string, error) {
	if len(ops) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// parseOperations reads an operations list as stored.
func parseOperations(s *string) ([]string, error) {
	if s == nil {
		return nil, nil
	}
	var ops []string
	err := json.Unmarshal([]byte(*s), &ops)
	return ops, err
}

func (r ledgerRow) transaction() (billing.Transaction, error) {
	tx := billing.Transaction{
		TxID: r.TxID, AgentID: r.AgentID, Type: r.Type, Funds: billing.Funds(r.Funds), AmountMicros: r.AmountMicros,
		BalanceAfter: r.BalanceAfter, Operation: r.Operation, FundingPath: r.FundingPath, Currency: r.Currency,
		CreatedAt: r.CreatedAt.UTC(), Seq: r.Seq,
	}
	var err error
	if tx.Quantity, err = parseAmountText(r.Quantity); err != nil {
		return tx, err
	}
	tx.PriceUSD, err = parseAmountText(r.PriceUSD)
	return tx, err
}

// balanceColumn is the balance column of a class of funds; an empty class
// is real funds.
func balanceColumn(f billing.Funds) (billing.Funds, bun.Ident) {
	if f == billing.FundsTest {
		return billing.FundsTest, bun.Ident("test_micros")
	}
	return billing.FundsReal, bun.Ident("micros")
}

// Balance implements billing.Store.
func (s *Store) Balance(ctx context.Context, agentID string) (billing.BalanceRecord, error) {
	var row balanceRow
	if err := s.db.NewSelect().Model(&row).Where("agent_id = ?", agentID).Scan(ctx); err != nil {
		return billing.BalanceRecord{}, translate("bunstore.Balance", err)
	}
	return billing.BalanceRecord{AgentID: row.AgentID, Micros: row.Micros, TestMicros: row.TestMicros, UpdatedAt: row.UpdatedAt.UTC()}, nil
}

func spentSince(ctx context.Context, db bun.IDB, agentID string, since time.Time) (int64, error) {
	var spent sql.NullInt64
	err := db.NewSelect().Model((*ledgerRow)(nil)).ColumnExpr("SUM(-amount_micros)").
		Where("agent_id = ?", agentID).Where("type = ?", billing.TypeConsumption).
		Where("created_at >= ?", since.UTC()).Scan(ctx, &spent)
	return spent.Int64, err
}

// Credit implements billing.Store. The external reference is claimed by
// its unique index inside the transaction, so a payment credits once.
func (s *Store) Credit(ctx context.Context, req billing.CreditRequest) (billing.Transaction, error) {
	const op = "bunstore.Credit"
	var row ledgerRow
	funds, col := balanceColumn(req.Funds)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var after int64
		err := tx.NewUpdate().Model((*balanceRow)(nil)).
			Set("? = ? + ?", col, col, req.Micros).Set("updated_at = ?", req.At).
			Where("agent_id = ?", req.AgentID).Returning("?", col).Scan(ctx, &after)
		if err != nil {
			return err
		}
		if req.SelfCreditCapMicros > 0 {
			var credited sql.NullInt64
			err := tx.NewSelect().Model((*ledgerRow)(nil)).ColumnExpr("SUM(amount_micros)").
				Where("agent_id = ?", req.AgentID).Where("type = ?", billing.TypeDeposit).
				Where("funds = ?", string(billing.FundsTest)).Scan(ctx, &credited)
			if err != nil {
				return err
			}
			if credited.Int64+req.Micros > req.SelfCreditCapMicros {
				return toolkit.Errorf(toolkit.Forbidden,
					"amount: sandbox test credits are capped at $%s per agent ($%s already credited)",
					billing.USD(req.SelfCreditCapMicros), billing.USD(credited.Int64))
			}
		}
		path := req.FundingPath
		row = ledgerRow{TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeDeposit, Funds: string(funds),
			AmountMicros: req.Micros, BalanceAfter: after, FundingPath: &path, ExternalRef: req.ExternalRef,
			Currency: req.Currency, Quantity: amountText(req.Quantity), PriceUSD: amountText(req.PriceUSD),
			SealedSig: req.SealedSignature, CreatedAt: req.At}
		_, err = tx.NewInsert().Model(&row).Exec(ctx)
		return err
	})
	if err != nil {
		return billing.Transaction{}, translate(op, err)
	}
	out, err := row.transaction()
	return out, translate(op, err)
}

// Transactions implements billing.Store: a keyset page over the
// (agent_id, seq) index.
func (s *Store) Transactions(ctx context.Context, q billing.TransactionQuery) ([]billing.Transaction, error) {
	var rows []ledgerRow
	sel := s.db.NewSelect().Model(&rows)
	if q.AgentID != "" {
		sel = sel.Where("agent_id = ?", q.AgentID)
	} else {
		sel = sel.Where("agent_id IN (?)", bun.List(q.AgentIDs))
	}
	if q.BeforeSeq > 0 {
		sel = sel.Where("seq < ?", q.BeforeSeq)
	}
	err := sel.Order("seq DESC").Limit(int64(q.Limit)).Scan(ctx)
	if err != nil {
		return nil, translate("bunstore.Transactions", err)
	}
	out := make([]billing.Transaction, len(rows))
	for i, r := range rows {
		if out[i], err = r.transaction(); err != nil {
			return nil, translate("bunstore.Transactions", err)
		}
	}
	return out, nil
}

// Usage implements billing.Store.
func (s *Store) Usage(ctx context.Context, agentID string) ([]billing.UsageLine, error) {
	var rows []usageRow
	if err := s.db.NewSelect().Model(&rows).Where("agent_id = ?", agentID).Order("operation ASC").Scan(ctx); err != nil {
		return nil, translate("bunstore.Usage", err)
	}
	out := make([]billing.UsageLine, len(rows))
	for i, r := range rows {
		out[i] = billing.UsageLine{Operation: r.Operation, Count: r.Count, TotalMicros: r.TotalMicros}
	}
	return out, nil
}

// StoredResponse implements billing.Store.
func (s *Store) StoredResponse(ctx context.Context, agentID, key string) (billing.IdempotentResponse, error) {
	var row idempotencyRow
	if err := s.db.NewSelect().Model(&row).Where("agent_id = ?", agentID).Where("idem_key = ?", key).Scan(ctx); err != nil {
		return billing.IdempotentResponse{}, translate("bunstore.StoredResponse", err)
	}
	return billing.IdempotentResponse{Key: row.Key, RequestHash: row.RequestHash, Response: row.Response}, nil
}

// PruneStoredResponses implements billing.Store.
func (s *Store) PruneStoredResponses(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.NewDelete().Model((*idempotencyRow)(nil)).Where("created_at < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, translate("bunstore.PruneStoredResponses", err)
	}
	n, err := res.RowsAffected()
	return n, translate("bunstore.PruneStoredResponses", err)
}

// SpendLimits implements billing.Store.
func (s *Store) SpendLimits(ctx context.Context, agentID string) (billing.SpendLimits, error) {
	var row spendLimitsRow
	err := s.db.NewSelect().Model(&row).Where("agent_id = ?", agentID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return billing.SpendLimits{}, nil
	}
	if err != nil {
		return billing.SpendLimits{}, translate("bunstore.SpendLimits", err)
	}
	out := billing.SpendLimits{DailyMicros: row.DailyMicros, MonthlyMicros: row.MonthlyMicros, Version: row.Version,
		Ceilings: billing.Ceilings{DailyMicros: row.CeilingDaily, MonthlyMicros: row.CeilingMonthly}}
	if out.AllowedOperations, err = parseOperations(row.AllowedOperations); err != nil {
		return billing.SpendLimits{}, translate("bunstore.SpendLimits", err)
	}
	if out.Ceilings.AllowedOperations, err = parseOperations(row.CeilingOperations); err != nil {
		return billing.SpendLimits{}, translate("bunstore.SpendLimits", err)
	}
	return out, nil
}

// SetSpendLimits implements billing.Store.
func (s *Store) SetSpendLimits(ctx context.Context, agentID string, l billing.SpendLimits) error {
	const op = "bunstore.SetSpendLimits"
	row := spendLimitsRow{AgentID: agentID, DailyMicros: l.DailyMicros, MonthlyMicros: l.MonthlyMicros, Version: l.Version + 1,
		CeilingDaily: l.Ceilings.DailyMicros, CeilingMonthly: l.Ceilings.MonthlyMicros}
	var err error
	if row.AllowedOperations, err = operationsText(l.AllowedOperations); err != nil {
		return translate(op, err)
	}
	if row.CeilingOperations, err = operationsText(l.Ceilings.AllowedOperations); err != nil {
		return translate(op, err)
	}
	err = s.inChange(ctx, &agentID, func(ctx context.Context, tx bun.Tx) error {
		var res sql.Result
		var err error
		if l.Version == 0 {
			// The first caps of an agent: a concurrent first set makes this
			// insert a unique violation, i.e. Conflict.
			res, err = tx.NewInsert().Model(&row).Exec(ctx)
		} else {
			res, err = tx.NewUpdate().Model(&row).
				Column("daily_micros", "monthly_micros", "allowed_operations", "ceiling_daily_micros", "ceiling_monthly_micros", "ceiling_operations", "version").
				Where("agent_id = ?", agentID).Where("version = ?", l.Version).Exec(ctx)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return &toolkit.Error{Kind: toolkit.Conflict, Op: op, Msg: "the spend limits changed meanwhile", Err: err}
		}
		return nil
	})
	return translate(op, err)
}
