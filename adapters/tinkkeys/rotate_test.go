package tinkkeys_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotate(t *testing.T) {
	km, path := devKeys(t)
	oldID := km.PrimaryKeyID()
	oldCT := seal(t, km, agentA, "old") // also caches agent A's AEAD
	hash, err := km.LookupHash([]byte("sig"))
	require.NoError(t, err)

	newID, err := km.Rotate()
	require.NoError(t, err)
	assert.NotEqual(t, oldID, newID)
	assert.Equal(t, newID, km.PrimaryKeyID())

	// The cached AEAD was dropped: new ciphertexts use the new primary.
	newCT := seal(t, km, agentA, "new")
	assert.Equal(t, newID, keyIDOf(t, newCT))
	assert.Equal(t, oldID, keyIDOf(t, oldCT))
	assert.NotEqual(t, oldCT[:5], newCT[:5])

	for _, m := range []*tinkkeys.KeyManager{km, reload(t, path)} {
		got, err := open(m, agentA, oldCT)
		require.NoError(t, err)
		assert.Equal(t, "old", got)
		got, err = open(m, agentA, newCT)
		require.NoError(t, err)
		assert.Equal(t, "new", got)
		h, err := m.LookupHash([]byte("sig"))
		require.NoError(t, err)
		assert.Equal(t, hash, h, "lookup hash survives rotation and reload")
		assert.Equal(t, newID, m.PrimaryKeyID())
	}

	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

func reload(t *testing.T, path string) *tinkkeys.KeyManager {
	t.Helper()
	km, err := tinkkeys.LoadOrCreateDevKeys(path)
	require.NoError(t, err)
	return km
}

// Two-phase rotation: a second process that loaded the file after AddKey
// opens what the first seals after Promote.
func TestAddKeyThenPromote(t *testing.T) {
	km, path := devKeys(t)
	oldID := km.PrimaryKeyID()
	newID, err := km.AddKey()
	require.NoError(t, err)
	assert.Equal(t, oldID, km.PrimaryKeyID(), "an added key is not primary yet")
	assert.Equal(t, oldID, keyIDOf(t, seal(t, km, agentA, "x")))

	other := reload(t, path)
	require.NoError(t, km.Promote(newID))
	ct := seal(t, km, agentA, "after promote")
	assert.Equal(t, newID, keyIDOf(t, ct))
	got, err := open(other, agentA, ct)
	require.NoError(t, err)
	assert.Equal(t, "after promote", got)
	assert.Equal(t, newID, reload(t, path).PrimaryKeyID())
}

func TestPromoteUnknownKeyChangesNothing(t *testing.T) {
	km, path := devKeys(t)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	id := km.PrimaryKeyID()
	assert.Error(t, km.Promote(id+1))
	assert.Equal(t, id, km.PrimaryKeyID())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

func TestRotateEncryptedKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prod.json")
	kek, ad := newKEK(t), []byte("prod/agentfin-keys")
	km, err := tinkkeys.CreateEncryptedKeys(path, kek, ad)
	require.NoError(t, err)
	oldCT := seal(t, km, agentA, "old")
	newID, err := km.Rotate()
	require.NoError(t, err)

	again, err := tinkkeys.LoadEncryptedKeys(path, kek, ad)
	require.NoError(t, err, "the rewritten file keeps its KEK protection")
	assert.Equal(t, newID, again.PrimaryKeyID())
	got, err := open(again, agentA, oldCT)
	require.NoError(t, err)
	assert.Equal(t, "old", got)
	_, err = tinkkeys.LoadOrCreateDevKeys(path)
	assert.Error(t, err)
}

func TestRotateWithoutKeyFileIsRefused(t *testing.T) {
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	km, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	id := km.PrimaryKeyID()
	_, err = km.Rotate()
	assert.ErrorContains(t, err, "no key file")
	_, err = km.AddKey()
	assert.Error(t, err)
	assert.Equal(t, id, km.PrimaryKeyID())
}

// Sealing and opening go on while the keys rotate: every ciphertext opens,
// whichever keyset sealed it.
func TestRotateUnderLoad(t *testing.T) {
	km, _ := devKeys(t)
	stop := make(chan struct{})
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			agent := []string{agentA, agentB}[w%2]
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				ct, err := cryptovault.New(km).SealString(ctx, agent, field, "v")
				if err == nil {
					_, err = open(km, agent, ct)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 3 {
		_, err := km.Rotate()
		require.NoError(t, err)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}
