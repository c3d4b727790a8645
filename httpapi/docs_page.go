package httpapi

import (
	_ "embed"
	"net/http"
	"strings"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"
)

// The human reference at /docs/: Swagger UI rendering the live
// /v1/openapi.json. Its assets are embedded in the binary (swgui's v5emb:
// Swagger UI 5, gzip-compressed, go:embed), so the page works offline and
// loads nothing from another origin; the Content-Security-Policy makes
// the browser hold it to that.
//
// LocalRefsPlugin (docs/local-refs.js, served beside the page) resolves
// the subtrees Swagger UI expands by following the document's local $refs:
// Swagger UI's own OpenAPI 3.1 resolver (ApiDOM) re-reads the whole
// document for every expanded operation, which took seconds of CPU here.

// localRefsJS is the LocalRefsPlugin script.
//
//go:embed docs/local-refs.js
var localRefsJS []byte

// localRefsPath is the script's path under the page.
const localRefsPath = "local-refs.js"

// docsPaths are the docs page (with and without the trailing slash).
var docsPaths = []string{"/docs", "/docs/"}

// docsCSP allows the page its own assets, its inline start-up script and
// styles, and requests to its own origin only.
const docsCSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// docsUI is the Swagger UI handler. Paths are relative, so the page works
// under a mount prefix: the assets are ./x under /docs/ and the document
// is ../v1/openapi.json.
func docsUI() http.Handler {
	return v5emb.NewHandlerWithConfig(swgui.Config{
		Title:            "Agent Finance Toolkit API",
		SwaggerJSON:      "../v1/openapi.json",
		BasePath:         "./",
		InternalBasePath: docsPaths[1],
		AppendHead:       `<script src="./` + localRefsPath + `"></script>`,
		SettingsUI: map[string]string{
			"plugins":                  "[SwaggerUIBundle.plugins.DownloadUrl, LocalRefsPlugin]",
			"displayOperationId":       "true",
			"defaultModelsExpandDepth": "0",
			"docExpansion":             `"list"`,
			"filter":                   "true",
		},
	})
}

// docs serves the docs page and its assets; /docs redirects to /docs/.
func (a *API) docs(ui http.Handler) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		if r.URL.Path == docsPaths[0] {
			// Relative (http.Redirect would make it absolute), so the
			// redirect stays under a mount prefix.
			w.Header().Set("Location", "docs/")
			w.WriteHeader(http.StatusMovedPermanently)
			return nil
		}
		w.Header().Set("Content-Security-Policy", docsCSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if strings.HasSuffix(r.URL.Path, docsPaths[1]+localRefsPath) {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			_, _ = w.Write(localRefsJS)
			return nil
		}
		ui.ServeHTTP(w, r)
		return nil
	}
}
