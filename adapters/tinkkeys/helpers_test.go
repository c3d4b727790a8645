package tinkkeys_test

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/require"
	"github.com/tink-crypto/tink-go/v2/aead"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/tink"
)

const (
	agentA = "agent-a"
	agentB = "agent-b"
	field  = "wallet_address"
)

var ctx = context.Background()

// devKeys creates a development key file in a fresh directory.
func devKeys(t *testing.T) (*tinkkeys.KeyManager, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys", "dev.json")
	km, err := tinkkeys.LoadOrCreateDevKeys(path)
	require.NoError(t, err)
	return km, path
}

// newKEK returns a local AEAD standing in for a KMS key-encryption key.
func newKEK(t testing.TB) tink.AEAD {
	t.Helper()
	h, err := keyset.NewHandle(aead.AES256GCMKeyTemplate())
	require.NoError(t, err)
	a, err := aead.New(h)
	require.NoError(t, err)
	return a
}

// seal seals value for agent's field through a Vault over km.
func seal(t *testing.T, km cryptovault.KeyManager, agent, value string) []byte {
	t.Helper()
	ct, err := cryptovault.New(km).SealString(ctx, agent, field, value)
	require.NoError(t, err)
	return ct
}

// open opens agent's field through a Vault over km.
func open(km cryptovault.KeyManager, agent string, ct []byte) (string, error) {
	return cryptovault.New(km).OpenString(ctx, agent, field, ct)
}

// keyIDOf returns the key id in a Tink-prefixed ciphertext.
func keyIDOf(t *testing.T, ct []byte) uint32 {
	t.Helper()
	require.Greater(t, len(ct), 5)
	require.Equal(t, byte(0x01), ct[0], "Tink output prefix version")
	return binary.BigEndian.Uint32(ct[1:5])
}

// fieldAD is cryptovault's associated data, written out independently so
// a test can hold one agent's AD against another agent's key.
func fieldAD(agentID, field string) []byte {
	b := []byte("agentfin-ad-v1")
	b = binary.BigEndian.AppendUint32(b, uint32(len(agentID)))
	b = append(b, agentID...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(field)))
	return append(b, field...)
}
