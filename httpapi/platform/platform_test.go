package platform_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newPlatform builds every service over an in-memory store.
func newPlatform(t *testing.T) *platform.Platform {
	t.Helper()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys}, platform.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// TestThePriceTableIsTheCatalogs checks billing's price table is the one
// the tools' Specs make (adding a priced tool is one edit), and presale
// prices are exactly 80 % of it.
func TestThePriceTableIsTheCatalogs(t *testing.T) {
	p := newPlatform(t)
	table := p.Billing.Prices()
	assert.Equal(t, billing.Prices(p.Catalog.Prices()), table)
	for _, tool := range p.Catalog.Tools() {
		for op, price := range tool.Prices {
			assert.Equal(t, price, table[op], "%s prices %s", tool.Name, op)
		}
	}
	presale := toolkit.MustParseAmount("0.8")
	for op, price := range table {
		want, err := price.Mul(presale).Micros()
		require.NoError(t, err, "%s: 80 %% of the list price is whole micro-USD", op)
		assert.Equal(t, want, table.Micros(op, true), "%s: presale buyers pay exactly 80 %%", op)
	}
}

// TestPricingIsThePublishedTable checks GET /v1/billing/pricing answers
// byte for byte what it answered when billing held its own table: the
// same operations, the same prices, written the same way.
func TestPricingIsThePublishedTable(t *testing.T) {
	p := newPlatform(t)
	api, err := httpapi.New(p.Services, httpapi.Options{})
	require.NoError(t, err)
	srv := httptest.NewServer(api)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/v1/billing/pricing")
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, `{"prices":{"assess_trading_system":"2.00","basic_eval":"0.10","comprehensive_eval":"1.00",`+
		`"full_eval":"0.50","position_sizing":"0.003","pre_trade_gate":"0.01","record_trade_journal":"0.003",`+
		`"risk_check":"0.004","run_monte_carlo":"0.008","search_memory":"0.001","store_memory":"0.002"},"currency":"USDC"}`+"\n",
		string(body))
}
