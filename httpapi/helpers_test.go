package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/httpapi"
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
	runs     int
	logs     *strings.Builder
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
	billing   billing.Config
	adminKey  string
	catalog   *catalog.Catalog // default: the demo catalog
	api       httpapi.Options  // Logger, AdminKey and MaxBodyBytes are set by newEnv
	workspace workspace.Config // Vault is set by newEnv
	// fullCatalog serves the built-in tools and the workspace tools (45).
	fullCatalog bool
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
	e := &env{t: t, logs: &strings.Builder{}}
	store := memstore.New()
	e.store = store
	ag, err := agents.NewService(store, agents.Config{})
	require.NoError(t, err)
	cfg := envConfig{billing: billing.Config{SandboxSelfCredit: true}, adminKey: adminKey}
	for _, o := range opts {
		o(&cfg)
	}
	bill, err := billing.NewService(store, cfg.billing)
	require.NoError(t, err)
	if cfg.catalog == nil {
		cfg.catalog = e.demoCatalog()
	}
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	vault := cryptovault.New(keys)
	desk, err := support.NewService(store, support.Config{Vault: vault})
	require.NoError(t, err)
	cfg.workspace.Vault = vault
	ws, err := workspace.NewService(store, cfg.workspace)
	require.NoError(t, err)
	brokers, err := broker.NewService(store, broker.Config{Vault: vault})
	require.NoError(t, err)
	if cfg.fullCatalog {
		cfg.catalog = catalog.Default()
		for _, tool := range ws.Tools() {
			require.NoError(t, cfg.catalog.Register(tool))
		}
	}
	apiOpts := cfg.api
	apiOpts.AdminKey, apiOpts.MaxBodyBytes, apiOpts.Logger = cfg.adminKey, 64<<10, slog.New(slog.NewTextHandler(e.logs, nil))
	api, err := httpapi.New(httpapi.Services{Agents: ag, Billing: bill, Catalog: cfg.catalog, Support: desk,
		Workspace: ws, Brokers: brokers}, apiOpts)
	require.NoError(t, err)
	e.srv = httptest.NewServer(api)
	t.Cleanup(e.srv.Close)
	e.contract = loadContract(t, e.srv.URL, e.logs)
	return e
}

// do sends a request and decodes the JSON answer.
func (e *env) do(method, path string, headers map[string]string, body string) (int, map[string]any) {
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
	return res.StatusCode, m
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

func (e *env) balance(k string) string {
	e.t.Helper()
	status, m := e.do("GET", "/v1/billing/balance", key(k), "")
	require.Equal(e.t, http.StatusOK, status, m)
	return m["balance"].(string)
}

func mustAmount(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }
