package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/adapters/bunstore"

	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/driver/pgdriver"
)

// The sealed-data scenario: a full session through the real HTTP API of
// the reference server, then a dump of every column of every table,
// which must contain none of the plaintexts the steps declared secret and
// no API key.
//
// To cover a new sensitive field, add a step: a function that drives the
// API through the scenario and wraps each sensitive value in s.secret(...)
// (see sealed_support_test.go), then add one line to scenarioSteps. Steps
// run in order on one database, as agents registered with s.agent.

// scenarioStep is one part of the scenario.
type scenarioStep struct {
	name string
	run  func(t *testing.T, s *scenario)
}

// scenarioSteps lists every step, one feature per line.
func scenarioSteps() []scenarioStep {
	return slices.Concat(
		billingSteps(),
		supportSteps(),
		walletSteps(),
		workspaceSteps(),
	)
}

func TestDatabaseDumpHasNoPlaintextSQLite(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "toolkit.db")
	s := runScenario(t, dbPath, filepath.Join(dir, "keys.json"))
	raw, err := bunstore.OpenSQLiteDB("file:" + dbPath + "?mode=ro")
	require.NoError(t, err)
	t.Cleanup(func() { raw.Close() })
	s.assertSealed(t, raw, sqliteTables)
	// The database files themselves (main file and write-ahead log), not
	// only what SQL returns: no free page or log frame holds a plaintext.
	var files []byte
	for _, p := range []string{dbPath, dbPath + "-wal"} {
		b, err := os.ReadFile(p)
		if err == nil {
			files = append(files, b...)
		}
	}
	require.NotEmpty(t, files)
	require.True(t, bytes.Contains(files, []byte(s.canary)), "the raw files show clear data (the check can fail)")
	for _, secret := range s.secrets {
		assert.False(t, bytes.Contains(files, []byte(secret)), "the SQLite files contain %q", secret)
	}
}

func TestDatabaseDumpHasNoPlaintextPostgres(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	s := runScenario(t, dsn+sep+"search_path="+schema, filepath.Join(t.TempDir(), "keys.json"))
	raw := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithConnParams(map[string]any{"search_path": schema})))
	t.Cleanup(func() { raw.Close() })
	s.assertSealed(t, raw, postgresTables)
}

// scenario is the state of one run: the API, the secrets declared so far
// and a canary stored in the clear on purpose.
type scenario struct {
	t        *testing.T
	base     string
	adminKey string
	secrets  []string
	canary   string
	agents   int
}

// runScenario builds the reference server over db and the key file, serves
// it, and runs every step.
func runScenario(t *testing.T, db, keys string) *scenario {
	t.Helper()
	ctx := context.Background()
	node := solanarpctest.NewNode(t, solanarpctest.Fixtures(t)...)
	p, _, err := openPlatform(ctx, adapterConfig{DB: db, Keys: keys,
		Solana: solanaConfig{RPCURL: node.URL(), Treasury: solanarpctest.TreasuryKey.PublicKey().String()}},
		platform.Config{SandboxSelfCredit: true})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	s := &scenario{t: t, adminKey: "dump-admin-" + marker() + marker()}
	api, err := httpapi.New(p.Services, httpapi.Options{AdminKey: s.adminKey})
	require.NoError(t, err)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	s.base = srv.URL
	for _, step := range scenarioSteps() {
		t.Run(step.name, func(t *testing.T) {
			s.t = t
			step.run(t, s)
		})
		s.t = t
	}
	require.False(t, t.Failed(), "every step ran")
	return s
}

// marker returns a fresh random token, so no fixture text can match by
// accident.
func marker() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// secret returns a unique plaintext that must never reach the database,
// labelled for failure messages.
func (s *scenario) secret(label string) string {
	v := "plaintext-" + strings.ReplaceAll(label, " ", "-") + "-" + marker()
	s.secrets = append(s.secrets, v)
	return v
}

// secretEmail is secret shaped as an email address.
func (s *scenario) secretEmail(label string) string {
	v := "plaintext-" + strings.ReplaceAll(label, " ", "-") + "-" + marker() + "@example.com"
	s.secrets = append(s.secrets, v)
	return v
}

