package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/agentfinance/toolkit/support"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"
)

const adminKey = "test-admin-key"

type env struct {
	t        *testing.T
	srv      *httptest.Server
	contract *contract
	store    *memstore.Store
	guardian *guardian.Service
	runs     int
	logs     *syncBuilder
	// node is the fake Solana node of withChain (nil otherwise), oracle
	// its SOL price.
	node   *solanarpctest.Node
	oracle *fixedOracle
	// clock is the agents service's time (wallet message windows).
	clock *testClock
	// services and apiOptions built the API (another instance over the
	// same store is httpapi.New(services, apiOptions)).
	services   platform.Services
	apiOptions httpapi.Options
}

// syncBuilder is a log sink safe for the concurrent writes of handlers.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type demoInput struct {
	Value toolkit.Amount `json:"value"`
	Fail  bool           `json:"fail,omitempty"`
}

// demoCatalog holds a priced demo tool (billed as position_sizing) that
// doubles its input, plus a free one.
func (e *env) demoCatalog() *catalog.Catalog {
	priced := catalog.NewTool(catalog.Spec{Name: "demo_double", Description: "Doubles value.", Category: "demo", Operation: "position_sizing"},
		func(_ context.Context, call catalog.Call, in demoInput) (any, error) {
			e.runs++
			if in.Fail {
				return nil, toolkit.Errorf(toolkit.Invalid, "fail: the demo was asked to fail")
			}
			return map[string]any{"doubled": in.Value.Add(in.Value), "agent_id": call.AgentID}, nil
		}, func(s *jsonschema.Schema) {})
	free := catalog.NewTool(catalog.Spec{Name: "demo_free", Description: "Echoes value.", Category: "demo"},
		func(_ context.Context, _ catalog.Call, in demoInput) (any, error) {
			return map[string]any{"value": in.Value}, nil
		}, nil)
	c, err := catalog.New(priced, free)
	require.NoError(e.t, err)
	return c
}

// envConfig tunes newEnv.
type envConfig struct {
	billing  billing.Config
	adminKey string
	catalog  *catalog.Catalog // default: the demo catalog
	api      httpapi.Options  // Logger, AdminKey and MaxBodyBytes are set by newEnv
	now      func() time.Time // the guardian's clock (default time.Now)
	probe    guardian.Probe   // the guardian's readiness probe (default: none)
	agents   agents.Config    // Now, Vault and Recorder are set by newEnv
	// chain, when set, verifies deposits and presale purchases against a
	// fake Solana node serving every fixture (see withChain).
	chain bool
	// noVault leaves the agents and billing services without a key vault.
	noVault bool
	// workspace configures the workspace (Vault is set by newEnv).
	workspace workspace.Config
	// fullCatalog serves the built-in tools and the workspace tools (45).
	fullCatalog bool
	// agentsStore, when set, wraps the agents service's store.
	agentsStore func(agents.Store) agents.Store
	// priceChanges change prices of the table billing takes (default: the
	// served catalog's).
	priceChanges billing.Prices
	// billingStore, when set, wraps the billing service's store.
	billingStore func(billing.Store) billing.Store
	// maxResponseBytes, when set, is the tool calls' response cap
	// (default 16 MiB).
	maxResponseBytes int
}

// presaleProgram is the presale program of withChain.
var presaleProgram = solanarpctest.Key("presale program").PublicKey()

// solPrice is the SOL price of withChain's oracle.
var solPrice = toolkit.MustParseAmount("140.25")

// fixedOracle quotes a fixed price, or fails with err.
type fixedOracle struct {
	mu    sync.Mutex
	price toolkit.Amount
	err   error
}

func (o *fixedOracle) PriceUSD(_ context.Context, a billing.Asset) (billing.Price, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return billing.Price{Asset: a, USD: o.price, ObservedAt: time.Now()}, o.err
}

// set changes the quote.
func (o *fixedOracle) set(price string, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.price, o.err = toolkit.MustParseAmount(price), err
}

// withChain verifies deposits against a fake mainnet node serving every
// solanarpctest fixture, with presale program presaleProgram and a SOL
// price of 140.25.
func withChain(c *envConfig) { c.chain = true }

