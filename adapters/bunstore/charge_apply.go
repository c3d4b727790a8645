package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

// chargeSavepoint is the savepoint each charge of a batch runs under, so
// that a refused charge is undone without touching the others.
const chargeSavepoint = "charge"

// pgChargeStatement is one whole charge on Postgres, in one statement:
// the conditional debit of the class's column ({col}), the running spend
// totals, the ledger row, the usage upsert and, when the last argument is
// true, the idempotency row. Every write reads from the debit, so a
// balance too low, or stored spend limits at another version than the
// caller checked (the first two arguments: agent and version), write
// nothing: the one row returned then holds NULLs and the stored version.
// The caps are checked by the caller on the totals it returns (which
// include this charge), under the balance row lock the debit took.
const pgChargeStatement = `WITH lim AS (
	SELECT COALESCE((SELECT version FROM spend_limits WHERE agent_id = ?), 0) AS version, CAST(? AS BIGINT) AS checked
), debit AS (
	UPDATE balances SET {col} = {col} - ?, updated_at = ? WHERE agent_id = ? AND {col} >= ?
		AND (SELECT version = checked FROM lim) RETURNING {col} AS after
), totals AS (
	INSERT INTO spend_totals AS st (agent_id, day_start, day_micros, month_start, month_micros)
	SELECT ?, CAST(? AS TIMESTAMPTZ), ?, CAST(? AS TIMESTAMPTZ), ? FROM debit
	ON CONFLICT (agent_id) DO UPDATE SET
		day_micros = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_micros ELSE st.day_micros + EXCLUDED.day_micros END,
		day_start = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_start ELSE st.day_start END,
		month_micros = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_micros ELSE st.month_micros + EXCLUDED.month_micros END,
		month_start = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_start ELSE st.month_start END
	RETURNING st.day_micros, st.month_micros
), led AS (
	INSERT INTO ledger (tx_id, agent_id, type, funds, amount_micros, balance_after_micros, operation, created_at)
	SELECT ?, ?, 'consumption', ?, ?, debit.after, ?, CAST(? AS TIMESTAMPTZ) FROM debit RETURNING seq
), used AS (
	INSERT INTO usage_totals AS u (agent_id, operation, call_count, total_micros) SELECT ?, ?, 1, ? FROM debit
	ON CONFLICT (agent_id, operation) DO UPDATE SET call_count = u.call_count + 1, total_micros = u.total_micros + EXCLUDED.total_micros
), idem AS (
	INSERT INTO idempotency_keys (agent_id, idem_key, request_hash, response, created_at)
	SELECT ?, ?, ?, CAST(? AS BYTEA), CAST(? AS TIMESTAMPTZ) FROM debit WHERE ?
)
SELECT debit.after, totals.day_micros, totals.month_micros, led.seq, lim.version
FROM lim LEFT JOIN (debit CROSS JOIN totals CROSS JOIN led) ON true`

// pgChargeParams are the types of pgChargeStatement's parameters, in order.
var pgChargeParams = []string{
	"TEXT", "BIGINT", // limits version
	"BIGINT", "TIMESTAMPTZ", "TEXT", "BIGINT", // debit
	"TEXT", "TIMESTAMPTZ", "BIGINT", "TIMESTAMPTZ", "BIGINT", // totals
	"TEXT", "TEXT", "TEXT", "BIGINT", "TEXT", "TIMESTAMPTZ", // ledger
	"TEXT", "TEXT", "BIGINT", // usage
	"TEXT", "TEXT", "TEXT", "BYTEA", "TIMESTAMPTZ", "BOOLEAN", // idempotency
}

// pgChargeExecute runs the prepared charge statement of each class of
// funds, with bun placeholders for its parameters.
var pgChargeExecute = map[billing.Funds]string{
	billing.FundsReal: "EXECUTE bunstore_charge_real(" + strings.Repeat("?, ", len(pgChargeParams)-1) + "?)",
	billing.FundsTest: "EXECUTE bunstore_charge_test(" + strings.Repeat("?, ", len(pgChargeParams)-1) + "?)",
}

// pgPrepareCharges prepares, on a committer's connection, the charge
// statement of each class of funds: the server parses and plans it once
// per connection.
var pgPrepareCharges = pgPrepare("bunstore_charge_real", "micros") + "; " + pgPrepare("bunstore_charge_test", "test_micros")

