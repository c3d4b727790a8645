//go:build faults || cluster

// What the fault suite and the cluster tests share: the databases they run
// servers on, the books checked in SQL, a funded agent and a priced call.

package main

import (
	"database/sql"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/driver/pgdriver"
)

// noLimits switches the rate limits off: the suite loads one server from
// one address on purpose.
var noLimits = []string{"-rate-key", "off", "-rate-ip", "off", "-rate-register", "off", "-metrics-addr", "off"}

const sizingBody = `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`

// faultDB is one database the suite runs servers on, and a connection of
// its own for the SQL checks and the faults.
type faultDB struct {
	name string
	dsn  string // what the servers are given
	db   *sql.DB
}

func postgresFaultDB(t *testing.T) faultDB {
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", "toolkit-fault")
	u.RawQuery = q.Encode()
	own := *u
	oq := own.Query()
	oq.Set("application_name", "toolkit-fault-checker")
	own.RawQuery = oq.Encode()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(own.String())))
	t.Cleanup(func() { db.Close() })
	return faultDB{name: "postgres", dsn: u.String(), db: db}
}

// booksHold checks every agent's books in SQL: each class's balance equals
// its ledger sum, no balance_after is negative, every ledger row's
// balance_after is the previous row's plus its amount (the running
// balance chain, per agent and class), and usage equals the consumption
// rows.
func (f faultDB) booksHold(t *testing.T) {
	t.Helper()
	checks := map[string]string{
		"balance = ledger sum (real)": `SELECT COUNT(*) FROM balances b WHERE b.micros <>
			COALESCE((SELECT SUM(amount_micros) FROM ledger l WHERE l.agent_id = b.agent_id AND l.funds = 'real'), 0)`,
		"balance = ledger sum (test)": `SELECT COUNT(*) FROM balances b WHERE b.test_micros <>
			COALESCE((SELECT SUM(amount_micros) FROM ledger l WHERE l.agent_id = b.agent_id AND l.funds = 'test'), 0)`,
		"no negative balance":       `SELECT COUNT(*) FROM balances WHERE micros < 0 OR test_micros < 0`,
		"no negative balance_after": `SELECT COUNT(*) FROM ledger WHERE balance_after_micros < 0`,
		"running-balance chain": `SELECT COUNT(*) FROM (SELECT balance_after_micros, amount_micros,
			LAG(balance_after_micros) OVER (PARTITION BY agent_id, funds ORDER BY seq) AS prev FROM ledger) l
			WHERE l.prev IS NOT NULL AND l.balance_after_micros <> l.prev + l.amount_micros`,
		"usage = ledger": `SELECT COUNT(*) FROM usage_totals u WHERE u.call_count <>
			(SELECT COUNT(*) FROM ledger l WHERE l.agent_id = u.agent_id AND l.operation = u.operation AND l.type = 'consumption')
			OR u.total_micros <> COALESCE((SELECT -SUM(amount_micros) FROM ledger l WHERE l.agent_id = u.agent_id
			AND l.operation = u.operation AND l.type = 'consumption'), 0)`,
	}
	for name, q := range checks {
		var bad int
		require.NoError(t, f.db.QueryRow(q).Scan(&bad), name)
		assert.Zero(t, bad, "%s: %s", f.name, name)
	}
}

// funded registers an agent on s, self-credits amount of test funds, and
// returns its key and id.
func funded(t *testing.T, s *server, owner, amount string) (key, id string) {
	status, reg := s.call("POST", "/v1/agents/register", nil, `{"owner_id":"`+owner+`","agent_name":"f","agent_type":"trading"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	key = reg["api_key"].(string)
	status, m := s.call("POST", "/v1/billing/deposit", map[string]string{"X-API-Key": key}, `{"amount":"`+amount+`","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, m)
	return key, reg["agent_id"].(string)
}

// charges counts an agent's consumption rows.
func (f faultDB) charges(t *testing.T, agentID string) int64 {
	var n int64
	require.NoError(t, f.db.QueryRow(`SELECT COUNT(*) FROM ledger WHERE type = 'consumption' AND agent_id = $1`, agentID).Scan(&n))
	return n
}

// post sends one sizing call and returns its status (0: no answer).
func post(client *http.Client, base, key, idem string) (int, string) {
	req, _ := http.NewRequest("POST", base+"/v1/sizing/calculate", strings.NewReader(sizingBody))
	req.Header.Set("X-API-Key", key)
	if idem != "" {
		req.Header.Set("Idempotency-Key", idem)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
