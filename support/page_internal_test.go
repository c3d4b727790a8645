package support

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCursorRoundTrip(t *testing.T) {
	p := Position{CreatedAt: time.Date(2026, 11, 24, 9, 0, 0, 123456000, time.UTC), ID: "sup_0123456789abcdef"}
	got, ok := decodeCursor(encodeCursor(p))
	require.True(t, ok)
	assert.True(t, got.CreatedAt.Equal(p.CreatedAt))
	assert.Equal(t, time.UTC, got.CreatedAt.Location())
	assert.Equal(t, p.ID, got.ID)
	for _, bad := range []string{"", "bm9wZQ", "!!!", encodeCursor(Position{CreatedAt: p.CreatedAt, ID: "x"}),
		encodeCursor(Position{CreatedAt: p.CreatedAt, ID: "sup_0123456789abcdef'; --"})} {
		_, ok := decodeCursor(bad)
		assert.False(t, ok, bad)
	}
}

// FuzzDecodeCursor: any string decodes or is refused without panicking,
// and whatever decodes encodes back to a cursor that decodes the same.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(Position{CreatedAt: time.Unix(1, 0), ID: "fb_0123456789abcdef"}))
	f.Add("cDEuMS5h")
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := decodeCursor(s)
		if !ok {
			return
		}
		again, ok := decodeCursor(encodeCursor(p))
		require.True(t, ok)
		assert.Equal(t, p, again)
	})
}
