// Package coingecko is a billing.PriceOracle over the CoinGecko
// simple-price API:
//
//	GET {BaseURL}/api/v3/simple/price?ids=solana&vs_currencies=usd&include_last_updated_at=true
//	{"solana":{"usd":140.25,"last_updated_at":1767225600}}
//
// Prices are parsed exactly from the JSON number text (never through
// float64). A price older than MaxAge, a failed call or a malformed answer
// is toolkit.Unavailable: there is no fallback price.
package coingecko

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/cockroachdb/apd/v3"
)

// Defaults of Config.
const (
	DefaultBaseURL      = "https://api.coingecko.com"
	DefaultAPIKeyHeader = "x-cg-demo-api-key"
	DefaultMaxAge       = 10 * time.Minute
	DefaultTimeout      = 10 * time.Second
)

// maxBody bounds the answer read from the API.
const maxBody = 64 << 10

// maxNumberLen bounds the text of a price or timestamp.
const maxNumberLen = 64

// DefaultCoinIDs maps assets to CoinGecko coin ids.
func DefaultCoinIDs() map[billing.Asset]string {
	return map[billing.Asset]string{
		billing.SOL: "solana", billing.USDC: "usd-coin", billing.USDT: "tether", billing.PYUSD: "paypal-usd",
	}
}

// Config configures an Oracle. Zero fields take the defaults.
type Config struct {
	// BaseURL is the API root (default DefaultBaseURL; the Pro API is
	// https://pro-api.coingecko.com with APIKeyHeader x-cg-pro-api-key).
	BaseURL string
	// APIKey is sent in APIKeyHeader when set.
	APIKey string
	// APIKeyHeader names the key header (default DefaultAPIKeyHeader).
	APIKeyHeader string
	// CoinIDs maps assets to coin ids (default DefaultCoinIDs()); add the
	// native token's id here if it is listed.
	CoinIDs map[billing.Asset]string
	// MaxAge is the oldest price accepted (default DefaultMaxAge), measured
	// from the price's last_updated_at.
	MaxAge time.Duration
	// Timeout bounds each request (default DefaultTimeout).
	Timeout time.Duration
	// HTTPClient sends the requests (default: a client with Timeout).
	HTTPClient *http.Client
	// Now returns the current time (default time.Now).
	Now func() time.Time
}

// Oracle quotes USD prices from CoinGecko. It is safe for concurrent use.
type Oracle struct {
	cfg      Config
	endpoint *url.URL
}

var _ billing.PriceOracle = (*Oracle)(nil)

// New returns an Oracle for cfg.
func New(cfg Config) (*Oracle, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/api/v3/simple/price")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("coingecko: base URL %q must be an http(s) URL", cfg.BaseURL)
	}
	if cfg.APIKeyHeader == "" {
		cfg.APIKeyHeader = DefaultAPIKeyHeader
	}
	if cfg.CoinIDs == nil {
		cfg.CoinIDs = DefaultCoinIDs()
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: cfg.Timeout}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Oracle{cfg: cfg, endpoint: u}, nil
}

// quote is one coin's entry in the answer.
type quote struct {
	USD           *json.Number `json:"usd"`
	LastUpdatedAt *json.Number `json:"last_updated_at"`
}

// PriceUSD returns the USD price of asset as CoinGecko last published it.
func (o *Oracle) PriceUSD(ctx context.Context, asset billing.Asset) (billing.Price, error) {
	const op = "coingecko.PriceUSD"
	id, ok := o.cfg.CoinIDs[asset]
	if !ok {
		return billing.Price{}, toolkit.WithOp(op, fmt.Errorf("no CoinGecko coin id configured for %s", asset))
	}
	fail := func(format string, args ...any) error {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Err: fmt.Errorf(format, args...),
			Msg: fmt.Sprintf("the live %s price is unavailable now; nothing was recorded, retry in a minute", asset)}
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	u := *o.endpoint
	u.RawQuery = url.Values{"ids": {id}, "vs_currencies": {"usd"}, "include_last_updated_at": {"true"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return billing.Price{}, toolkit.WithOp(op, err)
	}
	req.Header.Set("Accept", "application/json")
	if o.cfg.APIKey != "" {
		req.Header.Set(o.cfg.APIKeyHeader, o.cfg.APIKey)
	}
	resp, err := o.cfg.HTTPClient.Do(req)
	if err != nil {
		return billing.Price{}, fail("GET simple/price: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return billing.Price{}, fail("GET simple/price: HTTP %d (Retry-After %q)", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return billing.Price{}, fail("reading simple/price: %w", err)
	}
	if len(body) > maxBody {
		return billing.Price{}, fail("simple/price answer longer than %d bytes", maxBody)
	}
	var answer map[string]quote
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&answer); err != nil {
		return billing.Price{}, fail("decoding simple/price: %w", err)
	}
	q, ok := answer[id]
	if !ok || q.USD == nil || q.LastUpdatedAt == nil {
		return billing.Price{}, fail("simple/price has no usd price with last_updated_at for %q", id)
	}
	price, err := parsePrice(q.USD.String())
	if err != nil {
		return billing.Price{}, fail("usd price of %q: %w", id, err)
	}
	observed, err := parseUnix(q.LastUpdatedAt.String())
	if err != nil {
		return billing.Price{}, fail("last_updated_at of %q: %w", id, err)
	}
	if age := o.cfg.Now().Sub(observed); age > o.cfg.MaxAge || age < -o.cfg.MaxAge {
		return billing.Price{}, fail("price of %q observed at %s is %s from now (limit %s)", id, observed.Format(time.RFC3339), age, o.cfg.MaxAge)
	}
	return billing.Price{Asset: asset, USD: price, ObservedAt: observed}, nil
}

// parsePrice reads a JSON number text, exponent form included, exactly
// into a positive Amount.
func parsePrice(s string) (toolkit.Amount, error) {
	if len(s) > maxNumberLen {
		return toolkit.Amount{}, fmt.Errorf("number longer than %d characters", maxNumberLen)
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return toolkit.Amount{}, err
	}
	// Bound the plain text Text('f') will write (a hostile 1e999999999).
	if d.Form != apd.Finite || d.Exponent < -maxNumberLen || d.Exponent+int32(d.NumDigits()) > maxNumberLen/2 {
		return toolkit.Amount{}, fmt.Errorf("price %s is out of range", s)
	}
	a, err := toolkit.ParseAmount(d.Text('f'))
	if err != nil {
		return toolkit.Amount{}, err
	}
	if a.Sign() <= 0 {
		return toolkit.Amount{}, errors.New("price is not positive")
	}
	return a, nil
}

// parseUnix reads a JSON number of unix seconds.
func parseUnix(s string) (time.Time, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return time.Time{}, fmt.Errorf("not positive integer seconds: %q", s)
	}
	return time.Unix(v, 0).UTC(), nil
}
