// Command pgbench-charge prepares a Postgres schema for
// scripts/pgbench-charge.sh: it runs the store's migrations in the schema
// and creates one funded agent, so pgbench can run the same debit
// transaction that bunstore.Store.Charge runs.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun/driver/pgdriver"
)

func main() {
	dsn := flag.String("db", os.Getenv("TOOLKIT_TEST_POSTGRES_URL"), "postgres:// URL")
	schema := flag.String("schema", "pgbench_charge", "schema to (re)create")
	flag.Parse()
	if err := run(context.Background(), *dsn, *schema); err != nil {
		fmt.Fprintln(os.Stderr, "pgbench-charge:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dsn, schema string) error {
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE; CREATE SCHEMA "+schema); err != nil {
		return err
	}
	store, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: schema})
	if err != nil {
		return err
	}
	defer store.Close()
	a := agents.Agent{ID: "agt_pgbench", OwnerID: "pgbench", Name: "pgbench", Type: agents.TypeTrading,
		Mode: agents.ModeSandbox, CreatedAt: time.Now().UTC()}
	if err := store.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("pgbench"), NewOwner: true}); err != nil {
		return err
	}
	_, err = store.Credit(ctx, billing.CreditRequest{TxID: "tx_pgbench_fund", AgentID: a.ID, Micros: 1 << 50,
		FundingPath: billing.FundingDirectTransfer, At: time.Now().UTC()})
	return err
}
