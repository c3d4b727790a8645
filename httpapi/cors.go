package httpapi

import (
	"net/http"
	"time"

	"github.com/rs/cors"
)

// CORS lets browser clients of the listed origins call the API. The admin
// header is not allowed cross-origin: admin tools run server-side.
type CORS struct {
	// AllowedOrigins are exact origins ("https://app.example.com") or
	// patterns with one wildcard ("https://*.example.com"); "*" allows
	// every origin. API keys travel in headers, never cookies, so
	// credentials are not allowed.
	AllowedOrigins []string
	// MaxAge is how long browsers may cache a preflight answer (default
	// 10 min).
	MaxAge time.Duration
}

// corsHeaders are the request headers browsers may send.
var corsHeaders = []string{"Content-Type", "X-API-Key", "Authorization", "Idempotency-Key", "X-Request-Id"}

// corsExposed are the response headers browser code may read.
var corsExposed = []string{"X-Request-Id", "X-Charged", "X-Balance", "Idempotent-Replayed", "Retry-After",
	"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Mcp-Session-Id"}

// withCORS wraps h when c is set.
func withCORS(h http.Handler, c *CORS) http.Handler {
	if c == nil || len(c.AllowedOrigins) == 0 {
		return h
	}
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = 10 * time.Minute
	}
	return cors.New(cors.Options{
		AllowedOrigins: c.AllowedOrigins,
		AllowedMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete},
		AllowedHeaders: corsHeaders,
		ExposedHeaders: corsExposed,
		MaxAge:         int(maxAge / time.Second),
	}).Handler(h)
}
