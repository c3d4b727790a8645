package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// operations is the part of the configuration about running the server:
// rate limits, the client address behind a proxy, CORS, metrics and TLS.
type operations struct {
	rateLimits   httpapi.RateLimits
	rateStore    bool // share the limits through the database
	trustedProxy httpapi.TrustedProxy
	cors         *httpapi.CORS
	metricsAddr  string // "" or "off": no metrics listener
	tls          tlsOptions
	// mcpKeepAlive is how often a legacy SSE MCP stream gets a keep-alive
	// comment (negative: never).
	mcpKeepAlive time.Duration
	// shutdownTimeout bounds a graceful shutdown: requests under way get
	// this long to finish.
	shutdownTimeout time.Duration
}

// operationFlags declares the flags of the operations and returns the
// function that reads them once parsed.
func operationFlags(fs *flag.FlagSet, env func(k, def string) string) func() (operations, error) {
	def := httpapi.DefaultRateLimits
	limits := []struct {
		name, envName, usage string
		dst                  *guardian.Limit
		value                *string
	}{
		{"rate-key", "TOOLKIT_RATE_KEY", "requests per API key", &def.PerKey, nil},
		{"rate-ip", "TOOLKIT_RATE_IP", "requests per client address on public routes", &def.PerIP, nil},
		{"rate-register", "TOOLKIT_RATE_REGISTER", "registrations per client address", &def.Register, nil},
		{"rate-register-wallet", "TOOLKIT_RATE_REGISTER_WALLET", "wallet registrations per client address", &def.RegisterWallet, nil},
		{"rate-report", "TOOLKIT_RATE_REPORT", "guardian reports per client address", &def.Report, nil},
		{"rate-auth-failures", "TOOLKIT_RATE_AUTH_FAILURES", "failed authentications per client address before it is blocked", &def.AuthFailures, nil},
	}
	for i := range limits {
		l := &limits[i]
		l.value = fs.String(l.name, env(l.envName, l.dst.String()), l.usage+": N/s, N/m, N/h, N/d or off ("+l.envName+")")
	}
	rateStore := fs.Bool("rate-store", env("TOOLKIT_RATE_STORE", "false") == "true",
		"keep rate-limit buckets in the database, shared by every instance on it (TOOLKIT_RATE_STORE)")
	proxyHeader := fs.String("trusted-proxy-header", env("TOOLKIT_TRUSTED_PROXY_HEADER", ""),
		"header carrying the client address set by a reverse proxy, e.g. X-Forwarded-For; empty: the connection's peer (TOOLKIT_TRUSTED_PROXY_HEADER)")
	proxies := fs.String("trusted-proxies", env("TOOLKIT_TRUSTED_PROXIES", ""),
		"comma-separated CIDRs of the proxies allowed to set that header; empty: any peer (TOOLKIT_TRUSTED_PROXIES)")
	cors := fs.String("cors-origins", env("TOOLKIT_CORS_ORIGINS", ""),
		"comma-separated browser origins allowed to call the API (\"*\" for any); empty: CORS off (TOOLKIT_CORS_ORIGINS)")
	metricsAddr := fs.String("metrics-addr", env("TOOLKIT_METRICS_ADDR", "127.0.0.1:9090"),
		"listen address of the Prometheus /metrics endpoint, separate from the API; off to disable (TOOLKIT_METRICS_ADDR)")
	readTLS := tlsFlags(fs, env)
	readLifetimes := lifetimeFlags(fs, env)
	return func() (operations, error) {
		tls, err := readTLS()
		if err != nil {
			return operations{}, err
		}
		ops := operations{rateStore: *rateStore, metricsAddr: *metricsAddr, tls: tls}
		if ops.mcpKeepAlive, ops.shutdownTimeout, err = readLifetimes(); err != nil {
			return operations{}, err
		}
		for _, l := range limits {
			v, err := guardian.ParseLimit(*l.value)
			if err != nil {
				return operations{}, fmt.Errorf("-%s: %w", l.name, err)
			}
			*l.dst = v
		}
		ops.rateLimits = def
		ops.trustedProxy.Header = *proxyHeader
		for _, c := range splitList(*proxies) {
			p, err := netip.ParsePrefix(c)
			if err != nil {
				return operations{}, fmt.Errorf("-trusted-proxies: %q is not a CIDR such as 10.0.0.0/8", c)
			}
			ops.trustedProxy.Proxies = append(ops.trustedProxy.Proxies, p)
		}
		if len(ops.trustedProxy.Proxies) > 0 && ops.trustedProxy.Header == "" {
			return operations{}, errors.New("-trusted-proxies: needs -trusted-proxy-header")
		}
		if origins := splitList(*cors); len(origins) > 0 {
			ops.cors = &httpapi.CORS{AllowedOrigins: origins}
		}
		if ops.metricsAddr == "off" {
			ops.metricsAddr = ""
		}
		return ops, nil
	}
}

// lifetimeFlags declares the flags of how long connections live: the
// legacy SSE MCP keep-alive and the shutdown timeout.
func lifetimeFlags(fs *flag.FlagSet, env func(k, def string) string) func() (keepAlive, shutdown time.Duration, err error) {
	keepAlive := fs.String("mcp-keepalive", env("TOOLKIT_MCP_KEEPALIVE", httpapi.DefaultMCPKeepAlive.String()),
		"how often a legacy SSE MCP stream gets a keep-alive comment, e.g. 25s; off for never (TOOLKIT_MCP_KEEPALIVE)")
	shutdown := fs.String("shutdown-timeout", env("TOOLKIT_SHUTDOWN_TIMEOUT", "15s"),
		"how long requests under way may take to finish once SIGTERM or SIGINT arrives (TOOLKIT_SHUTDOWN_TIMEOUT)")
	return func() (time.Duration, time.Duration, error) {
		k := time.Duration(-1)
		if *keepAlive != "off" {
			d, err := time.ParseDuration(*keepAlive)
			if err != nil || d <= 0 {
				return 0, 0, fmt.Errorf("-mcp-keepalive: must be a positive duration like 25s, or off, got %q", *keepAlive)
			}
			k = d
		}
		d, err := time.ParseDuration(*shutdown)
		if err != nil || d <= 0 {
			return 0, 0, fmt.Errorf("-shutdown-timeout: must be a positive duration like 15s, got %q", *shutdown)
		}
		return k, d, nil
	}
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// newMetrics builds the registry served on -metrics-addr: the API's
// collectors plus the Go runtime and process ones.
func newMetrics() (*prometheus.Registry, *httpapi.Metrics, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, nil, err
	}
	m, err := httpapi.NewMetrics(reg)
	return reg, m, err
}

// serveMetrics serves GET /metrics on addr until ctx ends, over TLS like
// the API when certs is set (a configured client CA is then required:
// metrics are for operators).
func serveMetrics(ctx context.Context, addr string, reg *prometheus.Registry, out io.Writer, certs *serverTLS) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	fmt.Fprintf(out, "metrics on %s://%s/metrics\n", certs.scheme(), ln.Addr())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = certs.serve(srv, ln, tls.RequireAndVerifyClientCert) // ends with ErrServerClosed at shutdown
	}()
	return func() {
		shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
		<-done
	}, nil
}
