package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get fetches path without following redirects.
func (e *env) get(path string, headers map[string]string) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequest("GET", e.srv.URL+path, nil)
	require.NoError(e.t, err)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	return res, string(b)
}

// TestDocsPageIsSelfContained: /docs/ is Swagger UI over the live
// document, its assets come from the binary, and the page may load
// nothing from another origin.
func TestDocsPageIsSelfContained(t *testing.T) {
	e := newEnv(t)
	res, _ := e.get("/docs", nil)
	require.Equal(t, http.StatusMovedPermanently, res.StatusCode)
	assert.Equal(t, "docs/", res.Header.Get("Location"), "relative, so it works under a mount prefix")

	res, page := e.get("/docs/", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, res.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'self'")
	assert.Contains(t, page, "../v1/openapi.json")
	srcs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, srcs)
	for _, m := range srcs {
		assert.NotRegexp(t, `^(https?:)?//`, m[1], "no asset from another origin")
		asset, _ := e.get("/docs/"+strings.TrimPrefix(m[1], "./"), nil)
		assert.Equal(t, http.StatusOK, asset.StatusCode, m[1])
	}
	res, js := e.get("/docs/swagger-ui-bundle.js", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Greater(t, len(js), 100_000, "the Swagger UI bundle is embedded")
}

// TestLandingPage: a browser gets an HTML page linking the docs and the
// documents; API clients keep the JSON index.
func TestLandingPage(t *testing.T) {
	e := newEnv(t)
	res, page := e.get("/", map[string]string{"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, res.Header.Get("Content-Type"), "text/html")
	for _, link := range []string{`href="docs/"`, `href="docs/tools/"`, `href="llms.txt"`, `href=".well-known/agent.json"`, `href="v1/openapi.json"`, e.srv.URL + "/mcp"} {
		assert.Contains(t, page, link)
	}
	status, index := e.do("GET", "/", nil, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, e.srv.URL+"/docs/", index["links"].(map[string]any)["docs"])
}

// chromium finds headless Chromium: TOOLKIT_CHROMIUM, or chromium on the
// PATH. Without it the browser tests skip, unless
// TOOLKIT_REQUIRE_CHROMIUM is set (CI sets it).
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TOOLKIT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TOOLKIT_REQUIRE_CHROMIUM") != "" {
		t.Fatal("TOOLKIT_REQUIRE_CHROMIUM is set but no chromium was found (install the Debian package chromium)")
	}
	t.Skip("no chromium on this machine (Debian package chromium); .ci/run installs it")
	return ""
}

// newBrowser starts headless Chromium (see chromium) for the test and
// returns the context of one tab; it ends with the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true))
	allocated, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelTab := chromedp.NewContext(allocated)
	ctx, cancel := context.WithTimeout(tab, 3*time.Minute)
	t.Cleanup(func() { cancel(); cancelTab(); cancelAlloc() })
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	return ctx
}

// renderedDOM loads url in headless Chromium, waits until Swagger UI has
// drawn the operations, and returns the resulting DOM.
func renderedDOM(t *testing.T, url string) string {
	t.Helper()
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#swagger-ui .opblock"))))
	dom, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	require.NoError(t, err)
	return dom
}

// TestDocsPageListsTheOperations renders /docs/ in a real browser and reads
// the operations Swagger UI drew from the live document.
func TestDocsPageListsTheOperations(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	dom := renderedDOM(t, e.srv.URL+"/docs/")
	_, doc := e.do("GET", "/v1/openapi.json", nil, "")
	var want []string
	for _, item := range doc["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			want = append(want, op.(map[string]any)["operationId"].(string))
		}
	}
	shown := regexp.MustCompile(`class="opblock-summary-operation-id"[^>]*>([A-Za-z]+)<`).FindAllStringSubmatch(dom, -1)
	var got []string
	for _, m := range shown {
		got = append(got, m[1])
	}
	sort.Strings(want)
	sort.Strings(got)
	require.NotEmpty(t, got, "no operation in the rendered page:\n%.2000s", dom)
	assert.Equal(t, want, got, "the page lists every operation of the document, once")
	assert.Contains(t, dom, "Agent Finance Toolkit API")
}
