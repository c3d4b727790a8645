package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit"
)

// RequireAdminClientCert wraps an API handler for mutual TLS on the admin
// routes. A request that presents X-Admin-Key, which every admin route
// needs, must have arrived over TLS with a client certificate the server
// verified (tls.Config.ClientAuth tls.VerifyClientCertIfGiven with the
// operators' CA in ClientCAs); otherwise it is answered 403 before the key
// is compared, so a stolen admin key alone opens nothing. Requests without
// X-Admin-Key pass unchanged: agents and public clients need no
// certificate.
func RequireAdminClientCert(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Admin-Key") != "" && (r.TLS == nil || len(r.TLS.VerifiedChains) == 0) {
			writeError(w, toolkit.Errorf(toolkit.Forbidden,
				"Admin endpoints need a client certificate (mutual TLS): connect with a certificate signed by the server's client CA"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
