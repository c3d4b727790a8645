package coingecko_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/coingecko"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// fakeAPI answers simple/price with a fixed status and body and records
// the requests.
type fakeAPI struct {
	srv    *httptest.Server
	mu     sync.Mutex
	status int
	body   string
	hang   bool
	reqs   []*http.Request
}

func newFakeAPI(t *testing.T, status int, body string) *fakeAPI {
	a := &fakeAPI{status: status, body: body}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.reqs = append(a.reqs, r)
		status, body, hang := a.status, a.body, a.hang
		a.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		if r.URL.Path != "/api/v3/simple/price" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "60")
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *fakeAPI) requests() []*http.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*http.Request(nil), a.reqs...)
}

func newOracle(t *testing.T, url string, change func(*coingecko.Config)) *coingecko.Oracle {
	t.Helper()
	cfg := coingecko.Config{BaseURL: url, Now: func() time.Time { return now }, Timeout: 2 * time.Second}
	if change != nil {
		change(&cfg)
	}
	o, err := coingecko.New(cfg)
	require.NoError(t, err)
	return o
}

func solAnswer(price string, updated time.Time) string {
	return fmt.Sprintf(`{"solana":{"usd":%s,"last_updated_at":%d}}`, price, updated.Unix())
}

func TestPriceUSD(t *testing.T) {
	tests := []struct {
		price, want string
	}{
		{"140.25", "140.25"},
		{"140", "140"},
		{"145.123456789012", "145.123456789012"},
		{"1.234e-05", "0.00001234"},
		{"1.5E+2", "150"},
	}
	for _, tt := range tests {
		t.Run(tt.price, func(t *testing.T) {
			api := newFakeAPI(t, 200, solAnswer(tt.price, now.Add(-30*time.Second)))
			p, err := newOracle(t, api.srv.URL, nil).PriceUSD(context.Background(), billing.SOL)
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.USD.String())
			assert.Equal(t, billing.SOL, p.Asset)
			assert.True(t, p.ObservedAt.Equal(now.Add(-30*time.Second)))
		})
	}
}

func TestPriceUSDSendsTheSimplePriceQuery(t *testing.T) {
	api := newFakeAPI(t, 200, `{"usd-coin":{"usd":1.0,"last_updated_at":1767268790}}`)
	o := newOracle(t, api.srv.URL+"/", func(c *coingecko.Config) { c.APIKey = "demo-key" })
	p, err := o.PriceUSD(context.Background(), billing.USDC)
	require.NoError(t, err)
	assert.Equal(t, "1.0", p.USD.String())
	require.Len(t, api.requests(), 1)
	r := api.requests()[0]
	assert.Equal(t, "/api/v3/simple/price", r.URL.Path)
	assert.Equal(t, "usd-coin", r.URL.Query().Get("ids"))
	assert.Equal(t, "usd", r.URL.Query().Get("vs_currencies"))
	assert.Equal(t, "true", r.URL.Query().Get("include_last_updated_at"))
	assert.Equal(t, "demo-key", r.Header.Get("x-cg-demo-api-key"))
}

func TestPriceUSDUnavailable(t *testing.T) {
	fresh := now.Add(-time.Minute)
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{"stale", 200, solAnswer("140.25", now.Add(-11*time.Minute))},
		{"from the future", 200, solAnswer("140.25", now.Add(11*time.Minute))},
		{"rate limited", 429, `{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}`},
		{"server error", 500, `oops`},
		{"malformed", 200, `{"solana":{"usd":140.25,`},
		{"not an object", 200, `[1,2]`},
		{"missing asset", 200, `{"bitcoin":{"usd":90000,"last_updated_at":1767268740}}`},
		{"empty answer", 200, `{}`},
		{"no usd", 200, `{"solana":{"eur":120,"last_updated_at":1767268740}}`},
		{"no last_updated_at", 200, `{"solana":{"usd":140.25}}`},
		{"zero price", 200, solAnswer("0", fresh)},
		{"negative price", 200, solAnswer("-1", fresh)},
		{"huge exponent", 200, solAnswer("1e999999999", fresh)},
		{"tiny exponent", 200, solAnswer("1e-999999999", fresh)},
		{"long number", 200, solAnswer("1."+strings.Repeat("1", 80), fresh)},
		{"fractional timestamp", 200, `{"solana":{"usd":140.25,"last_updated_at":1767268740.5}}`},
		{"null price", 200, `{"solana":{"usd":null,"last_updated_at":1767268740}}`},
		{"oversized body", 200, `{"solana":{"usd":140.25,"last_updated_at":1767268740},"pad":"` + strings.Repeat("x", 70_000) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.status, tt.body)
			_, err := newOracle(t, api.srv.URL, nil).PriceUSD(context.Background(), billing.SOL)
			require.Error(t, err)
			assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
			assert.Equal(t, "the live SOL price is unavailable now; nothing was recorded, retry in a minute", toolkit.MessageOf(err))
		})
	}
}

func TestPriceUSDTimeout(t *testing.T) {
	api := newFakeAPI(t, 200, "")
	api.hang = true
	_, err := newOracle(t, api.srv.URL, func(c *coingecko.Config) { c.Timeout = 50 * time.Millisecond }).PriceUSD(context.Background(), billing.SOL)
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
}

func TestPriceUSDConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	_, err := newOracle(t, url, nil).PriceUSD(context.Background(), billing.SOL)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
}

func TestPriceUSDStalenessLimitIsConfigurable(t *testing.T) {
	api := newFakeAPI(t, 200, solAnswer("140.25", now.Add(-3*time.Minute)))
	_, err := newOracle(t, api.srv.URL, func(c *coingecko.Config) { c.MaxAge = 2 * time.Minute }).PriceUSD(context.Background(), billing.SOL)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	_, err = newOracle(t, api.srv.URL, func(c *coingecko.Config) { c.MaxAge = 4 * time.Minute }).PriceUSD(context.Background(), billing.SOL)
	assert.NoError(t, err)
}

func TestPriceUSDUnconfiguredAssetAsksNothing(t *testing.T) {
	api := newFakeAPI(t, 200, `{}`)
	_, err := newOracle(t, api.srv.URL, nil).PriceUSD(context.Background(), billing.DefaultNativeToken)
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
	assert.Empty(t, api.requests())
}

func TestNewRefusesBadBaseURL(t *testing.T) {
	for _, u := range []string{"ftp://x", "not a url", "http://"} {
		_, err := coingecko.New(coingecko.Config{BaseURL: u})
		assert.Error(t, err, u)
	}
	_, err := coingecko.New(coingecko.Config{})
	assert.NoError(t, err)
}