// pgPrepare is the PREPARE of pgChargeStatement on one balance column,
// its bun placeholders turned into numbered parameters.
func pgPrepare(name, col string) string {
	statement := strings.ReplaceAll(pgChargeStatement, "{col}", col)
	var b strings.Builder
	n := 0
	for _, r := range statement {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return "PREPARE " + name + " (" + strings.Join(pgChargeParams, ", ") + ") AS " + b.String()
}

// chargeOutcome is what applying one charge inside a transaction wrote.
type chargeOutcome struct {
	row        ledgerRow
	dayTotal   int64 // the agent's daily total including this charge
	monthTotal int64 // the agent's monthly total including this charge
}

// errInsufficient is the refusal of a charge its balance cannot cover.
func errInsufficient() error {
	return toolkit.Errorf(toolkit.InsufficientCredits, "insufficient balance")
}

// errLimitsChanged is the refusal of a charge checked against spend
// limits that have changed since (billing.ErrLimitsChanged).
func errLimitsChanged() error {
	return &toolkit.Error{Kind: toolkit.Conflict, Msg: "the spend limits changed during the call; retry", Err: billing.ErrLimitsChanged}
}

// chargeStep says where a charge stands in its batch's transaction.
type chargeStep int

const (
	// chargeAlone is the only charge of its transaction: it needs no
	// savepoint, since a failure rolls the whole transaction back.
	chargeAlone chargeStep = iota
	// chargeAloneCommitting is a lone charge without caps on Postgres: its
	// transaction begins, runs the charge and commits in one round trip,
	// since nothing is left to check after the statement.
	chargeAloneCommitting
	// chargeFirst opens the batch's savepoint.
	chargeFirst
	// chargeNext releases the previous charge's savepoint and opens its own.
	chargeNext
)

// pgChargeSQL is the text applyChargePostgres sends for a step: the
// charge statement with the transaction control around it.
func pgChargeSQL(step chargeStep, statement string) string {
	switch step {
	case chargeAloneCommitting:
		return "BEGIN; " + statement + "; COMMIT"
	case chargeFirst:
		return "BEGIN; SAVEPOINT " + chargeSavepoint + "; " + statement
	case chargeNext:
		return "RELEASE SAVEPOINT " + chargeSavepoint + "; SAVEPOINT " + chargeSavepoint + "; " + statement
	}
	return "BEGIN; " + statement
}

// applyChargePostgres writes one charge on a Postgres connection with one
// round trip: the transaction control of its step (see chargeStep) and
// pgChargeStatement. A refusal (balance, caps, unique tx id or idempotency
// key) or a fault of this charge rolls back to the savepoint and is
// returned; the transaction stays usable. batchBroken means it is not, or,
// for chargeAloneCommitting, that the connection failed and whether the
// charge committed is unknown.
func applyChargePostgres(ctx context.Context, conn bun.IConn, req billing.ChargeRequest, step chargeStep) (chargeOutcome, error) {
	funds, _ := balanceColumn(req.Funds)
	var key, hash string
	var response []byte
	if req.Idempotency != nil {
		key, hash, response = req.Idempotency.Key, req.Idempotency.RequestHash, req.Idempotency.Response
	}
	if response == nil {
		response = []byte{}
	}
	at := req.At.UTC()
	rows, err := conn.QueryContext(ctx, pgChargeSQL(step, pgChargeExecute[funds]),
		req.AgentID, req.Limits.Version,
		req.Micros, at, req.AgentID, req.Micros,
		req.AgentID, req.DayStart.UTC(), req.Micros, req.MonthStart.UTC(), req.Micros,
		req.TxID, req.AgentID, string(funds), -req.Micros, req.Operation, at,
		req.AgentID, req.Operation, req.Micros,
		req.AgentID, key, hash, response, at, req.Idempotency != nil)
	if err != nil {
		return chargeOutcome{}, refuseOrFail(ctx, conn, err, step)
	}
	opName := req.Operation
	out := chargeOutcome{row: ledgerRow{TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeConsumption,
		Funds: string(funds), AmountMicros: -req.Micros, Operation: &opName, CreatedAt: at}}
	var after, day, month, seq sql.NullInt64
	var version int64
	if !rows.Next() {
		err = errors.Join(rows.Err(), errors.New("the charge statement returned no row"))
	} else {
		err = rows.Scan(&after, &day, &month, &seq, &version)
	}
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rows.Err()
	}
	switch {
	case err != nil:
		return chargeOutcome{}, refuseOrFail(ctx, conn, err, step)
	case version != req.Limits.Version:
		return chargeOutcome{}, errLimitsChanged() // nothing was written
	case !after.Valid:
		return chargeOutcome{}, errInsufficient() // nothing was written
	}
	out.row.BalanceAfter, out.dayTotal, out.monthTotal, out.row.Seq = after.Int64, day.Int64, month.Int64, seq.Int64
	if err := capsExceeded(req, out.dayTotal, out.monthTotal); err != nil {
		return chargeOutcome{}, refuseOrFail(ctx, conn, err, step)
	}
	return out, nil
}

// refuseOrFail rolls a charge back to its savepoint after err: the
// charge fails with err translated (a refusal such as a cap or a unique
// violation, or a fault of this charge alone) and the transaction stays
// usable for the others. When the rollback fails too, the transaction is
// unusable: batchBroken. A charge alone has no savepoint: its
// transaction, holding no other charge, is rolled back by the caller; a
// self-committing one whose connection failed is batchBroken (the commit
// may have happened), while an error the server reported means its
// transaction did not commit.
func refuseOrFail(ctx context.Context, conn bun.IConn, err error, step chargeStep) error {
	switch step {
	case chargeAloneCommitting:
		if isConnectionError(err) {
			return &batchBroken{err: err}
		}
		return translate("bunstore.Charge", err)
	case chargeAlone:
		return translate("bunstore.Charge", err)
	}
	if _, rerr := conn.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+chargeSavepoint); rerr != nil {
		return &batchBroken{err: errors.Join(err, rerr)}
	}
	return translate("bunstore.Charge", err)
}

// batchBroken wraps an error after which a batch's transaction cannot go
// on: it is rolled back and nothing in it is charged.
type batchBroken struct{ err error }

func (b *batchBroken) Error() string { return b.err.Error() }
func (b *batchBroken) Unwrap() error { return b.err }