// agent registers an agent under a fresh owner and returns its id and
// API key; the key joins the secrets. The first agent's name is the
// canary: it is stored in the clear, so the dump must show it.
func (s *scenario) agent() (string, string) {
	s.t.Helper()
	s.agents++
	name := fmt.Sprintf("agent-%d", s.agents)
	if s.canary == "" {
		s.canary = "canary-" + marker()
		name = s.canary
	}
	status, m := s.call("POST", "/v1/agents/register", "", `{"owner_id":"owner-`+marker()+`","agent_name":"`+name+`","agent_type":"trading"}`)
	require.Equal(s.t, http.StatusCreated, status, m)
	key := m["api_key"].(string)
	s.secrets = append(s.secrets, key)
	return m["agent_id"].(string), key
}

// call sends a request with an agent key ("" for none) and decodes the
// JSON answer.
func (s *scenario) call(method, path, key, body string) (int, map[string]any) {
	return s.send(method, path, map[string]string{"X-API-Key": key}, body)
}

// admin sends a request with the admin key.
func (s *scenario) admin(method, path, body string) (int, map[string]any) {
	return s.send(method, path, map[string]string{"X-Admin-Key": s.adminKey}, body)
}

func (s *scenario) send(method, path string, headers map[string]string, body string) (int, map[string]any) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	var m map[string]any
	require.NoError(s.t, json.Unmarshal(raw, &m), "%s %s: %s", method, path, raw)
	return res.StatusCode, m
}

// assertSealed dumps the database through its own connection (what
// anyone holding a copy of the database sees) and checks no secret
// appears in any column, in the clear or hex- or base64-encoded, while
// the canary does.
func (s *scenario) assertSealed(t *testing.T, db *sql.DB, tablesQuery string) {
	t.Helper()
	require.NotEmpty(t, s.secrets)
	cells := dumpDatabase(t, db, tablesQuery)
	var all strings.Builder
	for _, c := range cells {
		all.WriteString(c.text)
		all.WriteByte('\n')
	}
	dump := all.String()
	require.Contains(t, dump, s.canary, "the dump shows clear data (the check can fail)")
	for _, secret := range s.secrets {
		for _, form := range []string{secret, hex.EncodeToString([]byte(secret)), base64.StdEncoding.EncodeToString([]byte(secret))} {
			if !strings.Contains(dump, form) {
				continue
			}
			for _, c := range cells {
				if strings.Contains(c.text, form) {
					t.Errorf("%s.%s holds the plaintext %q", c.table, c.column, secret)
				}
			}
		}
	}
}

// cell is one column value of one row, as text.
type cell struct {
	table, column, text string
}

// The queries listing the tables of each engine (the current schema on
// Postgres).
const (
	sqliteTables   = `SELECT name FROM sqlite_master WHERE type = 'table'`
	postgresTables = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
)

// dumpDatabase returns every column of every row of every table listed by
// tablesQuery, as text: byte columns as their raw bytes, everything else
// as the driver returns it.
func dumpDatabase(t *testing.T, db *sql.DB, tablesQuery string) []cell {
	t.Helper()
	var tables []string
	rows, err := db.QueryContext(context.Background(), tablesQuery)
	require.NoError(t, err)
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		tables = append(tables, name)
	}
	require.NoError(t, rows.Err())
	rows.Close()
	require.Contains(t, tables, "agents", "the dump sees the toolkit's tables")

	var out []cell
	for _, table := range tables {
		out = append(out, dumpTable(t, db, table)...)
	}
	return out
}

func dumpTable(t *testing.T, db *sql.DB, table string) []cell {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), `SELECT * FROM "`+strings.ReplaceAll(table, `"`, `""`)+`"`)
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []cell
	for rows.Next() {
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		for i, v := range values {
			var text string
			switch v := v.(type) {
			case nil:
				continue
			case []byte:
				text = string(v)
			case string:
				text = v
			default:
				text = fmt.Sprint(v)
			}
			out = append(out, cell{table: table, column: cols[i], text: text})
		}
	}
	require.NoError(t, rows.Err())
	return out
}