// withRateLimits sets the API's rate limits (zero fields: the defaults),
// keeping a limiter set by withClock.
func withRateLimits(l httpapi.RateLimits) func(*envConfig) {
	return func(c *envConfig) {
		if l.Limiter == nil {
			l.Limiter = c.api.RateLimits.Limiter
		}
		c.api.RateLimits = l
	}
}

// withFullCatalog serves all 45 tools: the built-in ones and the
// workspace's.
func withFullCatalog(c *envConfig) { c.fullCatalog = true }

// withDefaultCatalog serves the real built-in tools.
func withDefaultCatalog(c *envConfig) { c.catalog = catalog.Default() }

func newEnvWithoutAdmin(t *testing.T) *env {
	return newEnv(t, func(c *envConfig) { c.adminKey = "" })
}

func newEnv(t *testing.T, opts ...func(*envConfig)) *env {
	t.Helper()
	e := &env{t: t, logs: &syncBuilder{}}
	store := memstore.New()
	e.store = store
	cfg := envConfig{billing: billing.Config{SandboxSelfCredit: true}, adminKey: adminKey}
	for _, o := range opts {
		o(&cfg)
	}
	logger := slog.New(slog.NewTextHandler(e.logs, nil))
	var err error
	e.guardian, err = guardian.New(store, guardian.Config{Version: platform.Version(), Probe: cfg.probe, Now: cfg.now, Logger: logger})
	require.NoError(t, err)
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	vault := cryptovault.New(keys, cryptovault.WithTamperObserver(guardian.TamperObserver(e.guardian)))
	e.clock = &testClock{now: time.Now()}
	cfg.agents.Now, cfg.agents.Vault, cfg.agents.Recorder = e.clock.Now, vault, e.guardian
	cfg.billing.Vault, cfg.billing.Recorder = vault, e.guardian
	if cfg.noVault {
		cfg.agents.Vault, cfg.billing.Vault = nil, nil
	}
	if cfg.chain {
		e.node = solanarpctest.NewNode(t, solanarpctest.Fixtures(t)...)
		sc := solanarpctest.Config(e.node.URL())
		sc.PresaleProgram = presaleProgram.String()
		client, err := solanarpc.New(sc)
		require.NoError(t, err)
		t.Cleanup(func() { client.Close() })
		cfg.agents.Presale = client
		e.oracle = &fixedOracle{price: solPrice}
		cfg.billing.Deposits, cfg.billing.Oracle = client, e.oracle
	}
	var agentsStore agents.Store = store
	if cfg.agentsStore != nil {
		agentsStore = cfg.agentsStore(store)
	}
	ag, err := agents.NewService(agentsStore, cfg.agents)
	require.NoError(t, err)
	desk, err := support.NewService(store, support.Config{Vault: vault})
	require.NoError(t, err)
	cfg.workspace.Vault = vault
	ws, err := workspace.NewService(store, cfg.workspace)
	require.NoError(t, err)
	brokers, err := broker.NewService(store, broker.Config{Vault: vault})
	require.NoError(t, err)
	served, err := platform.Catalog(ws)
	require.NoError(t, err)
	switch {
	case cfg.fullCatalog:
		cfg.catalog = served
	case cfg.catalog == nil:
		cfg.catalog = e.demoCatalog()
	}
	if cfg.billing.Prices == nil {
		cfg.billing.Prices = served.Prices() // the demo tool is billed as position_sizing
	}
	maps.Copy(cfg.billing.Prices, cfg.priceChanges)
	cfg.billing.Wallets = ag
	var billingStore billing.Store = store
	if cfg.billingStore != nil {
		billingStore = cfg.billingStore(store)
	}
	bill, err := billing.NewService(billingStore, cfg.billing)
	require.NoError(t, err)
	apiOpts := cfg.api
	apiOpts.AdminKey, apiOpts.Logger = cfg.adminKey, logger
	if apiOpts.MaxBodyBytes == 0 {
		apiOpts.MaxBodyBytes = 64 << 10
	}
	var calls *toolcall.Service // nil: the API's own
	if cfg.maxResponseBytes > 0 {
		calls = toolcall.New(cfg.catalog, bill, toolcall.Options{MaxResponseBytes: cfg.maxResponseBytes, Recorder: e.guardian})
	}
	e.services = platform.Services{Agents: ag, Billing: bill, Catalog: cfg.catalog, Calls: calls, Support: desk,
		Guardian: e.guardian, Workspace: ws, Brokers: brokers}
	e.apiOptions = apiOpts
	api, err := httpapi.New(e.services, apiOpts)
	require.NoError(t, err)
	e.srv = httptest.NewServer(api)
	t.Cleanup(e.srv.Close)
	e.contract = loadContract(t, e.srv.URL, e.logs)
	return e
}

