package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newAPI builds an API over an in-memory store.
func newAPI(t testing.TB) *httpapi.API {
	store := memstore.New()
	ag, err := agents.NewService(store, agents.Config{})
	require.NoError(t, err)
	tools := catalog.Default()
	bill, err := billing.NewService(store, billing.Config{SandboxSelfCredit: true, Prices: tools.Prices()})
	require.NoError(t, err)
	api, err := httpapi.New(platform.Services{Agents: ag, Billing: bill, Catalog: tools}, httpapi.Options{})
	require.NoError(t, err)
	return api
}

// Mount never panics: a path the host already serves is an error, and
// nothing is registered.
func TestMountRefusesTakenPaths(t *testing.T) {
	for _, taken := range []string{"/v1/", "/llms.txt", "/mcp"} {
		mux := http.NewServeMux()
		mux.HandleFunc(taken, func(http.ResponseWriter, *http.Request) {})
		var err error
		require.NotPanics(t, func() { err = newAPI(t).Mount(mux, httpapi.MountOptions{}) })
		assert.ErrorContains(t, err, "already serves "+taken)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/llms.txt", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("/mcp", func(http.ResponseWriter, *http.Request) {})
	assert.NoError(t, newAPI(t).Mount(mux, httpapi.MountOptions{NoDocuments: true, NoMCP: true}), "the host keeps its own paths")
}

// Under a prefix every path, every document URL and the legacy SSE
// message endpoint carry the prefix.
func TestMountUnderAPrefix(t *testing.T) {
	mux := http.NewServeMux()
	require.NoError(t, newAPI(t).Mount(mux, httpapi.MountOptions{Prefix: "/toolkit"}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	res, err := http.Get(srv.URL + "/toolkit/llms.txt")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(body), srv.URL+"/toolkit/v1/openapi.json")

	res, err = http.Post(srv.URL+"/toolkit/v1/agents/register", "application/json",
		strings.NewReader(`{"owner_id":"acme","agent_name":"bot","agent_type":"trading"}`))
	require.NoError(t, err)
	var reg struct {
		APIKey string `json:"api_key"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&reg))
	res.Body.Close()
	for _, tr := range []mcp.Transport{
		&mcp.SSEClientTransport{Endpoint: srv.URL + "/toolkit/mcp/sse", HTTPClient: &http.Client{Transport: keyTransport{key: reg.APIKey}}},
		&mcp.StreamableClientTransport{Endpoint: srv.URL + "/toolkit/mcp", HTTPClient: &http.Client{Transport: keyTransport{key: reg.APIKey}}},
	} {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), tr, nil)
		require.NoError(t, err)
		list, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err, "%T", tr)
		assert.NotEmpty(t, list.Tools)
		cs.Close()
	}
}

// ExampleAPI_Mount mounts the toolkit next to a host application's own
// routes.
func ExampleAPI_Mount() {
	store := memstore.New()
	ag, _ := agents.NewService(store, agents.Config{})
	bill, _ := billing.NewService(store, billing.Config{})
	api, _ := httpapi.New(platform.Services{Agents: ag, Billing: bill, Catalog: catalog.Default()}, httpapi.Options{})

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "my dashboard") })
	if err := api.Mount(mux, httpapi.MountOptions{}); err != nil {
		panic(err)
	}

	srv := httptest.NewServer(mux)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/v1/billing/pricing")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	// Output: 200 application/json
}
