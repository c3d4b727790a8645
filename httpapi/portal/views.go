package portal

import (
	"bytes"
	"crypto/subtle"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
)

//go:embed templates
var templateFiles embed.FS

// pages are the parsed page templates: each is the layout plus one page.
type pages struct {
	byName map[string]*template.Template
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"amount": func(a any) string {
		switch v := a.(type) {
		case toolkit.Amount:
			return "$" + v.String()
		case *toolkit.Amount:
			if v == nil {
				return "no limit"
			}
			return "$" + v.String()
		}
		return fmt.Sprint(a)
	},
	"plain": func(a *toolkit.Amount) string {
		if a == nil {
			return ""
		}
		return a.String()
	},
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			if v.IsZero() {
				return "never"
			}
			return v.UTC().Format("2006-01-02 15:04 UTC")
		case *time.Time:
			if v == nil {
				return "never"
			}
			return v.UTC().Format("2006-01-02 15:04 UTC")
		}
		return ""
	},
	"usd": func(micros int64) string {
		if micros < 0 {
			return "-$" + billing.USD(-micros).String()
		}
		return "$" + billing.USD(micros).String()
	},
	"join": strings.Join,
	"deref": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
}

func parsePages() (*pages, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &pages{byName: map[string]*template.Template{}}
	for _, n := range names {
		if path.Base(n) == "layout.html" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFiles, n)
		if err != nil {
			return nil, err
		}
		p.byName[strings.TrimSuffix(path.Base(n), ".html")] = t
	}
	return p, nil
}

// view is what the layout renders around a page.
type view struct {
	Title string
	// Nav is "owner", "operator" or "" (signed out).
	Nav string
	// Active names the current nav entry.
	Active string
	CSRF   string
	Flash  flash
	// OwnerID is the signed-in owner.
	OwnerID string
	Body    any
}

// render writes a page with its status.
func (h *Handler) render(w http.ResponseWriter, status int, page string, v view) {
	var buf bytes.Buffer
	if err := h.pages.byName[page].ExecuteTemplate(&buf, "layout.html", v); err != nil {
		h.cfg.Logger.Error("portal template failed", "page", page, "error", err.Error())
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// renderPage renders a signed-in page.
func (h *Handler) renderPage(w http.ResponseWriter, r request, page, title, active string, body any) error {
	nav := "owner"
	if r.sess.operator {
		nav = "operator"
	}
	h.render(w, http.StatusOK, page, view{Title: title, Nav: nav, Active: active, CSRF: r.sess.csrf, Flash: r.sess.flash,
		OwnerID: r.owner.ID, Body: body})
	return nil
}

// signInView is the body of the sign-in page.
type signInView struct {
	Message        string
	OwnerPrefix    string
	OperatorSignIn bool
}

func (h *Handler) renderSignIn(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, status, "signin", view{Title: "Sign in", Body: signInView{Message: msg,
		OwnerPrefix: h.cfg.Agents.OwnerKeyPrefix(), OperatorSignIn: h.cfg.AdminKey != ""}})
}

func (h *Handler) renderError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, status, "error", view{Title: http.StatusText(status), Body: msg})
}

func constantTimeEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
