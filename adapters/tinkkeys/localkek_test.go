package tinkkeys_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalKEKProtectsAKeyFile(t *testing.T) {
	dir := t.TempDir()
	kekPath, keysPath := filepath.Join(dir, "kek.json"), filepath.Join(dir, "keys.json")
	ad := []byte("test/agentfin-keys")

	kek, err := tinkkeys.CreateLocalKEK(kekPath)
	require.NoError(t, err)
	st, err := os.Stat(kekPath)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	km, err := tinkkeys.CreateEncryptedKeys(keysPath, kek, ad)
	require.NoError(t, err)
	ct := seal(t, km, agentA, "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")

	loaded, err := tinkkeys.LoadLocalKEK(kekPath)
	require.NoError(t, err)
	again, err := tinkkeys.LoadEncryptedKeys(keysPath, loaded, ad)
	require.NoError(t, err, "the KEK read back from its file opens the key file")
	got, err := open(again, agentA, ct)
	require.NoError(t, err)
	assert.Equal(t, "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", got)

	other, err := tinkkeys.CreateLocalKEK(filepath.Join(dir, "other.json"))
	require.NoError(t, err)
	_, err = tinkkeys.LoadEncryptedKeys(keysPath, other, ad)
	assert.Error(t, err, "another KEK fails")

	_, err = tinkkeys.CreateLocalKEK(kekPath)
	assert.ErrorIs(t, err, fs.ErrExist, "never overwritten")
}

func TestLoadLocalKEKRefusals(t *testing.T) {
	dir := t.TempDir()
	kekPath := filepath.Join(dir, "kek.json")
	_, err := tinkkeys.CreateLocalKEK(kekPath)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(kekPath, 0o640))
	_, err = tinkkeys.LoadLocalKEK(kekPath)
	assert.ErrorContains(t, err, "chmod 600")

	_, err = tinkkeys.LoadLocalKEK(filepath.Join(dir, "missing.json"))
	assert.ErrorIs(t, err, fs.ErrNotExist)

	// A development key file is not a KEK.
	_, devPath := devKeys(t)
	_, err = tinkkeys.LoadLocalKEK(devPath)
	assert.ErrorContains(t, err, "not a Tink JSON keyset")

	_, err = tinkkeys.LoadLocalKEK("")
	assert.Error(t, err)
}
