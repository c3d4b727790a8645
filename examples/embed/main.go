// Command embed shows the toolkit mounted inside an existing application:
// the application's own mux keeps its routes (a health page and a home
// page here) and the toolkit serves /v1/, MCP and its public documents next
// to them. Every service runs (45 tools, billing, support, the workspace,
// brokers and the guardian) over the in-memory store, with encryption keys
// generated for this process. It uses only the module's exported packages,
// so it can be copied into another module as it is.
//
//	go run ./examples/embed   # listens on :8081; everything is lost at exit
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

func main() {
	mux, p, err := newMux()
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	go p.Run(context.Background())
	srv := &http.Server{Addr: ":8081", Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stdout, "listening on http://localhost:8081 (own /healthz and /, toolkit under /v1/ with %d tools)\n",
		len(p.Catalog.Tools()))
	log.Fatal(srv.ListenAndServe())
}

// newMux builds the application's mux with its own routes and mounts the
// toolkit on it: the platform over its ports (an in-memory store and
// fresh encryption keys), then the HTTP API over the platform's services.
func newMux() (*http.ServeMux, *platform.Platform, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "My trading dashboard. The finance API lives under /v1/.")
	})

	master, lookup, err := tinkkeys.NewKeysets()
	if err != nil {
		return nil, nil, err
	}
	keys, err := tinkkeys.New(master, lookup)
	if err != nil {
		return nil, nil, err
	}
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys}, platform.Config{SandboxSelfCredit: true})
	if err != nil {
		return nil, nil, err
	}
	api, err := httpapi.New(p.Services, httpapi.Options{AdminKey: os.Getenv("TOOLKIT_ADMIN_KEY")})
	if err == nil {
		err = api.Mount(mux, httpapi.MountOptions{})
	}
	if err != nil {
		p.Close()
		return nil, nil, err
	}
	return mux, p, nil
}
