package httpapi_test

import (
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// updateToolPages rewrites docs/tools/ from the served pages.
var updateToolPages = flag.Bool("update", false, "rewrite docs/tools/ from the tool reference pages the API serves")

// toolPagesDir is the repository's copy of the tool reference pages.
const toolPagesDir = "../docs/tools"

// getPage fetches a page of /docs/tools/ with the given Accept header.
func (e *env) getPage(t *testing.T, path, accept string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("GET", e.srv.URL+path, nil)
	require.NoError(t, err)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header, string(b)
}

// TestToolPages holds docs/tools/ to the pages the server renders from
// the full catalog (45 tools): one file per tool and README.md, byte for
// byte, and no other file. With -update (go generate ./finance/catalog)
// it writes them instead.
func TestToolPages(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	served := map[string]string{}
	status, _, index := e.getPage(t, "/docs/tools/", "text/markdown")
	require.Equal(t, http.StatusOK, status, index)
	served["README.md"] = index
	for _, name := range e.services.Catalog.Names() {
		status, _, page := e.getPage(t, "/docs/tools/"+name+".md", "")
		require.Equal(t, http.StatusOK, status, name)
		served[name+".md"] = page
	}
	require.Len(t, served, 46, "45 tools and the index")
	if *updateToolPages {
		require.NoError(t, os.MkdirAll(toolPagesDir, 0o755))
		old, err := filepath.Glob(filepath.Join(toolPagesDir, "*.md"))
		require.NoError(t, err)
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		for name, page := range served {
			require.NoError(t, os.WriteFile(filepath.Join(toolPagesDir, name), []byte(page), 0o644))
		}
		return
	}
	files, err := filepath.Glob(filepath.Join(toolPagesDir, "*"))
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	slices.Sort(names)
	var want []string
	for name := range served {
		want = append(want, name)
	}
	slices.Sort(want)
	assert.Equal(t, want, names, "docs/tools/ holds one page per tool and README.md: run go generate ./finance/catalog")
	for name, page := range served {
		b, err := os.ReadFile(filepath.Join(toolPagesDir, name))
		if err == nil && string(b) != page {
			t.Errorf("docs/tools/%s is stale: run go generate ./finance/catalog", name)
		}
	}
}

// TestToolPagesAreServed checks the pages' forms: markdown by default,
// HTML for a browser, an alias finds its tool's page, the index lists
// every tool, and an unknown page is a JSON 404.
func TestToolPagesAreServed(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	var wg sync.WaitGroup
	for _, page := range []string{"", "calculate_kelly", "store_memory.md", "README.md"} {
		wg.Go(func() { // the first requests render the pages together
			res, err := e.srv.Client().Get(e.srv.URL + "/docs/tools/" + page)
			if assert.NoError(t, err) {
				res.Body.Close()
				assert.Equal(t, http.StatusOK, res.StatusCode, page)
			}
		})
	}
	wg.Wait()
	status, h, index := e.getPage(t, "/docs/tools/", "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "text/markdown; charset=utf-8", h.Get("Content-Type"))
	assert.Contains(t, h.Get("Content-Security-Policy"), "default-src 'self'")
	for _, name := range e.services.Catalog.Names() {
		assert.Contains(t, index, "]("+name+".md)", "the index links %s", name)
	}
	_, _, readme := e.getPage(t, "/docs/tools/README.md", "")
	assert.Equal(t, index, readme)
	_, _, llms := e.getPage(t, "/llms.txt", "")
	assert.Contains(t, llms, e.srv.URL+"/docs/tools/", "llms.txt points at the pages")

	status, h, page := e.getPage(t, "/docs/tools/evaluate_performance", "text/html,application/xhtml+xml")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "text/html; charset=utf-8", h.Get("Content-Type"))
	assert.Contains(t, page, "<title>Performance Evaluation (G-Metric) · Agent Finance Toolkit</title>")
	assert.Contains(t, page, "<table>", "the tables are rendered")
	assert.Contains(t, page, `href="README.md#core-conventions"`)
	assert.Contains(t, page, `<h2 id="arguments">Arguments</h2>`, "headings are rendered with their anchors")

	_, _, byAlias := e.getPage(t, "/docs/tools/calculate_system_r_score", "")
	_, _, byName := e.getPage(t, "/docs/tools/calculate_system_score.md", "")
	assert.Equal(t, byName, byAlias, "an alias finds its tool's page")
	assert.True(t, strings.HasPrefix(byName, "<!-- Generated"), byName[:40])

	status, h, body := e.getPage(t, "/docs/tools/no_such_tool", "")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "application/json", strings.Split(h.Get("Content-Type"), ";")[0])
	assert.Contains(t, body, `"code":"not_found"`)

	req, err := http.NewRequest("GET", e.srv.URL+"/docs/tools", nil)
	require.NoError(t, err)
	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMovedPermanently, res.StatusCode)
	assert.Equal(t, "tools/", res.Header.Get("Location"))
}
