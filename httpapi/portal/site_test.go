package portal_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/agentfinance/toolkit/httpapi/platform"
	"github.com/agentfinance/toolkit/httpapi/portal"
	"github.com/stretchr/testify/require"

	"net/http/httptest"
)

const adminKey = "portal-test-admin-key"

// site is a reference server over an in-memory store, with the portal.
type site struct {
	t   *testing.T
	srv *httptest.Server
	p   *platform.Platform
}

func newSite(t *testing.T, opts httpapi.Options) *site {
	t.Helper()
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	p, err := platform.New(platform.Ports{Store: memstore.New(), Keys: keys},
		platform.Config{SandboxSelfCredit: true, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	opts.AdminKey = adminKey
	opts.Logger = slog.New(slog.DiscardHandler)
	if opts.Portal.TopUp.Treasury == "" {
		opts.Portal.TopUp = portal.TopUp{Treasury: "TreasuryWa11et1111111111111111111111111111",
			Tokens: []portal.Token{{Ticker: "USDC", Mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"}}}
	}
	api, err := httpapi.New(p.Services, opts)
	require.NoError(t, err)
	s := &site{t: t, srv: httptest.NewServer(api), p: p}
	t.Cleanup(s.srv.Close)
	return s
}

// api sends a JSON request to the API.
func (s *site) api(method, path string, headers map[string]string, body string) (int, map[string]any) {
	s.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, s.srv.URL+path, strings.NewReader(body))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	var m map[string]any
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	require.NoError(s.t, json.Unmarshal(raw, &m), "%s", raw)
	return res.StatusCode, m
}

// owner registers an owner's first agent and a second one, funds both,
// and returns the agents' ids and keys and the owner key.
func (s *site) owner(name string) (ids, keys []string, ownerKey string) {
	s.t.Helper()
	status, m := s.api("POST", "/v1/agents/register", nil, `{"owner_id":"`+name+`","agent_name":"Alpha sizer","agent_type":"trading"}`)
	require.Equal(s.t, http.StatusCreated, status, m)
	ids, keys, ownerKey = []string{m["agent_id"].(string)}, []string{m["api_key"].(string)}, m["owner_key"].(string)
	status, m = s.api("POST", "/v1/agents/register", map[string]string{"X-API-Key": keys[0]},
		`{"owner_id":"`+name+`","agent_name":"Beta risk","agent_type":"risk"}`)
	require.Equal(s.t, http.StatusCreated, status, m)
	ids, keys = append(ids, m["agent_id"].(string)), append(keys, m["api_key"].(string))
	for i, amount := range []string{"5.00", "2.50"} {
		status, m = s.api("POST", "/v1/billing/deposit", map[string]string{"X-API-Key": keys[i]}, `{"amount":"`+amount+`","funding_path":"direct_transfer"}`)
		require.Equal(s.t, http.StatusOK, status, m)
	}
	return ids, keys, ownerKey
}

// call makes one priced call (position sizing, $0.003) with an agent key.
func (s *site) call(agentKey string) int {
	s.t.Helper()
	status, _ := s.api("POST", "/v1/sizing/calculate", map[string]string{"X-API-Key": agentKey},
		`{"equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long","risk_percent":"0.02"}`)
	return status
}

// browser is an HTTP client with a cookie jar that does not follow
// redirects (tests read them).
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

func (s *site) browser() *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(s.t, err)
	return &browser{t: s.t, base: s.srv.URL, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// get fetches a page and returns its status, headers and body.
func (b *browser) get(path string) (int, http.Header, string) {
	b.t.Helper()
	res, err := b.client.Get(b.base + path)
	require.NoError(b.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(b.t, err)
	return res.StatusCode, res.Header, string(raw)
}

// post submits a form as the portal's own page would (same Origin).
func (b *browser) post(path string, form url.Values) (int, http.Header, string) {
	b.t.Helper()
	req, err := http.NewRequest("POST", b.base+path, strings.NewReader(form.Encode()))
	require.NoError(b.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.base)
	res, err := b.client.Do(req)
	require.NoError(b.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(b.t, err)
	return res.StatusCode, res.Header, string(raw)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf reads the CSRF token of a signed-in page.
func (b *browser) csrf(path string) string {
	b.t.Helper()
	status, _, body := b.get(path)
	require.Equal(b.t, http.StatusOK, status, body)
	m := csrfField.FindStringSubmatch(body)
	require.NotNil(b.t, m, "the page carries a CSRF token")
	return m[1]
}
