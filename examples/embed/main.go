// Command embed shows the toolkit mounted inside an existing application:
// the application's own mux keeps its routes (a health page and a home
// page here) and the toolkit serves /v1/ next to them.
//
//	go run ./examples/embed   # listens on :8081, SQLite in ./data/embed.db
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/agentfinance/toolkit/examples/internal/wiring"
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
// toolkit API on it.
func newMux(ctx context.Context, db string) (*http.ServeMux, func() error, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "My trading dashboard. The finance API lives under /v1/.")
	})

	svc, store, err := wiring.Open(ctx, wiring.Config{DB: db, SandboxSelfCredit: true})
	if err != nil {
		return nil, nil, err
	}
	api, err := httpapi.New(svc, httpapi.Options{AdminKey: os.Getenv("TOOLKIT_ADMIN_KEY")})
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	api.Mount(mux)
	mux.Handle("GET /readyz", api) // the toolkit's readiness: store reachable and migrated
	go svc.Guardian.Run(ctx)       // stores the security events as their windows close
	return mux, store.Close, nil
}
