package migrations

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// chargeBatchFunction applies a batch of charges on Postgres in one call,
// so that the group commit sends a whole batch, its transaction control
// included, in one round trip. batch is a JSON array of charges (keys tx,
// agent, funds, micros, op, at, day, month, version, and optionally
// daily, monthly, key, hash, response in base64). Each charge runs in its
// own subtransaction and gets one row, in order (o_i from 0): o_outcome
// "ok" with the balance after it, the day and month totals including it
// and its ledger seq; "limits" (the stored limits are at o_version, not
// the version the caller checked), "insufficient", "daily" or "monthly"
// (a cap passed; the totals are returned), or "conflict" (a unique
// violation: its transaction id or idempotency key exists) with nothing
// written. Any other error fails the whole call. A charge is a
// conditional debit, the running totals (its caps checked on them under
// the balance row lock the debit took), the ledger row, the usage upsert
// and the idempotency row. A batch holds at most 64 charges, so its
// subtransactions stay within what Postgres caches per backend (64).
const chargeBatchFunction = `CREATE OR REPLACE FUNCTION bunstore_charge_batch(batch JSONB)
RETURNS TABLE (o_i INT, o_outcome TEXT, o_after BIGINT, o_day BIGINT, o_month BIGINT, o_seq BIGINT, o_version BIGINT)
LANGUAGE plpgsql AS $fn$
DECLARE
	c JSONB;
	v_amount BIGINT;
	v_at TIMESTAMPTZ;
BEGIN
	o_i := -1;
	FOR c IN SELECT value FROM jsonb_array_elements(batch) LOOP
		o_i := o_i + 1;
		o_outcome := 'ok'; o_after := NULL; o_day := NULL; o_month := NULL; o_seq := NULL;
		v_amount := (c->>'micros')::BIGINT;
		v_at := (c->>'at')::TIMESTAMPTZ;
		o_version := COALESCE((SELECT l.version FROM spend_limits l WHERE l.agent_id = c->>'agent'), 0);
		IF o_version <> (c->>'version')::BIGINT THEN
			o_outcome := 'limits';
			RETURN NEXT;
			CONTINUE;
		END IF;
		BEGIN
			IF c->>'funds' = 'test' THEN
				UPDATE balances b SET test_micros = b.test_micros - v_amount, updated_at = v_at
				WHERE b.agent_id = c->>'agent' AND b.test_micros >= v_amount RETURNING b.test_micros INTO o_after;
			ELSE
				UPDATE balances b SET micros = b.micros - v_amount, updated_at = v_at
				WHERE b.agent_id = c->>'agent' AND b.micros >= v_amount RETURNING b.micros INTO o_after;
			END IF;
			IF o_after IS NULL THEN
				o_outcome := 'insufficient';
			ELSE
				INSERT INTO spend_totals AS st (agent_id, day_start, day_micros, month_start, month_micros)
				VALUES (c->>'agent', (c->>'day')::TIMESTAMPTZ, v_amount, (c->>'month')::TIMESTAMPTZ, v_amount)
				ON CONFLICT (agent_id) DO UPDATE SET
					day_micros = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_micros ELSE st.day_micros + EXCLUDED.day_micros END,
					day_start = CASE WHEN st.day_start < EXCLUDED.day_start THEN EXCLUDED.day_start ELSE st.day_start END,
					month_micros = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_micros ELSE st.month_micros + EXCLUDED.month_micros END,
					month_start = CASE WHEN st.month_start < EXCLUDED.month_start THEN EXCLUDED.month_start ELSE st.month_start END
				RETURNING st.day_micros, st.month_micros INTO o_day, o_month;
				IF c->>'daily' IS NOT NULL AND o_day > (c->>'daily')::BIGINT THEN
					RAISE EXCEPTION 'daily';
				END IF;
				IF c->>'monthly' IS NOT NULL AND o_month > (c->>'monthly')::BIGINT THEN
					RAISE EXCEPTION 'monthly';
				END IF;
				INSERT INTO ledger (tx_id, agent_id, type, funds, amount_micros, balance_after_micros, operation, created_at)
				VALUES (c->>'tx', c->>'agent', 'consumption', c->>'funds', -v_amount, o_after, c->>'op', v_at)
				RETURNING ledger.seq INTO o_seq;
				INSERT INTO usage_totals AS u (agent_id, operation, call_count, total_micros)
				VALUES (c->>'agent', c->>'op', 1, v_amount)
				ON CONFLICT (agent_id, operation) DO UPDATE SET call_count = u.call_count + 1, total_micros = u.total_micros + EXCLUDED.total_micros;
				IF c->>'key' IS NOT NULL THEN
					INSERT INTO idempotency_keys (agent_id, idem_key, request_hash, response, created_at)
					VALUES (c->>'agent', c->>'key', c->>'hash', decode(c->>'response', 'base64'), v_at);
				END IF;
			END IF;
		EXCEPTION
			WHEN unique_violation THEN o_outcome := 'conflict';
			WHEN raise_exception THEN o_outcome := SQLERRM;
		END;
		RETURN NEXT;
	END LOOP;
END
$fn$`

// The batch charge function of Postgres (SQLite prepares its statements
// instead).
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name() != dialect.PG {
			return nil
		}
		_, err := db.ExecContext(ctx, chargeBatchFunction)
		return err
	}, func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name() != dialect.PG {
			return nil
		}
		_, err := db.ExecContext(ctx, `DROP FUNCTION IF EXISTS bunstore_charge_batch(JSONB)`)
		return err
	})
}
