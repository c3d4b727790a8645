-- The debit transaction of bunstore.Store.Charge, statement for statement.
\set n random(1, 2000000000)
BEGIN;
UPDATE balances SET micros = micros - 3000, updated_at = now() WHERE agent_id = 'agt_pgbench' AND micros >= 3000 RETURNING micros AS after \gset
INSERT INTO ledger (tx_id, agent_id, type, amount_micros, balance_after_micros, operation, created_at) VALUES ('tx_' || :client_id || '_' || :n || '_' || txid_current(), 'agt_pgbench', 'consumption', -3000, :after, 'position_sizing', now());
INSERT INTO usage_totals AS u (agent_id, operation, call_count, total_micros) VALUES ('agt_pgbench', 'position_sizing', 1, 3000) ON CONFLICT (agent_id, operation) DO UPDATE SET call_count = u.call_count + 1, total_micros = u.total_micros + EXCLUDED.total_micros;
COMMIT;
