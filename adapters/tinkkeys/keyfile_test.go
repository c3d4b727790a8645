package tinkkeys_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readContents decodes the wrapper of a key file.
func readContents(t *testing.T, path string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var c map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &c))
	return c
}

func TestDevKeyFileIsPrivate(t *testing.T) {
	_, path := devKeys(t)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	dir, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm())

	c := readContents(t, path)
	assert.JSONEq(t, `"agentfin-keys-v1"`, string(c["format"]))
	assert.JSONEq(t, `"cleartext"`, string(c["protection"]))
	assert.Contains(t, string(c["master"]), "PrfBasedDeriverKey")
	assert.Contains(t, string(c["lookup"]), "HmacPrfKey")

	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

func TestDevKeyFileReloadDerivesTheSameKeys(t *testing.T) {
	km, path := devKeys(t)
	ct := seal(t, km, agentA, "before reload")
	h1, err := cryptovault.New(km).Hash("tx_signature", []byte("sig"))
	require.NoError(t, err)

	again, err := tinkkeys.LoadOrCreateDevKeys(path)
	require.NoError(t, err)
	got, err := open(again, agentA, ct)
	require.NoError(t, err)
	assert.Equal(t, "before reload", got)
	h2, err := cryptovault.New(again).Hash("tx_signature", []byte("sig"))
	require.NoError(t, err)
	assert.Equal(t, h1, h2)
	assert.Equal(t, km.PrimaryKeyID(), again.PrimaryKeyID())
}

func TestDevKeyFileWithLoosePermissionsIsRefused(t *testing.T) {
	_, path := devKeys(t)
	for _, mode := range []os.FileMode{0o640, 0o604, 0o660, 0o644} {
		require.NoError(t, os.Chmod(path, mode))
		_, err := tinkkeys.LoadOrCreateDevKeys(path)
		require.Error(t, err, "mode %04o", mode)
		assert.Contains(t, err.Error(), "chmod 600")
	}
	require.NoError(t, os.Chmod(path, 0o400))
	_, err := tinkkeys.LoadOrCreateDevKeys(path)
	assert.NoError(t, err, "owner-only read is fine")
}

// Processes starting at once on a missing file all end up with the one
// file that was created first.
func TestConcurrentDevKeyCreationAgrees(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dev.json")
	const n = 8
	kms := make([]*tinkkeys.KeyManager, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { kms[i], errs[i] = tinkkeys.LoadOrCreateDevKeys(path) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
	}
	ct := seal(t, kms[0], agentA, "shared")
	for i := 1; i < n; i++ {
		got, err := open(kms[i], agentA, ct)
		require.NoError(t, err, "manager %d", i)
		assert.Equal(t, "shared", got)
	}
}

func TestEncryptedKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prod.json")
	kek, ad := newKEK(t), []byte("prod/agentfin-keys")
	km, err := tinkkeys.CreateEncryptedKeys(path, kek, ad)
	require.NoError(t, err)
	ct := seal(t, km, agentA, "sealed before reload")
	h1, err := km.LookupHash([]byte("x"))
	require.NoError(t, err)

	c := readContents(t, path)
	assert.JSONEq(t, `"kek"`, string(c["protection"]))
	for _, role := range []string{"master", "lookup"} {
		var ks map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(c[role], &ks))
		assert.Contains(t, ks, "encryptedKeyset", role)
		assert.NotContains(t, ks, "key", "%s holds no cleartext keys", role)
	}
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	again, err := tinkkeys.LoadEncryptedKeys(path, kek, ad)
	require.NoError(t, err)
	got, err := open(again, agentA, ct)
	require.NoError(t, err)
	assert.Equal(t, "sealed before reload", got)
	h2, err := again.LookupHash([]byte("x"))
	require.NoError(t, err)
	assert.Equal(t, h1, h2)

	_, err = tinkkeys.CreateEncryptedKeys(path, kek, ad)
	assert.ErrorIs(t, err, os.ErrExist, "never overwrites a key file")
}

