package httpapi

import (
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
)

// queryParam is one query parameter a route accepts. Every route of the
// table refuses the parameters it does not declare (400 naming them), and
// the OpenAPI document lists the declared ones.
type queryParam struct {
	name   string
	schema map[string]any
}

// limitParam is a page size with its default and maximum.
func limitParam(def, maxLimit int) queryParam {
	return queryParam{name: "limit", schema: map[string]any{"type": "integer", "minimum": 1, "maximum": maxLimit, "default": def,
		"description": "page size"}}
}

// maxCursorLen bounds a cursor in a request.
const maxCursorLen = 128

// cursorParam continues a listing.
var cursorParam = queryParam{name: "cursor", schema: map[string]any{"type": "string", "maxLength": maxCursorLen,
	"description": "next_cursor of the previous page, unchanged; omit for the first page"}}

// checkQuery refuses parameters a route does not declare, and repeated
// ones.
func checkQuery(r *http.Request, params []queryParam) error {
	q := r.URL.Query()
	if len(q) == 0 {
		return nil
	}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.name
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(names, k) {
			accepted := "none"
			if len(names) > 0 {
				accepted = strings.Join(names, ", ")
			}
			return toolkit.Errorf(toolkit.Invalid, "Unknown query parameter: %s (accepted: %s)", clipText(k, 40), accepted)
		}
		if len(q[k]) > 1 {
			return toolkit.Errorf(toolkit.Invalid, "%s: give this query parameter once", k)
		}
	}
	return nil
}

// queryLimit reads the limit parameter: def when absent, an error naming
// the range when it is not an integer from 1 to maxLimit.
func queryLimit(r *http.Request, def, maxLimit int) (int, error) {
	s := r.URL.Query().Get("limit")
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxLimit {
		return 0, toolkit.Errorf(toolkit.Invalid, "limit: must be an integer between 1 and %d (got %q)", maxLimit, clipText(s, 20))
	}
	return n, nil
}

// clipText bounds a client value quoted in a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
