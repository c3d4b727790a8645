package support

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// List limits: like the ledger, 100 items by default and at most 1000.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// cursorVersion starts every cursor so the format can change later.
const cursorVersion = "p1"

// maxCursorLen bounds a cursor before it is decoded.
const maxCursorLen = 200

// PageInput asks for one page of a list: Limit items (0 means
// DefaultListLimit) after Cursor ("" means from the newest).
type PageInput struct {
	Limit  int
	Cursor string
}

// Page is the paging part of a list answer. NextCursor is set when
// HasMore is: passing it back returns the following page.
type Page struct {
	HasMore    bool
	NextCursor string
}

// parse validates the limit and decodes the cursor, naming the query
// parameter on error.
func (p PageInput) parse() (int, *Position, error) {
	limit := p.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return 0, nil, invalid("limit: must be between 1 and %d (got %d)", MaxListLimit, p.Limit)
	}
	if p.Cursor == "" {
		return limit, nil, nil
	}
	pos, ok := decodeCursor(p.Cursor)
	if !ok {
		return 0, nil, invalid("cursor: must be the next_cursor of a previous answer")
	}
	return limit, &pos, nil
}

// encodeCursor makes the opaque cursor of a position: base64url of
// "p1.<created_at in Unix microseconds>.<id>".
func encodeCursor(p Position) string {
	raw := cursorVersion + "." + strconv.FormatInt(p.CreatedAt.UnixMicro(), 10) + "." + p.ID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// decodeCursor reverses encodeCursor, refusing anything it did not make.
func decodeCursor(s string) (Position, bool) {
	if len(s) > maxCursorLen {
		return Position{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Position{}, false
	}
	parts := strings.SplitN(string(raw), ".", 3)
	if len(parts) != 3 || parts[0] != cursorVersion || !validRecordID(parts[2]) {
		return Position{}, false
	}
	micros, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || micros < 0 {
		return Position{}, false
	}
	return Position{CreatedAt: time.UnixMicro(micros).UTC(), ID: parts[2]}, true
}

// pageOf trims a list fetched with limit+1 items to limit and says whether
// more follow.
func pageOf[T any](items []T, limit int, pos func(T) Position) ([]T, Page) {
	if len(items) <= limit {
		return items, Page{}
	}
	items = items[:limit]
	return items, Page{HasMore: true, NextCursor: encodeCursor(pos(items[limit-1]))}
}
