package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
)

// On Postgres a batch of charges, whatever its size, is one round trip:
// its transaction control and one call of bunstore_charge_batch (created
// by a migration), which applies each charge in its own subtransaction
// and returns one row per charge.
const pgChargeBatch = `BEGIN; SELECT o_i, o_outcome, o_after, o_day, o_month, o_seq, o_version
FROM bunstore_charge_batch(CAST(? AS JSONB)); COMMIT`

// pgCharge is one charge as bunstore_charge_batch reads it.
type pgCharge struct {
	TxID     string    `json:"tx"`
	AgentID  string    `json:"agent"`
	Funds    string    `json:"funds"`
	Micros   int64     `json:"micros"`
	Op       string    `json:"op"`
	At       time.Time `json:"at"`
	Day      time.Time `json:"day"`
	Month    time.Time `json:"month"`
	Version  int64     `json:"version"`
	Daily    *int64    `json:"daily,omitempty"`
	Monthly  *int64    `json:"monthly,omitempty"`
	Key      *string   `json:"key,omitempty"`
	Hash     string    `json:"hash,omitempty"`
	Response string    `json:"response,omitempty"` // base64
}

// pgBatchJSON is a batch as the function's argument.
func pgBatchJSON(batch []*pendingCharge) (string, error) {
	charges := make([]pgCharge, len(batch))
	for i, p := range batch {
		r := p.req
		funds, _ := balanceColumn(r.Funds)
		c := pgCharge{TxID: r.TxID, AgentID: r.AgentID, Funds: string(funds), Micros: r.Micros, Op: r.Operation,
			At: r.At.UTC(), Day: r.DayStart.UTC(), Month: r.MonthStart.UTC(), Version: r.Limits.Version,
			Daily: r.Limits.DailyMicros, Monthly: r.Limits.MonthlyMicros}
		if r.Idempotency != nil {
			c.Key, c.Hash = &r.Idempotency.Key, r.Idempotency.RequestHash
			c.Response = base64.StdEncoding.EncodeToString(r.Idempotency.Response)
		}
		charges[i] = c
	}
	b, err := json.Marshal(charges)
	return string(b), err
}

// pgOutcome is bunstore_charge_batch's row of one charge.
type pgOutcome struct {
	outcome                string
	after, day, month, seq sql.NullInt64
	version                int64
}

// result is the answer of the charge req that got outcome o.
func (o pgOutcome) result(req billing.ChargeRequest) chargeResult {
	switch o.outcome {
	case "ok":
		funds, _ := balanceColumn(req.Funds)
		op := req.Operation
		row := ledgerRow{Seq: o.seq.Int64, TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeConsumption, Funds: string(funds),
			AmountMicros: -req.Micros, BalanceAfter: o.after.Int64, Operation: &op, CreatedAt: req.At.UTC()}
		tx, err := row.transaction()
		return chargeResult{tx: tx, err: err}
	case "limits":
		return chargeResult{err: errLimitsChanged()}
	case "insufficient":
		return chargeResult{err: errInsufficient()}
	case "daily", "monthly":
		cap := req.Limits.DailyMicros
		total := o.day.Int64
		if o.outcome == "monthly" {
			cap, total = req.Limits.MonthlyMicros, o.month.Int64
		}
		return chargeResult{err: billing.CapExceeded(o.outcome, *cap, total-req.Micros, req.Micros)}
	case "conflict":
		return chargeResult{err: &toolkit.Error{Kind: toolkit.Conflict, Op: "bunstore.Charge", Msg: "already exists",
			Err: errors.New("the transaction id or the idempotency key is already stored")}}
	}
	return chargeResult{err: &toolkit.Error{Kind: toolkit.Internal, Op: "bunstore.Charge", Err: fmt.Errorf("unknown charge outcome %q", o.outcome)}}
}

