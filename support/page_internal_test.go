package support

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPageCursorRoundTrip(t *testing.T) {
	p := Position{CreatedAt: time.Date(2026, 11, 24, 9, 0, 0, 123456000, time.UTC), ID: "sup_0123456789abcdef"}
	limit, got, err := PageInput{Cursor: encodeCursor(p)}.parse()
	require.NoError(t, err)
	assert.Equal(t, DefaultListLimit, limit)
	assert.Equal(t, p, *got)
	for _, bad := range []string{"bm9wZQ", encodeCursor(Position{CreatedAt: p.CreatedAt, ID: "x"}),
		encodeCursor(Position{CreatedAt: p.CreatedAt, ID: "sup_0123456789abcdef'; --"}),
		toolkit.Cursor{At: p.CreatedAt, ID: p.ID}.Encode("j1")} {
		_, _, err := PageInput{Cursor: bad}.parse()
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
	}
}