// do sends a request and decodes the JSON answer.
func (e *env) do(method, path string, headers map[string]string, body string) (int, map[string]any) {
	e.t.Helper()
	status, _, m := e.exchange(method, path, headers, body)
	return status, m
}

// exchange is do that also returns the response headers.
func (e *env) exchange(method, path string, headers map[string]string, body string) (int, http.Header, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	require.NoError(e.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	e.contract.check(e.t, req, []byte(body), res, raw)
	var m map[string]any
	require.NoError(e.t, json.Unmarshal(raw, &m), "body: %s", raw)
	if res.StatusCode >= 400 {
		require.Contains(e.t, m, "detail", "error bodies carry detail")
		require.Contains(e.t, m, "code", "error bodies carry code")
	}
	return res.StatusCode, res.Header, m
}

// testClock is a settable clock shared by the guardian and the limiter.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// withClock runs the guardian and an in-process limiter on c (a limiter
// set with withRateLimits is kept).
func withClock(c *testClock) func(*envConfig) {
	return func(cfg *envConfig) {
		cfg.now = c.Now
		if cfg.api.RateLimits.Limiter == nil {
			cfg.api.RateLimits.Limiter = guardian.NewMemoryLimiter(guardian.MemoryLimiterConfig{Now: c.Now})
		}
	}
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
}

// from sends the request as if from addr behind a trusted proxy (see
// withTrustedProxy).
func from(addr string, h map[string]string) map[string]string {
	out := map[string]string{"X-Forwarded-For": addr}
	for k, v := range h {
		out[k] = v
	}
	return out
}

// withTrustedProxy trusts X-Forwarded-For from any peer.
func withTrustedProxy(c *envConfig) {
	c.api.TrustedProxy = httpapi.TrustedProxy{Header: "X-Forwarded-For"}
}

// eventsOf lists the admin's events of one type.
func (e *env) eventsOf(typ guardian.Type) []map[string]any {
	e.t.Helper()
	status, m := e.do("GET", "/v1/guardian/events?limit=1000", admin(), "")
	require.Equal(e.t, http.StatusOK, status, m)
	var out []map[string]any
	for _, ev := range m["events"].([]any) {
		if ev := ev.(map[string]any); ev["type"] == string(typ) {
			out = append(out, ev)
		}
	}
	return out
}

func key(k string) map[string]string { return map[string]string{"X-API-Key": k} }

// register creates an agent and returns its id and key.
func (e *env) register(owner string) (string, string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/agents/register", nil,
		`{"owner_id":"`+owner+`","agent_name":"bot","agent_type":"trading"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	return m["agent_id"].(string), m["api_key"].(string)
}

// fund self-credits a sandbox agent.
func (e *env) fund(k, amount string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/billing/deposit", key(k), `{"amount":"`+amount+`","funding_path":"direct_transfer"}`)
	require.Equal(e.t, http.StatusOK, status, m)
}

// balance returns the balance the agent's calls are paid from: test funds
// in sandbox mode, real funds in live mode.
func (e *env) balance(k string) string {
	e.t.Helper()
	status, m := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(e.t, http.StatusOK, status, m)
	if m["pays_from"] == "test" {
		return m["sandbox_balance"].(string)
	}
	return m["balance"].(string)
}

func mustAmount(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

// fundQuietly self-credits a sandbox agent without the contract check (for
// bulk set-up).
func (e *env) fundQuietly(k, amount string) error {
	req, err := http.NewRequest("POST", e.srv.URL+"/v1/billing/deposit",
		strings.NewReader(`{"amount":"`+amount+`","funding_path":"direct_transfer"}`))
	if err != nil {
		return err
	}
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("deposit %s: status %d", amount, res.StatusCode)
	}
	return nil
}
