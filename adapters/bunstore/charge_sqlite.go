package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit/billing"
)

// SQLite charges are written by the committer (the single writer) on a
// connection of its own, sqliteWriter, with every statement of a charge
// prepared on it once: SQLite parses none of them per charge (parsing was
// a third of a metered call's CPU), and that connection's page cache
// survives its own commits (a connection's cache is emptied whenever
// another connection has committed; the readers' reads of the hot path
// are served from the services' caches instead).

// sqliteTimeLayout is how bun writes a time on SQLite
// (schema.BaseDialect.AppendTime). The prepared statements bind times as
// this text, so that they compare with what bun wrote.
const sqliteTimeLayout = "2006-01-02 15:04:05.999999-07:00"

// sqliteTime formats t as bun does on SQLite.
func sqliteTime(t time.Time) string { return t.UTC().Format(sqliteTimeLayout) }

// sqliteLimitsVersion reads the agent's stored limits version (0: never
// set) inside a charge's transaction.
const sqliteLimitsVersion = `SELECT COALESCE((SELECT version FROM spend_limits WHERE agent_id = ?), 0)`

// sqliteChargeSQL are the statements of one charge on SQLite.
var sqliteChargeSQL = map[string]string{
	"begin":      "BEGIN IMMEDIATE",
	"commit":     "COMMIT",
	"rollback":   "ROLLBACK",
	"savepoint":  "SAVEPOINT " + chargeSavepoint,
	"release":    "RELEASE SAVEPOINT " + chargeSavepoint,
	"undo":       "ROLLBACK TO SAVEPOINT " + chargeSavepoint,
	"version":    sqliteLimitsVersion,
	"debit-real": "UPDATE balances SET micros = micros - ?, updated_at = ? WHERE agent_id = ? AND micros >= ? RETURNING micros",
	"debit-test": "UPDATE balances SET test_micros = test_micros - ?, updated_at = ? WHERE agent_id = ? AND test_micros >= ? RETURNING test_micros",
	"totals":     spendTotalsUpsert,
	"ledger": `INSERT INTO ledger (tx_id, agent_id, type, funds, amount_micros, balance_after_micros, operation, created_at)
		VALUES (?, ?, 'consumption', ?, ?, ?, ?, ?) RETURNING seq`,
	"usage": `INSERT INTO usage_totals AS u (agent_id, operation, call_count, total_micros) VALUES (?, ?, 1, ?)
		ON CONFLICT (agent_id, operation) DO UPDATE SET call_count = u.call_count + 1, total_micros = u.total_micros + EXCLUDED.total_micros`,
	"idempotency": "INSERT INTO idempotency_keys (agent_id, idem_key, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?)",
}

// sqliteWriter is the SQLite committer's connection and its prepared
// charge statements, by name (sqliteChargeSQL).
type sqliteWriter struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

// newSQLiteWriter takes a connection from the pool for good and prepares
// the charge statements on it.
func (s *Store) newSQLiteWriter(ctx context.Context) (*sqliteWriter, error) {
	conn, err := s.db.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	w := &sqliteWriter{conn: conn, stmts: make(map[string]*sql.Stmt, len(sqliteChargeSQL))}
	for name, query := range sqliteChargeSQL {
		st, err := conn.PrepareContext(ctx, query)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("preparing the %s statement of a charge: %w", name, err)
		}
		w.stmts[name] = st
	}
	return w, nil
}

// close closes the statements and gives the connection back.
func (w *sqliteWriter) close() {
	for _, st := range w.stmts {
		_ = st.Close()
	}
	_ = w.conn.Close()
}

// exec runs a statement without results.
func (w *sqliteWriter) exec(ctx context.Context, name string, args ...any) error {
	_, err := w.stmts[name].ExecContext(ctx, args...)
	return err
}

