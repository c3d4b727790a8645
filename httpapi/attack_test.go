package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeChain verifies any transaction hash starting with "good" as a
// payment of 5 USD; anything else fails its checks.
type fakeChain struct{}

func (fakeChain) VerifyDeposit(_ context.Context, q billing.DepositQuery) (billing.VerifiedDeposit, error) {
	if !strings.HasPrefix(q.Signature, "good") {
		return billing.VerifiedDeposit{}, toolkit.Errorf(toolkit.Invalid, "tx_signature: the transaction does not pay the treasury")
	}
	return billing.VerifiedDeposit{Signature: q.Signature, Asset: q.Asset, BaseUnits: 5_000_000, Decimals: 6}, nil
}

// TestScriptedAttackIsVisibleToTheAdmin runs an attack (a key spray, a
// replayed deposit, a failed verification, a registration flood, a claim
// on someone else's owner) and checks what the admin sees: one event per
// burst with its count, and the Prometheus counters.
func TestScriptedAttackIsVisibleToTheAdmin(t *testing.T) {
	c := newTestClock()
	reg := prometheus.NewRegistry()
	metrics, err := httpapi.NewMetrics(reg)
	require.NoError(t, err)
	e := newEnv(t, withClock(c), withTrustedProxy,
		withRateLimits(httpapi.RateLimits{Register: guardian.NewLimit(5, time.Hour), AuthFailures: guardian.NewLimit(20, time.Minute)}),
		func(cfg *envConfig) {
			cfg.billing.Deposits = fakeChain{}
			cfg.api.Metrics = metrics
		})
	attacker := "203.0.113.50"
	victimID, victimKey := e.register("victim-corp")

	// 1. Key spray: 25 guesses; 20 are checked (401), then the address is blocked (429).
	codes := map[int]int{}
	for i := range 25 {
		status, _ := e.do("GET", "/v1/billing/balance", from(attacker, key(fmt.Sprintf("aft_agent_%040d", i))), "")
		codes[status]++
	}
	assert.Equal(t, map[int]int{http.StatusUnauthorized: 20, http.StatusTooManyRequests: 5}, codes)

	// 2. A deposit replayed, and one that fails verification.
	_, mallory := e.register("mallory")
	deposit := `{"amount":"5","funding_path":"direct_transfer","on_chain_tx_hash":"good-tx-1"}`
	status, _ := e.do("POST", "/v1/billing/deposit", key(mallory), deposit)
	require.Equal(t, http.StatusOK, status)
	status, m := e.do("POST", "/v1/billing/deposit", key(mallory), deposit)
	require.Equal(t, http.StatusConflict, status, m)
	status, _ = e.do("POST", "/v1/billing/deposit", key(mallory), `{"amount":"5","funding_path":"direct_transfer","on_chain_tx_hash":"forged"}`)
	require.Equal(t, http.StatusBadRequest, status)
	status, b := e.do("GET", "/v1/billing/balance", key(mallory), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "5.00", b["real_balance"], "credited once, as real money")

	// 3. A registration flood from one address, and a claim on the victim's owner.
	created := 0
	for i := range 8 {
		if status, _ := e.do("POST", "/v1/agents/register", from(attacker, nil), registerBody(fmt.Sprint("flood-", i))); status == http.StatusCreated {
			created++
		}
	}
	assert.Equal(t, 5, created)
	status, _ = e.do("POST", "/v1/agents/register", from("198.51.100.77", nil), registerBody("victim-corp"))
	require.Equal(t, http.StatusConflict, status)

	// The victim is untouched and the admin sees the attack once the windows close.
	assert.Equal(t, "0.00", e.balance(victimKey))
	c.Advance(time.Minute)
	status, m = e.do("GET", "/v1/guardian/events", admin(), "")
	require.Equal(t, http.StatusOK, status, m)
	byType := map[string]map[string]any{}
	counts := map[string]float64{}
	for _, ev := range m["events"].([]any) {
		ev := ev.(map[string]any)
		byType[ev["type"].(string)] = ev
		counts[ev["type"].(string)] += ev["count"].(float64)
	}
	assert.Equal(t, 6.0, m["count"], "one event per burst: the two rate limits are two events")
	assert.Equal(t, map[string]float64{"auth_failure": 20, "rate_limited": 8, "deposit_replay": 1,
		"deposit_verification_failed": 1, "owner_claim_refused": 1}, counts)
	assert.Equal(t, attacker, byType["auth_failure"]["source"])
	assert.Equal(t, "authentication", byType["auth_failure"]["category"])
	assert.Equal(t, attacker, byType["rate_limited"]["source"])
	assert.NotEqual(t, victimID, byType["deposit_replay"]["agent_id"])
	assert.Equal(t, "198.51.100.77", byType["owner_claim_refused"]["source"])

	status, m = e.do("GET", "/v1/guardian/events?category=deposit", admin(), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, 2.0, m["count"])

	// Prometheus saw the same scenario.
	scrape := scrapeMetrics(t, reg)
	for _, line := range []string{
		`toolkit_http_requests_total{code="401",route="GET /v1/billing/balance"} 20`,
		`toolkit_http_requests_total{code="429",route="GET /v1/billing/balance"} 5`,
		`toolkit_http_requests_total{code="201",route="POST /v1/agents/register"} 7`,
		`toolkit_deposits_total{funding_path="direct_transfer",result="credited"} 1`,
		`toolkit_deposits_total{funding_path="direct_transfer",result="replay"} 1`,
		`toolkit_deposits_total{funding_path="direct_transfer",result="refused"} 1`,
		`toolkit_rate_limited_total{limit="auth_failures"} 5`,
		`toolkit_rate_limited_total{limit="register"} 3`,
		`toolkit_http_request_duration_seconds_count{route="POST /v1/billing/deposit"} 3`,
	} {
		assert.Contains(t, scrape, line+"\n")
	}
}

func TestMetricsOfChargesAndStoreErrors(t *testing.T) {
	reg := prometheus.NewRegistry()
	metrics, err := httpapi.NewMetrics(reg)
	require.NoError(t, err)
	e := newEnv(t, func(cfg *envConfig) { cfg.api.Metrics = metrics })
	_, k := e.register("acme")
	e.fund(k, "1")
	for range 2 {
		status, _ := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"2"}}`)
		require.Equal(t, http.StatusOK, status)
	}
	status, _ := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"value":"2"}}`)
	require.Equal(t, http.StatusOK, status)
	e.do("GET", "/v1/nowhere", nil, "")
	metrics.StoreError("SELECT", toolkit.Unavailable)
	metrics.StoreError("INSERT", toolkit.Conflict) // a business outcome, not counted
	var none *httpapi.Metrics
	none.StoreError("SELECT", toolkit.Internal) // nil metrics record nothing and do not panic

	scrape := scrapeMetrics(t, reg)
	for _, line := range []string{
		`toolkit_charges_total{operation="position_sizing"} 2`,
		`toolkit_charged_micro_usd_total{operation="position_sizing"} 6000`,
		`toolkit_deposits_total{funding_path="direct_transfer",result="credited"} 1`,
		`toolkit_http_requests_total{code="404",route="unmatched"} 1`,
		`toolkit_store_errors_total{kind="unavailable",operation="SELECT"} 1`,
	} {
		assert.Contains(t, scrape, line+"\n")
	}
	assert.NotContains(t, scrape, `operation="INSERT"`)
	_, err = httpapi.NewMetrics(reg)
	assert.Error(t, err, "registering twice is refused")
}

// scrapeMetrics reads the registry the way Prometheus does.
func scrapeMetrics(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}
