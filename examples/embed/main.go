// Command embed shows the toolkit mounted inside an existing application:
// the application's own mux keeps its routes (a health page and a home
// page here) and the toolkit serves /v1/, MCP and its public documents next
// to them. It uses only the module's exported packages, so it can be copied
// into another module as it is.
//
//	go run ./examples/embed   # listens on :8081, SQLite in ./data/embed.db
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/httpapi"
)

func main() {
	ctx := context.Background()
	mux, closeStore, err := newMux(ctx, "data/embed.db")
	if err != nil {
		log.Fatal(err)
	}
	defer closeStore()
	srv := &http.Server{Addr: ":8081", Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stdout, "listening on http://localhost:8081 (own /healthz and /, toolkit under /v1/)")
	log.Fatal(srv.ListenAndServe())
}

// newMux builds the application's mux with its own routes and mounts the
// toolkit API on it: a store, the agents and billing services over it, the
// tool catalog, and the HTTP API.
func newMux(ctx context.Context, db string) (*http.ServeMux, func() error, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "My trading dashboard. The finance API lives under /v1/.")
	})

	if err := os.MkdirAll(filepath.Dir(db), 0o700); err != nil {
		return nil, nil, err
	}
	store, err := bunstore.Open(ctx, db, bunstore.Options{})
	if err != nil {
		return nil, nil, err
	}
	ag, err := agents.NewService(store, agents.Config{})
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	bill, err := billing.NewService(store, billing.Config{SandboxSelfCredit: true})
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	api, err := httpapi.New(httpapi.Services{Agents: ag, Billing: bill, Catalog: catalog.Default()},
		httpapi.Options{AdminKey: os.Getenv("TOOLKIT_ADMIN_KEY")})
	if err == nil {
		err = api.Mount(mux, httpapi.MountOptions{})
	}
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return mux, store.Close, nil
}
