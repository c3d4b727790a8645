package toolkit

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Cursor is a place in a list ordered newest first by a time, then by an
// id: the keyset of the paginated lists (journal trades, support tickets
// and submissions, guardian events). A page continues strictly after the
// cursor of the previous page's last item, so items written meanwhile
// never shift a later page. Clients see only its opaque text.
type Cursor struct {
	At time.Time
	ID string
}

// MaxCursorLen bounds a cursor's text before it is decoded.
const MaxCursorLen = 200

// Encode writes c as opaque text for the list tagged tag: base64url of
// "<tag>.<At in Unix microseconds>.<ID>". The tag keeps a cursor of one
// list (or an older format) from being read by another.
func (c Cursor) Encode(tag string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(tag + "." + strconv.FormatInt(c.At.UnixMicro(), 10) + "." + c.ID))
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
	parts := strings.SplitN(string(raw), ".", 3)
	if len(parts) != 3 || parts[0] != tag || !validID(parts[2]) {
		return Cursor{}, bad
	}
	micros, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || micros < 0 {
		return Cursor{}, bad
	}
	return Cursor{At: time.UnixMicro(micros).UTC(), ID: parts[2]}, nil
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
