// Command server is the toolkit's reference server: flags and environment
// -> adapters -> services -> httpapi -> http.Server.
//
//	go run ./examples/server                    # SQLite in ./data/toolkit.db on :8080
//	go run ./examples/server -db postgres://... # Postgres
//
// docs/configuration.md lists every flag and variable; -h prints them.
package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
)

// config is the server's configuration.
type config struct {
	addr         string
	adminKey     string
	baseURL      string
	allowedHosts []string
	adapters     adapterConfig
	platform     platform.Config
	logFormat    string
	ops          operations
	// showVersion prints the version and exits (-version).
	showVersion bool
}

// minAdminKeyLen is the shortest admin key the server accepts.
const minAdminKeyLen = 32

func main() {
	cfg, err := parseConfig(os.Args[1:], os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if cfg.showVersion {
		fmt.Println("agent-finance-toolkit", platform.Version())
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, nil, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// parseConfig reads flags, falling back to TOOLKIT_* variables.
func parseConfig(args []string, getenv func(string) string) (config, error) {
	env := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	var cfg config
	var sandboxCredit bool
	var creditCap, lowBalance string
	fs.StringVar(&cfg.addr, "addr", env("TOOLKIT_ADDR", ":8080"), "listen address (TOOLKIT_ADDR)")
	fs.StringVar(&cfg.adapters.DB, "db", env("TOOLKIT_DB", "data/toolkit.db"), "SQLite file or postgres:// URL (TOOLKIT_DB)")
	fs.StringVar(&cfg.platform.KeyPrefix, "key-prefix", env("TOOLKIT_KEY_PREFIX", "aft_agent_"), "API key prefix, ending in agent_ (TOOLKIT_KEY_PREFIX)")
	fs.BoolVar(&sandboxCredit, "sandbox-credit", env("TOOLKIT_SANDBOX_CREDIT", "true") == "true", "let sandbox agents self-credit test funds (TOOLKIT_SANDBOX_CREDIT)")
	fs.StringVar(&creditCap, "sandbox-credit-cap", env("TOOLKIT_SANDBOX_CREDIT_CAP", "100"), "max test funds per sandbox agent, USD (TOOLKIT_SANDBOX_CREDIT_CAP)")
	fs.StringVar(&lowBalance, "low-balance", env("TOOLKIT_LOW_BALANCE", "0.01"), "is_low threshold, USD (TOOLKIT_LOW_BALANCE)")
	fs.StringVar(&cfg.logFormat, "log", env("TOOLKIT_LOG", "text"), "log format: text or json (TOOLKIT_LOG)")
	fs.StringVar(&cfg.adapters.Keys, "keys", env("TOOLKIT_KEYS", "data/keys.json"), "vault key file; created on first start in development (TOOLKIT_KEYS)")
	fs.StringVar(&cfg.adapters.KEKFile, "keys-kek-file", env("TOOLKIT_KEYS_KEK_FILE", ""), "Tink AEAD keyset file encrypting the key file (production; TOOLKIT_KEYS_KEK_FILE)")
	fs.StringVar(&cfg.adapters.KeysAD, "keys-ad", env("TOOLKIT_KEYS_AD", ""), "deployment name bound to a KEK-protected key file, e.g. prod/agentfin-keys (TOOLKIT_KEYS_AD)")
	fs.BoolVar(&cfg.adapters.CreateKeys, "keys-create", env("TOOLKIT_KEYS_CREATE", "false") == "true", "create a missing KEK-protected key file (TOOLKIT_KEYS_CREATE)")
	fs.StringVar(&cfg.baseURL, "base-url", env("TOOLKIT_BASE_URL", ""), "public base URL of the API, e.g. https://toolkit.example.com (TOOLKIT_BASE_URL)")
	var retention string
	fs.StringVar(&retention, "idempotency-retention", env("TOOLKIT_IDEMPOTENCY_RETENTION", "24h"),
		"how long answers are kept for Idempotency-Key retries, e.g. 24h (TOOLKIT_IDEMPOTENCY_RETENTION)")
	finishSolana := solanaFlags(fs, env, getenv, &cfg.adapters.Solana, &cfg.platform.WalletService)
	quotas := []struct {
		flag, env, def, usage string
		dst                   *int64
	}{
		{"max-memories", "TOOLKIT_MAX_MEMORIES", "10000", "memories one agent may keep", &cfg.platform.MaxMemories},
		{"max-memory-bytes", "TOOLKIT_MAX_MEMORY_BYTES", "10485760", "total bytes of one agent's memories", &cfg.platform.MaxMemoryBytes},
		{"max-journal-trades", "TOOLKIT_MAX_JOURNAL_TRADES", "100000", "journal trades one agent may keep", &cfg.platform.MaxTrades},
	}
	quotaText := make([]string, len(quotas))
	for i, q := range quotas {
		fs.StringVar(&quotaText[i], q.flag, env(q.env, q.def), q.usage+" ("+q.env+")")
	}
	var hosts string
	fs.StringVar(&hosts, "allowed-hosts", env("TOOLKIT_ALLOWED_HOSTS", ""),
		"comma-separated Host names served (default localhost, 127.0.0.1, ::1 and the -addr host) (TOOLKIT_ALLOWED_HOSTS)")
	readOps := operationFlags(fs, env)
	fs.BoolVar(&cfg.showVersion, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	var err error
	if cfg.ops, err = readOps(); err != nil {
		return config{}, err
	}
	cfg.allowedHosts = allowedHosts(hosts, cfg.addr)
	for i, q := range quotas {
		n, err := strconv.ParseInt(quotaText[i], 10, 64)
		if err != nil || n < 1 {
			return config{}, fmt.Errorf("-%s: must be a positive integer, got %q", q.flag, quotaText[i])
		}
		*q.dst = n
	}
	d, err := time.ParseDuration(retention)
	if err != nil || d <= 0 {
		return config{}, fmt.Errorf("-idempotency-retention: must be a positive duration like 24h, got %q", retention)
	}
	cfg.platform.IdempotencyRetention = d
	if cfg.baseURL != "" {
		if u, err := url.Parse(cfg.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return config{}, fmt.Errorf("-base-url: must be an absolute http(s) URL like https://toolkit.example.com, got %q", cfg.baseURL)
		}
	}
	if cfg.adapters.KEKFile != "" && cfg.adapters.KeysAD == "" {
		return config{}, fmt.Errorf("-keys-kek-file needs -keys-ad (TOOLKIT_KEYS_AD): a deployment name such as prod/agentfin-keys")
	}
	if cfg.adapters.KEKFile == "" && (cfg.adapters.KeysAD != "" || cfg.adapters.CreateKeys) {
		return config{}, fmt.Errorf("-keys-ad and -keys-create apply only with -keys-kek-file (TOOLKIT_KEYS_KEK_FILE)")
	}
	cfg.adminKey = getenv("TOOLKIT_ADMIN_KEY")
	if cfg.adminKey != "" && len(cfg.adminKey) < minAdminKeyLen {
		return config{}, fmt.Errorf("TOOLKIT_ADMIN_KEY: must be at least %d characters (it guards every admin endpoint); unset it to have one generated", minAdminKeyLen)
	}
	cfg.platform.SandboxSelfCredit = sandboxCredit
	if cfg.platform.SandboxCreditCap, err = toolkit.ParseAmount(creditCap); err != nil {
		return config{}, fmt.Errorf("-sandbox-credit-cap: %w", err)
	}
	if cfg.platform.LowBalance, err = toolkit.ParseAmount(lowBalance); err != nil {
		return config{}, fmt.Errorf("-low-balance: %w", err)
	}
	if err := finishSolana(); err != nil {
		return config{}, err
	}
	return cfg, nil
}

// run serves until ctx ends, then shuts down gracefully. With ln nil it
// listens on cfg.addr. It prints the address (and a generated admin key
// when none is configured) to out.
func run(ctx context.Context, cfg config, ln net.Listener, out io.Writer) error {
	logger := newLogger(cfg.logFormat)
	certs, err := openTLS(cfg.ops.tls, logger)
	if err != nil {
		return err
	}
	if certs != nil {
		certs.reloadOnHangup(ctx)
	}
	var metrics *httpapi.Metrics
	if cfg.ops.metricsAddr != "" {
		reg, m, err := newMetrics()
		if err != nil {
			return err
		}
		stopMetrics, err := serveMetrics(ctx, cfg.ops.metricsAddr, reg, out, certs)
		if err != nil {
			return err
		}
		defer stopMetrics()
		metrics = m
		cfg.adapters.OnStoreError = metrics.StoreError
		cfg.platform.Calls.Observe = metrics.ObserveCall
	}
	cfg.platform.Logger = logger
	_, statErr := os.Stat(cfg.adapters.Keys)
	p, store, err := openPlatform(ctx, cfg.adapters, cfg.platform)
	if err != nil {
		return err
	}
	defer p.Close() // stops the background work, then closes the store
	go p.Run(context.WithoutCancel(ctx))
	fmt.Fprintln(out, keysNotice(cfg.adapters, errors.Is(statErr, fs.ErrNotExist)))
	fmt.Fprintln(out, solanaNotice(cfg.adapters.Solana))
	if cfg.adminKey == "" {
		cfg.adminKey = generateAdminKey()
		fmt.Fprintf(out, "TOOLKIT_ADMIN_KEY not set; generated admin key for this run: %s\n", cfg.adminKey)
	}
	limits := cfg.ops.rateLimits
	if cfg.ops.rateStore {
		limits.Limiter = guardian.NewStoreLimiter(store, nil)
	}
	api, err := httpapi.New(p.Services, httpapi.Options{AdminKey: cfg.adminKey, Logger: logger, BaseURL: cfg.baseURL, AllowedHosts: cfg.allowedHosts,
		RateLimits: limits, TrustedProxy: cfg.ops.trustedProxy, CORS: cfg.ops.cors, Metrics: metrics, MCPKeepAlive: cfg.ops.mcpKeepAlive,
		Portal: httpapi.PortalOptions{TopUp: topUpOf(cfg.adapters.Solana)}})
	if err != nil {
		return err
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", cfg.addr); err != nil {
			return err
		}
	}
	srv := &http.Server{
		Handler:           certs.handler(api),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	// Shutdown waits for every request to end; MCP streams would not.
	srv.RegisterOnShutdown(func() { logger.Info("shutdown: MCP streams closed", "streams", api.CloseStreams()) })
	fmt.Fprintf(out, "listening on %s://%s (database %s)\n", certs.scheme(), ln.Addr(), redactDSN(cfg.adapters.DB))
	errc := make(chan error, 1)
	go func() { errc <- certs.serve(srv, ln, tls.VerifyClientCertIfGiven) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	return shutdown(srv, errc, cfg.ops.shutdownTimeout, logger)
}

// shutdown stops srv gracefully: no new connection, MCP streams closed
// (its RegisterOnShutdown hook), and the requests under way given up to
// timeout to finish. It logs when it begins and when the server stopped;
// requests still running at the deadline are an error.
func shutdown(srv *http.Server, errc <-chan error, timeout time.Duration, logger *slog.Logger) error {
	logger.Info("shutdown: stopping", "timeout", timeout.String())
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutdown: requests still running after %s: %w", timeout, err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("shutdown: stopped", "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

func newLogger(format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

func generateAdminKey() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "aft_admin_" + hex.EncodeToString(b)
}

// allowedHosts is the -allowed-hosts list, or the loopback names plus the
// host of the listen address.
func allowedHosts(list, addr string) []string {
	var out []string
	for _, h := range strings.Split(list, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	if len(out) > 0 {
		return out
	}
	out = []string{"localhost", "127.0.0.1", "::1"}
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && host != "0.0.0.0" && host != "::" {
		out = append(out, host)
	}
	return out
}

// redactDSN hides a password in a Postgres URL before printing it.
func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		return u.Redacted()
	}
	return dsn
}

// keysNotice says which key file the vault uses and how it is protected.
func keysNotice(w adapterConfig, created bool) string {
	verb := "using"
	if created {
		verb = "created"
	}
	if w.KEKFile == "" {
		msg := fmt.Sprintf("vault: %s development key file %s (cleartext, mode 0600; not for production)", verb, w.Keys)
		if created {
			msg += "; back it up: losing it makes sealed data unreadable"
		}
		return msg
	}
	return fmt.Sprintf("vault: %s key file %s encrypted under the KEK in %s (deployment %q)", verb, w.Keys, w.KEKFile, w.KeysAD)
}
