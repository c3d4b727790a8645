package tinkkeys_test

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the testdata fixtures")

const (
	fixtureKeys   = "testdata/fixture-keys.json" // test-only keys, published: never use them elsewhere
	fixtureSealed = "testdata/sealed.json"
	fixtureAgent  = "agent-fixture"
	fixtureValue  = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb"
)

// sealedFixture is data produced with the fixture keys.
type sealedFixture struct {
	Ciphertext string `json:"ciphertext"` // hex, field wallet_address of fixtureAgent
	Hash       string `json:"hash"`       // hex, Hash("tx_signature", fixtureValue)
}

// Data sealed and hashed by an earlier version, with a key file written by
// it, still opens and hashes the same: the key file format, the derivation
// salt, the associated data and the hash encoding are all persistent.
func TestFixtureStillOpens(t *testing.T) {
	if *update {
		writeFixtures(t)
	}
	data, err := os.ReadFile(fixtureKeys)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "keys.json")
	require.NoError(t, os.WriteFile(path, data, 0o600)) // git does not keep the 0600 mode
	km, err := tinkkeys.LoadOrCreateDevKeys(path)
	require.NoError(t, err)

	raw, err := os.ReadFile(fixtureSealed)
	require.NoError(t, err)
	var f sealedFixture
	require.NoError(t, json.Unmarshal(raw, &f))
	ct, err := hex.DecodeString(f.Ciphertext)
	require.NoError(t, err)

	v := cryptovault.New(km)
	got, err := v.OpenString(ctx, fixtureAgent, field, ct)
	require.NoError(t, err)
	assert.Equal(t, fixtureValue, got)
	h, err := v.Hash("tx_signature", []byte(fixtureValue))
	require.NoError(t, err)
	assert.Equal(t, f.Hash, hex.EncodeToString(h))
}

func writeFixtures(t *testing.T) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.json")
	km, err := tinkkeys.LoadOrCreateDevKeys(path)
	require.NoError(t, err)
	v := cryptovault.New(km)
	ct, err := v.SealString(ctx, fixtureAgent, field, fixtureValue)
	require.NoError(t, err)
	h, err := v.Hash("tx_signature", []byte(fixtureValue))
	require.NoError(t, err)

	keys, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	require.NoError(t, os.WriteFile(fixtureKeys, keys, 0o600))
	sealed, err := json.MarshalIndent(sealedFixture{hex.EncodeToString(ct), hex.EncodeToString(h)}, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(fixtureSealed, append(sealed, '\n'), 0o644))
}