func TestEncryptedKeyFileRefusals(t *testing.T) {
	dir := t.TempDir()
	encrypted := filepath.Join(dir, "prod.json")
	kek, ad := newKEK(t), []byte("prod/agentfin-keys")
	_, err := tinkkeys.CreateEncryptedKeys(encrypted, kek, ad)
	require.NoError(t, err)
	_, cleartext := devKeys(t)

	// swapped has the master and lookup keysets of encrypted exchanged.
	swapped := filepath.Join(dir, "swapped.json")
	c := readContents(t, encrypted)
	c["master"], c["lookup"] = c["lookup"], c["master"]
	data, err := json.Marshal(c)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(swapped, data, 0o600))

	notKeys := filepath.Join(dir, "other.json")
	require.NoError(t, os.WriteFile(notKeys, []byte(`{"format":"something-else"}`), 0o600))
	garbage := filepath.Join(dir, "garbage.json")
	require.NoError(t, os.WriteFile(garbage, []byte(`not json`), 0o600))

	cases := []struct {
		name string
		load func() (*tinkkeys.KeyManager, error)
		want string
	}{
		{"wrong KEK", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadEncryptedKeys(encrypted, newKEK(t), ad) },
			"wrong KEK or associated data"},
		{"wrong AD", func() (*tinkkeys.KeyManager, error) {
			return tinkkeys.LoadEncryptedKeys(encrypted, kek, []byte("staging/agentfin-keys"))
		}, "wrong KEK or associated data"},
		{"swapped keysets", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadEncryptedKeys(swapped, kek, ad) },
			"cannot decrypt the master keyset"},
		{"empty AD", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadEncryptedKeys(encrypted, kek, nil) },
			"associated data is required"},
		{"no KEK", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadEncryptedKeys(encrypted, nil, ad) },
			"KEK) is required"},
		{"encrypted loader, cleartext file", func() (*tinkkeys.KeyManager, error) {
			return tinkkeys.LoadEncryptedKeys(cleartext, kek, ad)
		}, "holds cleartext keys"},
		{"dev loader, encrypted file", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadOrCreateDevKeys(encrypted) },
			"encrypted under a KEK"},
		{"other format", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadOrCreateDevKeys(notKeys) },
			`format "something-else"`},
		{"not JSON", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadOrCreateDevKeys(garbage) },
			"is not a key file"},
		{"missing encrypted file", func() (*tinkkeys.KeyManager, error) {
			return tinkkeys.LoadEncryptedKeys(filepath.Join(dir, "missing.json"), kek, ad)
		}, "no such file"},
		{"empty dev path", func() (*tinkkeys.KeyManager, error) { return tinkkeys.LoadOrCreateDevKeys("") },
			"path is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			km, err := c.load()
			require.Error(t, err)
			assert.Nil(t, km)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// A development key file moves to KEK protection with its keys, so data
// sealed in development stays readable.
func TestExportEncrypted(t *testing.T) {
	dev, _ := devKeys(t)
	ct := seal(t, dev, agentA, "from development")
	h1, err := dev.LookupHash([]byte("x"))
	require.NoError(t, err)

	path := filepath.Join(t.TempDir(), "prod.json")
	kek, ad := newKEK(t), []byte("prod/agentfin-keys")
	require.NoError(t, dev.ExportEncrypted(path, kek, ad))
	assert.ErrorIs(t, dev.ExportEncrypted(path, kek, ad), os.ErrExist)

	prod, err := tinkkeys.LoadEncryptedKeys(path, kek, ad)
	require.NoError(t, err)
	got, err := open(prod, agentA, ct)
	require.NoError(t, err)
	assert.Equal(t, "from development", got)
	h2, err := prod.LookupHash([]byte("x"))
	require.NoError(t, err)
	assert.Equal(t, h1, h2)
}
