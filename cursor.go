package toolkit

import (
	"encoding/base64"
	"hash/crc32"
	"strconv"
	"strings"
	"time"
)

// Cursor is a place in a list ordered newest first by a time, then by an
// id: the keyset of every paginated list (the ledger, journal trades,
// support tickets and submissions, guardian events). A page continues
// strictly after the cursor of the previous page's last item, so items
// written meanwhile never shift a later page. Clients see only its opaque
// text.
type Cursor struct {
	At time.Time
	ID string
}

// MaxCursorLen bounds a cursor's text before it is decoded.
const MaxCursorLen = 200

// Encode writes c as opaque text for the list tagged tag: base64url of
// "<tag>.<At in Unix microseconds>.<ID>.<CRC-32>". The tag keeps a cursor
// of one list (or an older format) from being read by another; the
// checksum makes an edited cursor a 400 instead of a page from somewhere
// else. A cursor only ever selects the caller's own items, so it needs no
// secret.
func (c Cursor) Encode(tag string) string {
	body := tag + "." + strconv.FormatInt(max(c.At.UnixMicro(), 0), 10) + "." + c.ID
	return base64.RawURLEncoding.EncodeToString([]byte(body + "." + checksum(body)))
}

// ParseCursor reads text that Encode wrote with the same tag and whose id
// passes validID. Anything else is Invalid naming the cursor parameter.
func ParseCursor(tag, s string, validID func(string) bool) (Cursor, error) {
	bad := Errorf(Invalid, "cursor: must be the next_cursor of a previous answer, unchanged")
	if len(s) > MaxCursorLen {
		return Cursor{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Cursor{}, bad
	}
	body, sum, ok := cutLast(string(raw), ".")
	if !ok || checksum(body) != sum {
		return Cursor{}, bad
	}
	parts := strings.SplitN(body, ".", 3)
	if len(parts) != 3 || parts[0] != tag || !validID(parts[2]) {
		return Cursor{}, bad
	}
	micros, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || micros < 0 {
		return Cursor{}, bad
	}
	return Cursor{At: time.UnixMicro(micros).UTC(), ID: parts[2]}, nil
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// checksum is the CRC-32 of s in hex.
func checksum(s string) string {
	return strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(s))), 16)
}

// PageInput asks for one page of a list: Limit items (0: the list's
// default) after Cursor ("": from the newest).
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

// Keyset is how one list pages: the tag of its cursors, its default and
// largest page, and what a valid item id looks like.
type Keyset struct {
	Tag          string
	DefaultLimit int
	MaxLimit     int
	ValidID      func(id string) bool
}

// Parse validates p's limit (0: the default; outside 1..MaxLimit is
// Invalid naming the limit parameter) and decodes its cursor (nil: from
// the newest item).
func (k Keyset) Parse(p PageInput) (limit int, after *Cursor, err error) {
	if limit, err = PageLimit(p.Limit, k.DefaultLimit, k.MaxLimit); err != nil || p.Cursor == "" {
		return limit, nil, err
	}
	c, err := ParseCursor(k.Tag, p.Cursor, k.ValidID)
	if err != nil {
		return 0, nil, err
	}
	return limit, &c, nil
}

// PageOf trims items, fetched with limit+1 of them, to limit and says
// whether more follow: the Page continues after the last item kept, whose
// place cursorOf gives.
func PageOf[T any](k Keyset, items []T, limit int, cursorOf func(T) Cursor) ([]T, Page) {
	if len(items) <= limit {
		return items, Page{}
	}
	items = items[:limit]
	return items, Page{HasMore: true, NextCursor: cursorOf(items[limit-1]).Encode(k.Tag)}
}

// PageLimit applies a list's default (when limit is 0) and maximum; a limit
// outside 1..maxLimit is Invalid naming the limit parameter.
func PageLimit(limit, def, maxLimit int) (int, error) {
	switch {
	case limit == 0:
		return def, nil
	case limit < 1 || limit > maxLimit:
		return 0, Errorf(Invalid, "limit: must be an integer between 1 and %d (got %d)", maxLimit, limit)
	}
	return limit, nil
}
