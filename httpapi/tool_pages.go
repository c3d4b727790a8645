package httpapi

import (
	"cmp"
	"net/http"
	"strings"
	"sync"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/httpapi/toolpages"
)

// The tool reference pages at /docs/tools/ (the index) and
// /docs/tools/<tool> or <tool>.md: rendered by toolpages from the served
// catalog, the live price table and the OpenAPI document's result
// schemas, once, at the first request. They are markdown, or HTML for a
// client that accepts text/html (a browser), under the docs page's
// Content-Security-Policy. The links between pages are <tool>.md, so the
// served pages and the repository's docs/tools/ (the same bytes) link
// alike.

// toolPagesPath is the index of the pages; toolPagesPaths are the patterns
// they are served at.
const toolPagesPath = "/docs/tools/"

var toolPagesPaths = []string{"/docs/tools", toolPagesPath + "{$}", toolPagesPath + "{page}"}

// renderedPages are the pages in markdown and in HTML, by page name (""
// for the index, else the tool name).
type renderedPages struct {
	once       sync.Once
	title      map[string]string
	md, html   map[string][]byte
	renderFail error
}

// toolPages renders the tool reference pages of the API's catalog, as
// /docs/tools/ serves them.
func (a *API) toolPages() (*toolpages.Pages, error) {
	return toolpages.Render(toolpages.Source{Catalog: a.svc.Catalog,
		Price:   func(op string) toolkit.Amount { return a.svc.Billing.Price(op, false) },
		Results: a.document.ResultSchema})
}

// render renders every page once.
func (p *renderedPages) render(a *API) error {
	p.once.Do(func() {
		pages, err := a.toolPages()
		if err != nil {
			p.renderFail = err
			return
		}
		p.title = map[string]string{"": "Tool reference"}
		p.md = map[string][]byte{"": pages.Index()}
		for _, t := range a.svc.Catalog.Tools() {
			p.title[t.Name] = cmp.Or(t.Title, t.Name)
			p.md[t.Name], _ = pages.Page(t.Name)
		}
		p.html = map[string][]byte{}
		for name, md := range p.md {
			if p.html[name], err = toolpages.HTML(p.title[name], md); err != nil {
				p.renderFail = err
				return
			}
		}
	})
	return p.renderFail
}

// toolPage serves the index or one tool's page (an alias finds its tool's
// page); /docs/tools redirects to /docs/tools/. An unknown page is a
// JSON 404.
func (a *API) toolPage(w http.ResponseWriter, r *http.Request) error {
	if !strings.HasSuffix(r.URL.Path, "/") && r.PathValue("page") == "" {
		w.Header().Set("Location", "tools/") // relative: stays under a mount prefix
		w.WriteHeader(http.StatusMovedPermanently)
		return nil
	}
	if err := a.pages.render(a); err != nil {
		return toolkit.WithOp("httpapi.toolPage", err)
	}
	name := strings.TrimSuffix(r.PathValue("page"), ".md")
	if name == strings.TrimSuffix(toolpages.IndexFile, ".md") {
		name = ""
	}
	if name != "" {
		t, ok := a.svc.Catalog.Resolve(name)
		if !ok {
			return toolkit.Errorf(toolkit.NotFound, "No tool called %q: GET %s lists the tools", name, toolPagesPath)
		}
		name = t.Name
	}
	h := w.Header()
	h.Set("Content-Security-Policy", docsCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept")
	body := a.pages.md[name]
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		h.Set("Content-Type", "text/html; charset=utf-8")
		body = a.pages.html[name]
	} else {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	_, _ = w.Write(body)
	return nil
}
