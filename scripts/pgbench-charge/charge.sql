-- One unbatched bunstore.Store.Charge (a charge alone in its batch): its
-- transaction calls bunstore_charge_batch (created by the store's
-- migrations) with one charge: the limits version check, the debit, the
-- running spend totals, the ledger row, the usage upsert (no idempotency
-- key here) in one subtransaction. The store sends BEGIN, the call and
-- COMMIT in one round trip; pgbench sends three.
\set n random(1, 2000000000)
BEGIN;
SELECT * FROM bunstore_charge_batch(jsonb_build_array(jsonb_build_object('tx', 'tx_' || :client_id || '_' || :n || '_' || txid_current(), 'agent', 'agt_pgbench', 'funds', 'real', 'micros', 3000, 'op', 'position_sizing', 'at', now(), 'day', date_trunc('day', now(), 'UTC'), 'month', date_trunc('month', now(), 'UTC'), 'version', 0)));
COMMIT;
