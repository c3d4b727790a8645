package toolkit_test

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewID(t *testing.T) {
	id, err := toolkit.NewID(nil, "tx_")
	require.NoError(t, err)
	assert.Len(t, id, 3+toolkit.IDRandomLen)
	assert.True(t, toolkit.ValidID("tx_", id))
	for _, bad := range []string{"tx_", "tx_ABCDEFGHIJKLMNOP", "ag_" + id[3:], id + "a", "tx_abc'; drop table--"} {
		assert.False(t, toolkit.ValidID("tx_", bad), bad)
	}
}

// TestRandomStringIsUnbiased draws from every byte value equally often:
// without rejection sampling the first 256%36 = 4 characters would come
// up 8 times where the others come up 7.
func TestRandomStringIsUnbiased(t *testing.T) {
	all := make([]byte, 256*100)
	for i := range all {
		all[i] = byte(i)
	}
	s, err := toolkit.RandomString(bytes.NewReader(all), toolkit.IDAlphabet, 252*100/2)
	require.NoError(t, err)
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	require.Len(t, counts, len(toolkit.IDAlphabet))
	for c, n := range counts {
		assert.Equal(t, counts['a'], n, "character %q", c)
	}
	_, err = toolkit.RandomString(bytes.NewReader(nil), toolkit.IDAlphabet, 4)
	assert.Error(t, err, "a failing reader is an error")
	key, err := toolkit.RandomString(rand.Reader, toolkit.Alphanumerics, 40)
	require.NoError(t, err)
	assert.Len(t, key, 40)
	assert.Equal(t, -1, strings.IndexFunc(key, func(r rune) bool { return !strings.ContainsRune(toolkit.Alphanumerics, r) }))
}

// TestRandomStringRejectsBiasedBytes: bytes 248..255 would make the first
// 8 characters of Alphanumerics more likely under a plain modulo; they are
// skipped.
func TestRandomStringRejectsBiasedBytes(t *testing.T) {
	src := bytes.NewReader(append([]byte{255, 248, 0, 61, 62, 247, 123, 250}, make([]byte, 64)...))
	s, err := toolkit.RandomString(src, toolkit.Alphanumerics, 5)
	require.NoError(t, err)
	// 0 -> 'A', 61 -> '9', 62 -> 'A' (62 % 62), 247 -> 247 % 62 = 61 -> '9', 123 -> 61 -> '9'
	assert.Equal(t, "A9A99", s)
}
