package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// queryParam is a query parameter of a route. A route of the table
// refuses any parameter it does not declare, and any parameter given
// twice, with a 400 naming it; the declarations are published in the
// OpenAPI document.
type queryParam struct {
	name        string
	description string
	schema      map[string]any
}

// limitParam is a list's page size.
func limitParam(def, max int) queryParam {
	return queryParam{name: "limit", description: "Number of items, 1 to " + strconv.Itoa(max),
		schema: map[string]any{"type": "integer", "minimum": 1, "maximum": max, "default": def}}
}

// cursorParam is the opaque position of a list's next page.
var cursorParam = queryParam{name: "cursor", description: "next_cursor of the previous page; omit for the first page",
	schema: map[string]any{"type": "string", "maxLength": 200}}

// enumParam is a filter over a closed set of values.
func enumParam[T ~string](name, description string, values []T) queryParam {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	return queryParam{name: name, description: description, schema: map[string]any{"type": "string", "enum": enum}}
}

// textParam is a free-text filter of at most maxLen characters.
func textParam(name, description string, maxLen int) queryParam {
	return queryParam{name: name, description: description, schema: map[string]any{"type": "string", "maxLength": maxLen}}
}

// checkQuery refuses query parameters a route does not declare, and
// declared ones given more than once.
func checkQuery(r *http.Request, declared []queryParam) error {
	names := make([]string, len(declared))
	for i, p := range declared {
		names[i] = p.name
	}
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(names, k) {
			allowed := "none"
			if len(names) > 0 {
				allowed = strings.Join(names, ", ")
			}
			return toolkit.Errorf(toolkit.Invalid, "Unknown query parameter: %s (allowed: %s)", quoteParam(k), allowed)
		}
		if len(q[k]) > 1 {
			return toolkit.Errorf(toolkit.Invalid, "%s: appears twice in the query", k)
		}
	}
	return nil
}

// queryInt parses an optional integer parameter in [1, max]; def when
// absent.
func queryInt(r *http.Request, name string, def, max int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, toolkit.Errorf(toolkit.Invalid, "%s: must be an integer between 1 and %d (got %s)", name, max, quoteParam(s))
	}
	return n, nil
}

// quoteParam quotes a client-supplied query value for a message, cut to
// 40 bytes.
func quoteParam(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}