// runPostgresBatch is runChargeBatch on Postgres, on the slot's
// connection: one round trip. An error the server reported means nothing
// committed; a connection that failed leaves the outcome to be found in
// the ledger.
func (s *Store) runPostgresBatch(ctx context.Context, slot *committerSlot, batch []*pendingCharge, results []chargeResult) (committed bool, err error) {
	arg, err := pgBatchJSON(batch)
	if err != nil {
		return false, err
	}
	conn, err := s.committerConn(ctx, slot)
	if err != nil {
		return false, err
	}
	outcomes, err := pgApplyBatch(ctx, conn, arg, len(batch))
	if err == nil {
		for i, p := range batch {
			results[i] = outcomes[i].result(p.req)
		}
		return true, nil
	}
	if _, rerr := conn.ExecContext(ctx, "ROLLBACK"); rerr != nil || isConnectionError(err) {
		// A connection that failed, or cannot end its transaction, is
		// discarded, never reused.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
		slot.conn = nil
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) && !isConnectionError(err) {
		return false, err // the server refused the batch: it did not commit
	}
	return s.committedBatch(batch, results, err)
}

// pgApplyBatch sends the batch and reads one outcome per charge.
func pgApplyBatch(ctx context.Context, conn bun.IConn, arg string, n int) ([]pgOutcome, error) {
	rows, err := conn.QueryContext(ctx, pgChargeBatch, arg)
	if err != nil {
		return nil, err
	}
	outcomes := make([]pgOutcome, n)
	seen := 0
	for rows.Next() {
		var i int
		var o pgOutcome
		if err = rows.Scan(&i, &o.outcome, &o.after, &o.day, &o.month, &o.seq, &o.version); err != nil {
			break
		}
		if i < 0 || i >= n {
			err = fmt.Errorf("bunstore_charge_batch answered for charge %d of %d", i, n)
			break
		}
		outcomes[i] = o
		seen++
	}
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rows.Err()
	}
	if err == nil && seen != n {
		err = fmt.Errorf("bunstore_charge_batch answered for %d of %d charges", seen, n)
	}
	return outcomes, err
}

// committedBatch finds out, after a batch whose answer was lost to err,
// which of its charges are in the ledger: the batch committed if any is,
// and then each charge not found was refused (it is answered as not
// charged, retry). It first takes the balance row locks of the batch's
// agents (in agent order, as the batch did), so a commit still under way
// is waited for (see lookupCommitted); when the ledger cannot be read, err
// is wrapped with errOutcomeUnknown.
func (s *Store) committedBatch(batch []*pendingCharge, results []chargeResult, err error) (committed bool, _ error) {
	ids := make([]string, len(batch))
	agentIDs := make([]string, 0, len(batch))
	for i, p := range batch {
		ids[i] = p.req.TxID
		if len(agentIDs) == 0 || agentIDs[len(agentIDs)-1] != p.req.AgentID {
			agentIDs = append(agentIDs, p.req.AgentID)
		}
	}
	rows, lookup := s.lookupCommitted(agentIDs, ids)
	if lookup != nil {
		return false, errors.Join(errOutcomeUnknown, err, lookup)
	}
	return fillCommitted(batch, results, rows), err
}

// fillCommitted answers a batch whose charges found in the ledger are
// rows: none found means the batch did not commit (or wrote nothing);
// otherwise a charge found stands and one not found was refused.
func fillCommitted(batch []*pendingCharge, results []chargeResult, rows []ledgerRow) (committed bool) {
	if len(rows) == 0 {
		return false
	}
	byID := make(map[string]ledgerRow, len(rows))
	for _, r := range rows {
		byID[r.TxID] = r
	}
	for i, p := range batch {
		if r, ok := byID[p.req.TxID]; ok {
			results[i].tx, results[i].err = r.transaction()
			continue
		}
		results[i].err = &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.Charge", RetryAfter: databaseRetryAfter,
			Msg: "the database stopped answering while this charge was committed; it was not recorded: retry"}
	}
	return true
}
