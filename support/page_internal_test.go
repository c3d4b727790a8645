package support

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPageCursorRoundTrip(t *testing.T) {
	c := toolkit.Cursor{At: time.Date(2026, 11, 24, 9, 0, 0, 123456000, time.UTC), ID: "sup_0123456789abcdef"}
	limit, got, err := listKeyset.Parse(toolkit.PageInput{Cursor: c.Encode(listKeyset.Tag)})
	require.NoError(t, err)
	assert.Equal(t, DefaultListLimit, limit)
	assert.Equal(t, c, *got)
	for _, bad := range []string{"bm9wZQ", toolkit.Cursor{At: c.At, ID: "x"}.Encode(listKeyset.Tag),
		toolkit.Cursor{At: c.At, ID: "sup_0123456789abcdef'; --"}.Encode(listKeyset.Tag),
		c.Encode("j1")} {
		_, _, err := listKeyset.Parse(toolkit.PageInput{Cursor: bad})
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
	}
}