// runSQLiteBatch is runChargeBatch on SQLite: one immediate transaction
// on the slot's writer, each charge of a batch of several under its own
// savepoint.
func (s *Store) runSQLiteBatch(ctx context.Context, slot *committerSlot, batch []*pendingCharge, results []chargeResult) (committed bool, err error) {
	if slot.sqlite == nil {
		if slot.sqlite, err = s.newSQLiteWriter(ctx); err != nil {
			return false, err
		}
	}
	w := slot.sqlite
	if err := w.exec(ctx, "begin"); err != nil {
		return false, err
	}
	var written *billing.ChargeRequest // the last charge applied
	for i, p := range batch {
		out, err := w.applyCharge(ctx, p.req, batchStep(batch, i))
		var broken *batchBroken
		if errors.As(err, &broken) {
			_ = w.exec(ctx, "rollback") // nothing of the batch commits
			return false, broken.err
		}
		if err == nil {
			results[i].tx, err = out.row.transaction()
			written = &p.req
		}
		results[i].err = err
	}
	if written == nil {
		// Every charge was refused: whatever a refused charge alone in its
		// transaction wrote is undone.
		return false, w.exec(ctx, "rollback")
	}
	if err := w.exec(ctx, "commit"); err != nil {
		_ = w.exec(ctx, "rollback")
		return s.resolveCommit(written, err)
	}
	return true, nil
}

// applyCharge writes one charge, under its own savepoint unless it is
// alone (chargeAlone, chargeFirst or chargeNext): a refusal or a fault of
// this charge is undone and returned (bunstore_charge_batch's answers on
// Postgres); batchBroken when the transaction cannot go on.
func (w *sqliteWriter) applyCharge(ctx context.Context, req billing.ChargeRequest, step chargeStep) (chargeOutcome, error) {
	alone := step == chargeAlone
	if !alone {
		if err := w.exec(ctx, "savepoint"); err != nil {
			return chargeOutcome{}, &batchBroken{err: err}
		}
	}
	out, err := w.writeCharge(ctx, req)
	if err != nil {
		if !alone {
			if uerr := errors.Join(w.exec(ctx, "undo"), w.exec(ctx, "release")); uerr != nil {
				return chargeOutcome{}, &batchBroken{err: errors.Join(err, uerr)}
			}
		}
		return chargeOutcome{}, translate("bunstore.Charge", err)
	}
	if !alone {
		if err := w.exec(ctx, "release"); err != nil {
			return chargeOutcome{}, &batchBroken{err: err}
		}
	}
	return out, nil
}

// writeCharge runs the statements of one charge: the limits version, the
// conditional debit, the running totals and the caps, the ledger row, the
// usage upsert and the idempotency row.
func (w *sqliteWriter) writeCharge(ctx context.Context, req billing.ChargeRequest) (chargeOutcome, error) {
	var out chargeOutcome
	var version int64
	if err := w.stmts["version"].QueryRowContext(ctx, req.AgentID).Scan(&version); err != nil {
		return out, err
	}
	if version != req.Limits.Version {
		return out, errLimitsChanged()
	}
	funds, _ := balanceColumn(req.Funds)
	at := sqliteTime(req.At)
	var after int64
	err := w.stmts["debit-"+string(funds)].QueryRowContext(ctx, req.Micros, at, req.AgentID, req.Micros).Scan(&after)
	if errors.Is(err, sql.ErrNoRows) {
		return out, errInsufficient()
	}
	if err != nil {
		return out, err
	}
	err = w.stmts["totals"].QueryRowContext(ctx, req.AgentID, sqliteTime(req.DayStart), req.Micros, sqliteTime(req.MonthStart), req.Micros).
		Scan(&out.dayTotal, &out.monthTotal)
	if err != nil {
		return out, err
	}
	if err := checkCaps(req, out); err != nil {
		return out, err
	}
	opName := req.Operation
	out.row = ledgerRow{TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeConsumption, Funds: string(funds),
		AmountMicros: -req.Micros, BalanceAfter: after, Operation: &opName, CreatedAt: req.At.UTC()}
	err = w.stmts["ledger"].QueryRowContext(ctx, req.TxID, req.AgentID, string(funds), -req.Micros, after, req.Operation, at).
		Scan(&out.row.Seq)
	if err != nil {
		return out, err
	}
	if err := w.exec(ctx, "usage", req.AgentID, req.Operation, req.Micros); err != nil {
		return out, err
	}
	if req.Idempotency != nil {
		i := req.Idempotency
		err = w.exec(ctx, "idempotency", req.AgentID, i.Key, i.RequestHash, i.Response, at)
	}
	return out, err
}
