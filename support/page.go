package support

import "github.com/agentfinance/toolkit"

// List limits: like the ledger, 100 items by default and at most 1000.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// cursorTag marks the cursors of the support lists.
const cursorTag = "p1"

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
	limit, err := toolkit.PageLimit(p.Limit, DefaultListLimit, MaxListLimit)
	if err != nil || p.Cursor == "" {
		return limit, nil, err
	}
	c, err := toolkit.ParseCursor(cursorTag, p.Cursor, validRecordID)
	if err != nil {
		return 0, nil, err
	}
	return limit, &Position{CreatedAt: c.At, ID: c.ID}, nil
}

// encodeCursor makes the opaque cursor of a position.
func encodeCursor(p Position) string {
	return toolkit.Cursor{At: p.CreatedAt, ID: p.ID}.Encode(cursorTag)
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
