// Command loadtest measures a running reference server over HTTP: the free
// GET /v1/billing/pricing, then the metered POST /v1/sizing/calculate
// spread over several agents and from a single agent. It registers and
// funds its own agents (sandbox self-credit), then drives each scenario
// with a fixed number of keep-alive connections for a fixed time and
// prints requests per second, p50/p99 latency, the status counts and the
// ratio of each metered rate to the pricing rate.
//
//	go run ./scripts/loadtest -url http://127.0.0.1:8080 -label sqlite
//
// The server must let the test run: per-key and per-address rate limits
// off, sandbox self-credit on with a cap at least -fund (see
// scripts/load-metered.sh, which starts the server that way).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	cfg := config{}
	flag.StringVar(&cfg.baseURL, "url", "http://127.0.0.1:8080", "base URL of the server")
	flag.StringVar(&cfg.label, "label", "", "name of the run printed with every line (e.g. the store)")
	flag.IntVar(&cfg.conns, "c", 32, "concurrent connections")
	flag.DurationVar(&cfg.duration, "d", 8*time.Second, "measured duration of each scenario")
	flag.DurationVar(&cfg.warmup, "warmup", time.Second, "unmeasured load before each scenario")
	flag.IntVar(&cfg.agents, "agents", 8, "agents sharing the metered load in the multi-agent scenario")
	flag.StringVar(&cfg.fund, "fund", "10000", "test funds (USD) credited to each agent")
	flag.Parse()
	if err := run(context.Background(), cfg); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	baseURL  string
	label    string
	conns    int
	duration time.Duration
	warmup   time.Duration
	agents   int
	fund     string
}

// sizingBody is the metered request: a fixed position-sizing call.
const sizingBody = `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`

func run(ctx context.Context, cfg config) error {
	if cfg.conns < 1 || cfg.agents < 1 || cfg.duration <= 0 {
		return fmt.Errorf("-c, -agents and -d must be positive")
	}
	client := newClient(cfg.conns)
	base := strings.TrimRight(cfg.baseURL, "/")
	keys, err := setUpAgents(ctx, client, base, cfg.agents, cfg.fund)
	if err != nil {
		return err
	}
	scenarios := []scenario{
		{name: "GET /v1/billing/pricing (free)", request: get(base + "/v1/billing/pricing")},
		{name: fmt.Sprintf("POST /v1/sizing/calculate, %d agents", cfg.agents), request: post(base+"/v1/sizing/calculate", sizingBody, keys)},
		{name: "POST /v1/sizing/calculate, 1 agent", request: post(base+"/v1/sizing/calculate", sizingBody, keys[:1])},
	}
	fmt.Printf("%s: %d connections, %s per scenario (after %s warm-up), server %s\n",
		labelOr(cfg.label), cfg.conns, cfg.duration, cfg.warmup, base)
	var results []result
	for _, sc := range scenarios {
		if cfg.warmup > 0 {
			drive(ctx, client, sc, cfg.conns, cfg.warmup)
		}
		r := drive(ctx, client, sc, cfg.conns, cfg.duration)
		fmt.Println(r.line(cfg.label))
		results = append(results, r)
	}
	free := results[0].rate()
	for _, r := range results[1:] {
		if free > 0 {
			fmt.Printf("%s  ratio %-40s / pricing = %.3f\n", labelOr(cfg.label), r.name, r.rate()/free)
		}
	}
	return nil
}

func labelOr(label string) string {
	if label == "" {
		return "run"
	}
	return label
}

// newClient is an HTTP client keeping one connection per worker alive.
func newClient(conns int) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = conns
	tr.MaxIdleConnsPerHost = conns
	tr.MaxConnsPerHost = conns
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}
