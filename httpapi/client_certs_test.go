package httpapi_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequireAdminClientCert: a request presenting X-Admin-Key needs a
// verified client certificate (403 with the error body otherwise); any
// other request passes untouched.
func TestRequireAdminClientCert(t *testing.T) {
	reached := 0
	h := httpapi.RequireAdminClientCert(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached++
		w.WriteHeader(http.StatusOK)
	}))
	verified := &tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{{}}}}
	unverified := &tls.ConnectionState{}
	for _, c := range []struct {
		name     string
		adminKey string
		state    *tls.ConnectionState
		want     int
	}{
		{"admin key, no TLS", "k", nil, http.StatusForbidden},
		{"admin key, TLS without a client certificate", "k", unverified, http.StatusForbidden},
		{"admin key, verified client certificate", "k", verified, http.StatusOK},
		{"no admin key, no TLS", "", nil, http.StatusOK},
		{"no admin key, TLS", "", unverified, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := reached
			r := httptest.NewRequest("GET", "/v1/guardian/metrics", nil)
			r.TLS = c.state
			if c.adminKey != "" {
				r.Header.Set("X-Admin-Key", c.adminKey)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, c.want, w.Code)
			if c.want != http.StatusForbidden {
				assert.Equal(t, before+1, reached)
				return
			}
			assert.Equal(t, before, reached, "refused before the API")
			var body map[string]any
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body))
			assert.Equal(t, "forbidden", body["code"])
			assert.Contains(t, body["detail"], "client certificate")
		})
	}
}
