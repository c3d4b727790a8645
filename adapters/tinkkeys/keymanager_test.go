package tinkkeys_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tink-crypto/tink-go/v2/aead"
	"github.com/tink-crypto/tink-go/v2/keyderivation"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/prf"
	tinkpb "github.com/tink-crypto/tink-go/v2/proto/tink_go_proto"
)

func TestVaultRoundTrip(t *testing.T) {
	km, _ := devKeys(t)
	v := cryptovault.New(km)
	for _, pt := range []string{"", "x", strings.Repeat("wallet ", 100)} {
		ct, err := v.SealString(ctx, agentA, field, pt)
		require.NoError(t, err)
		assert.Len(t, ct, len(pt)+33, "5-byte prefix, 12-byte nonce, 16-byte tag")
		assert.Equal(t, km.PrimaryKeyID(), keyIDOf(t, ct))
		got, err := v.OpenString(ctx, agentA, field, ct)
		require.NoError(t, err)
		assert.Equal(t, pt, got)
	}
}

func TestTamperedCiphertextsFail(t *testing.T) {
	km, _ := devKeys(t)
	var observed []string
	v := cryptovault.New(km, cryptovault.WithTamperObserver(func(_ context.Context, agentID, field string) {
		observed = append(observed, agentID+"/"+field)
	}))
	ct, err := v.SealString(ctx, agentA, field, "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")
	require.NoError(t, err)

	flip := func(i int) []byte {
		c := bytes.Clone(ct)
		c[i] ^= 0x80
		return c
	}
	cases := []struct {
		name         string
		agent, field string
		ciphertext   []byte
	}{
		{"flip offset 0", agentA, field, flip(0)},
		{"flip offset 5", agentA, field, flip(5)},
		{"flip offset 10", agentA, field, flip(10)},
		{"flip last", agentA, field, flip(len(ct) - 1)},
		{"wrong field", agentA, "tx_signature", ct},
		{"other agent", agentB, field, ct},
		{"truncated", agentA, field, ct[:len(ct)-1]},
		{"prefix only", agentA, field, ct[:5]},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Open(ctx, c.agent, c.field, c.ciphertext)
			require.Error(t, err)
			assert.ErrorIs(t, err, cryptovault.ErrTampered)
			assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
			assert.Len(t, observed, i+1)
		})
	}
}

// Agent B's key cannot open agent A's ciphertext even when the associated
// data claims agent A: isolation comes from the keys, not only from the AD.
func TestOtherAgentsKeyFails(t *testing.T) {
	km, _ := devKeys(t)
	ct := seal(t, km, agentA, "secret")
	aA, err := km.AgentAEAD(ctx, agentA)
	require.NoError(t, err)
	aB, err := km.AgentAEAD(ctx, agentB)
	require.NoError(t, err)

	pt, err := aA.Decrypt(ct, fieldAD(agentA, field))
	require.NoError(t, err, "the test's AD matches cryptovault's")
	assert.Equal(t, "secret", string(pt))
	_, err = aB.Decrypt(ct, fieldAD(agentA, field))
	assert.Error(t, err)
}

func TestAgentAEADIsCached(t *testing.T) {
	km, _ := devKeys(t)
	a1, err := km.AgentAEAD(ctx, agentA)
	require.NoError(t, err)
	a2, err := km.AgentAEAD(ctx, agentA)
	require.NoError(t, err)
	assert.Same(t, a1, a2)

	_, err = km.AgentAEAD(ctx, "")
	assert.Error(t, err)
}

// With a cache of one, agents evict each other and are derived again to
// the same keys.
func TestEvictedAgentDerivesTheSameKey(t *testing.T) {
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	km, err := tinkkeys.New(master, lookup, tinkkeys.WithCacheSize(1))
	require.NoError(t, err)
	ctA := seal(t, km, agentA, "a")
	ctB := seal(t, km, agentB, "b")
	got, err := open(km, agentA, ctA)
	require.NoError(t, err)
	assert.Equal(t, "a", got)
	got, err = open(km, agentB, ctB)
	require.NoError(t, err)
	assert.Equal(t, "b", got)
}

func TestConcurrentDerivation(t *testing.T) {
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	km, err := tinkkeys.New(master, lookup, tinkkeys.WithCacheSize(4))
	require.NoError(t, err)
	v := cryptovault.New(km)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			agent := string(rune('a' + i%8))
			ct, err := v.SealString(ctx, agent, field, agent)
			if err == nil {
				var got string
				got, err = v.OpenString(ctx, agent, field, ct)
				if err == nil && got != agent {
					err = assert.AnError
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestLookupHash(t *testing.T) {
	km, _ := devKeys(t)
	v := cryptovault.New(km)
	h1, err := v.Hash("tx_signature", []byte("sig"))
	require.NoError(t, err)
	assert.Len(t, h1, 32)
	h2, err := v.Hash("tx_signature", []byte("sig"))
	require.NoError(t, err)
	assert.Equal(t, h1, h2)

	other, _ := devKeys(t)
	h3, err := cryptovault.New(other).Hash("tx_signature", []byte("sig"))
	require.NoError(t, err)
	assert.NotEqual(t, h1, h3, "another key file, another lookup key")
}

func TestNewChecksKeysets(t *testing.T) {
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)

	twoLookupKeys := func() *keyset.Handle {
		m := keyset.NewManagerFromHandle(lookup)
		_, err := m.Add(prf.HMACSHA256PRFKeyTemplate())
		require.NoError(t, err)
		h, err := m.Handle()
		require.NoError(t, err)
		return h
	}()
	handle := func(tmpl *tinkpb.KeyTemplate) *keyset.Handle {
		h, err := keyset.NewHandle(tmpl)
		require.NoError(t, err)
		return h
	}
	deriving := func(derived *tinkpb.KeyTemplate) *keyset.Handle {
		tmpl, err := keyderivation.CreatePRFBasedKeyTemplate(prf.HKDFSHA256PRFKeyTemplate(), derived)
		require.NoError(t, err)
		return handle(tmpl)
	}
	cases := []struct {
		name           string
		master, lookup *keyset.Handle
		opts           []tinkkeys.Option
		want           string
	}{
		{"nil master", nil, lookup, nil, "required"},
		{"two lookup keys", master, twoLookupKeys, nil, "exactly one key"},
		{"lookup not a PRF", master, handle(aead.AES256GCMKeyTemplate()), nil, "not a PRF keyset"},
		{"lookup too short", master, handle(prf.AESCMACPRFKeyTemplate()), nil, "32-byte hashes"},
		{"master not a deriver", handle(aead.AES256GCMKeyTemplate()), lookup, nil, "not a key-derivation keyset"},
		{"master derives AES-128", deriving(aead.AES128GCMKeyTemplate()), lookup, nil, "want 32 and TINK"},
		{"master derives without prefix", deriving(aead.AES256GCMNoPrefixKeyTemplate()), lookup, nil, "variant NO_PREFIX"},
		{"master derives ChaCha", deriving(aead.XChaCha20Poly1305KeyTemplate()), lookup, nil, "want AES-256-GCM"},
		{"cache size 0", master, lookup, []tinkkeys.Option{tinkkeys.WithCacheSize(0)}, "cache size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tinkkeys.New(c.master, c.lookup, c.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err = tinkkeys.New(master, lookup)
	assert.NoError(t, err, "the generated keysets pass")
}
