package toolkit_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func validTestID(id string) bool { return strings.HasPrefix(id, "x_") && len(id) < 40 }

func TestCursorRoundTrip(t *testing.T) {
	c := toolkit.Cursor{At: time.Date(2026, 11, 24, 9, 0, 0, 123456000, time.UTC), ID: "x_0123456789abcdef"}
	got, err := toolkit.ParseCursor("t1", c.Encode("t1"), validTestID)
	require.NoError(t, err)
	assert.Equal(t, c, got)
	assert.Equal(t, time.UTC, got.At.Location())
	for _, bad := range []string{"", "bm9wZQ", "!!!", c.Encode("t2"), strings.Repeat("A", toolkit.MaxCursorLen+1),
		toolkit.Cursor{At: c.At, ID: "y_1"}.Encode("t1"), toolkit.Cursor{At: c.At, ID: "x_1'; --" + strings.Repeat("z", 40)}.Encode("t1")} {
		_, err := toolkit.ParseCursor("t1", bad, validTestID)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
		assert.Contains(t, toolkit.MessageOf(err), "cursor:", bad)
	}
}

func TestPageLimit(t *testing.T) {
	n, err := toolkit.PageLimit(0, 100, 1000)
	require.NoError(t, err)
	assert.Equal(t, 100, n)
	n, err = toolkit.PageLimit(1000, 100, 1000)
	require.NoError(t, err)
	assert.Equal(t, 1000, n)
	for _, bad := range []int{-1, 1001} {
		_, err := toolkit.PageLimit(bad, 100, 1000)
		assert.Equal(t, "limit: must be an integer between 1 and 1000 (got "+map[int]string{-1: "-1", 1001: "1001"}[bad]+")", toolkit.MessageOf(err))
	}
}

// FuzzParseCursor: any text parses or is refused without panicking, and
// whatever parses encodes back to text that parses the same.
func FuzzParseCursor(f *testing.F) {
	f.Add(toolkit.Cursor{At: time.Unix(1, 0), ID: "x_0123456789abcdef"}.Encode("t1"))
	f.Add("dDEuMS54Xw")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := toolkit.ParseCursor("t1", s, validTestID)
		if err != nil {
			return
		}
		again, err := toolkit.ParseCursor("t1", c.Encode("t1"), validTestID)
		require.NoError(t, err)
		assert.Equal(t, c, again)
	})
}

func TestCursorChecksumRefusesEdits(t *testing.T) {
	good := toolkit.Cursor{At: time.Unix(1_800_000_000, 0), ID: "x_5"}.Encode("t1")
	raw, err := base64.RawURLEncoding.DecodeString(good)
	require.NoError(t, err)
	edited := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), "x_5", "x_6", 1)))
	_, err = toolkit.ParseCursor("t1", edited, validTestID)
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "an edited cursor fails its checksum")
}

func TestKeysetPages(t *testing.T) {
	k := toolkit.Keyset{Tag: "t1", DefaultLimit: 2, MaxLimit: 3, ValidID: validTestID}
	at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	items := []string{"x_3", "x_2", "x_1"} // fetched with limit+1
	cursorOf := func(id string) toolkit.Cursor { return toolkit.Cursor{At: at, ID: id} }

	limit, after, err := k.Parse(toolkit.PageInput{})
	require.NoError(t, err)
	assert.Equal(t, 2, limit)
	assert.Nil(t, after, "no cursor: from the newest")
	kept, page := toolkit.PageOf(k, items, limit, cursorOf)
	assert.Equal(t, []string{"x_3", "x_2"}, kept)
	require.True(t, page.HasMore)

	_, after, err = k.Parse(toolkit.PageInput{Cursor: page.NextCursor})
	require.NoError(t, err)
	assert.Equal(t, toolkit.Cursor{At: at, ID: "x_2"}, *after, "the next page continues after the last item kept")
	kept, page = toolkit.PageOf(k, items[2:], limit, cursorOf)
	assert.Equal(t, []string{"x_1"}, kept)
	assert.Equal(t, toolkit.Page{}, page, "the last page")

	_, _, err = k.Parse(toolkit.PageInput{Limit: 4})
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "over MaxLimit")
}
