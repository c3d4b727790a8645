package cryptovault_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	agentA = "agent-a"
	agentB = "agent-b"
	field  = "wallet_address"
)

// countingKeys wraps stdlibKeys, counts calls and can be made to fail.
type countingKeys struct {
	stdlibKeys
	mu        sync.Mutex
	calls     int
	failAEAD  error
	hashBytes int // if > 0, LookupHash returns this many bytes
}

func newKeys() *countingKeys {
	return &countingKeys{stdlibKeys: stdlibKeys{master: []byte("test master"), lookup: []byte("test lookup")}}
}

func (k *countingKeys) AgentAEAD(ctx context.Context, agentID string) (cryptovault.AEAD, error) {
	k.mu.Lock()
	k.calls++
	fail := k.failAEAD
	k.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return k.stdlibKeys.AgentAEAD(ctx, agentID)
}

func (k *countingKeys) LookupHash(data []byte) ([]byte, error) {
	h, err := k.stdlibKeys.LookupHash(data)
	if k.hashBytes > 0 {
		h = h[:k.hashBytes]
	}
	return h, err
}

// tamperLog records the TamperObserver's calls.
type tamperLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *tamperLog) observe(_ context.Context, agentID, field string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, agentID+"/"+field)
}

func (l *tamperLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.calls)
}

func newVault(t *testing.T) (*cryptovault.Vault, *countingKeys, *tamperLog) {
	t.Helper()
	keys, log := newKeys(), &tamperLog{}
	return cryptovault.New(keys, cryptovault.WithTamperObserver(log.observe)), keys, log
}

// requireTampered checks err is the integrity failure Open promises.
func requireTampered(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	assert.ErrorIs(t, err, cryptovault.ErrTampered)
	var te *toolkit.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, toolkit.Internal, te.Kind)
	assert.Equal(t, "cryptovault.Open", te.Op)
	assert.Equal(t, "stored data failed its integrity check", te.Msg)
}

func TestSealOpenRoundTrip(t *testing.T) {
	v, _, log := newVault(t)
	ctx := context.Background()
	cases := map[string][]byte{
		"empty":  {},
		"text":   []byte("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"),
		"binary": {0, 1, 2, 0xff, 0xfe},
		"max":    bytes.Repeat([]byte{'x'}, cryptovault.MaxPlaintext),
	}
	for name, pt := range cases {
		t.Run(name, func(t *testing.T) {
			ct, err := v.Seal(ctx, agentA, field, pt)
			require.NoError(t, err)
			if len(pt) > 0 {
				assert.False(t, bytes.Contains(ct, pt), "ciphertext must not contain the plaintext")
			}
			got, err := v.Open(ctx, agentA, field, ct)
			require.NoError(t, err)
			assert.Equal(t, pt, got)
		})
	}
	assert.Zero(t, log.count())
}

func TestSealStringOpenString(t *testing.T) {
	v, _, _ := newVault(t)
	ctx := context.Background()
	ct1, err := v.SealString(ctx, agentA, field, "secret")
	require.NoError(t, err)
	ct2, err := v.SealString(ctx, agentA, field, "secret")
	require.NoError(t, err)
	assert.NotEqual(t, ct1, ct2, "sealing is randomized")
	got, err := v.OpenString(ctx, agentA, field, ct1)
	require.NoError(t, err)
	assert.Equal(t, "secret", got)

	_, err = v.OpenString(ctx, agentA, "other_field", ct1)
	requireTampered(t, err)
}

func TestOpenRejectsTampering(t *testing.T) {
	v, _, log := newVault(t)
	ctx := context.Background()
	ct, err := v.Seal(ctx, agentA, field, []byte("0123456789abcdef0123456789abcdef"))
	require.NoError(t, err)
	otherAgent, err := v.Seal(ctx, agentB, field, []byte("0123456789abcdef0123456789abcdef"))
	require.NoError(t, err)

	flip := func(i int) []byte {
		c := bytes.Clone(ct)
		c[i] ^= 0x01
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
		{"flip offset 12", agentA, field, flip(12)},
		{"flip middle", agentA, field, flip(len(ct) / 2)},
		{"flip last", agentA, field, flip(len(ct) - 1)},
		{"wrong field", agentA, "tx_signature", ct},
		{"other agent opens", agentB, field, ct},
		{"other agent's ciphertext", agentA, field, otherAgent},
		{"truncated by one", agentA, field, ct[:len(ct)-1]},
		{"truncated to nonce", agentA, field, ct[:12]},
		{"truncated to 3 bytes", agentA, field, ct[:3]},
		{"appended byte", agentA, field, append(bytes.Clone(ct), 0)},
		{"empty", agentA, field, []byte{}},
		{"nil", agentA, field, nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Open(ctx, c.agent, c.field, c.ciphertext)
			requireTampered(t, err)
			require.Equal(t, i+1, log.count(), "observer called exactly once per tamper")
			assert.Equal(t, c.agent+"/"+c.field, log.calls[i])
		})
	}
	// The original still opens: nothing above changed it.
	_, err = v.Open(ctx, agentA, field, ct)
	require.NoError(t, err)
	assert.Equal(t, len(cases), log.count())
}

func TestOpenWithoutObserver(t *testing.T) {
	v := cryptovault.New(newKeys())
	_, err := v.Open(context.Background(), agentA, field, []byte("garbage ciphertext, long enough"))
	requireTampered(t, err)
}

func TestKeyManagerFailureIsNotTamper(t *testing.T) {
	v, keys, log := newVault(t)
	ctx := context.Background()
	ct, err := v.Seal(ctx, agentA, field, []byte("x"))
	require.NoError(t, err)
	cause := errors.New("kms unreachable")
	keys.failAEAD = cause

	_, err = v.Seal(ctx, agentA, field, []byte("x"))
	assertInternal(t, err, "cryptovault.Seal")
	assert.ErrorIs(t, err, cause)
	assert.NotErrorIs(t, err, cryptovault.ErrTampered)

	_, err = v.Open(ctx, agentA, field, ct)
	assertInternal(t, err, "cryptovault.Open")
	assert.ErrorIs(t, err, cause)
	assert.NotErrorIs(t, err, cryptovault.ErrTampered)
	assert.Zero(t, log.count(), "a key failure is not a tamper event")
}

// nilKeys returns no AEAD and no error: a broken adapter.
type nilKeys struct{ stdlibKeys }

func (*nilKeys) AgentAEAD(context.Context, string) (cryptovault.AEAD, error) { return nil, nil }

func TestKeyManagerReturningNoAEAD(t *testing.T) {
	v := cryptovault.New(&nilKeys{})
	_, err := v.Seal(context.Background(), agentA, field, []byte("x"))
	assertInternal(t, err, "cryptovault.Seal")
}

func assertInternal(t *testing.T, err error, op string) {
	t.Helper()
	var te *toolkit.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, toolkit.Internal, te.Kind)
	assert.Equal(t, op, te.Op)
	assert.Equal(t, "internal error", toolkit.MessageOf(err))
}

func TestBadNamesAreProgrammingErrors(t *testing.T) {
	v, keys, log := newVault(t)
	ctx := context.Background()
	long := string(bytes.Repeat([]byte{'a'}, 257))
	cases := []struct{ name, agent, field string }{
		{"empty agent", "", field},
		{"empty field", agentA, ""},
		{"long agent", long, field},
		{"long field", agentA, long},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Seal(ctx, c.agent, c.field, []byte("x"))
			assertInternal(t, err, "cryptovault.Seal")
			_, err = v.Open(ctx, c.agent, c.field, []byte("x"))
			assertInternal(t, err, "cryptovault.Open")
			assert.NotErrorIs(t, err, cryptovault.ErrTampered)
		})
	}
	_, err := v.Hash("", []byte("x"))
	assertInternal(t, err, "cryptovault.Hash")
	_, err = v.Hash(long, []byte("x"))
	assertInternal(t, err, "cryptovault.Hash")
	assert.Zero(t, keys.calls, "no key is fetched for a bad name")
	assert.Zero(t, log.count())
}

func TestOversizedValuesAreTooLarge(t *testing.T) {
	v, _, _ := newVault(t)
	big := make([]byte, cryptovault.MaxPlaintext+1)
	_, err := v.Seal(context.Background(), agentA, "memory_content", big)
	require.Error(t, err)
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	assert.Equal(t, "memory_content must be at most 1048576 bytes", toolkit.MessageOf(err))
	_, err = v.Hash("tx_signature", big)
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
}

func TestHash(t *testing.T) {
	v, _, _ := newVault(t)
	sig := []byte("5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW")

	h1, err := v.Hash("tx_signature", sig)
	require.NoError(t, err)
	assert.Len(t, h1, cryptovault.HashSize)

	h2, err := v.Hash("tx_signature", bytes.Clone(sig))
	require.NoError(t, err)
	assert.Equal(t, h1, h2, "deterministic")

	other, err := v.Hash("wallet_address", sig)
	require.NoError(t, err)
	assert.NotEqual(t, h1, other, "same value, other field")

	changed := bytes.Clone(sig)
	changed[0] ^= 1
	h3, err := v.Hash("tx_signature", changed)
	require.NoError(t, err)
	assert.NotEqual(t, h1, h3, "other value")

	// The hash is keyed: another lookup key gives another hash.
	otherKeys := newKeys()
	otherKeys.lookup = []byte("another lookup key")
	h4, err := cryptovault.New(otherKeys).Hash("tx_signature", sig)
	require.NoError(t, err)
	assert.NotEqual(t, h1, h4)

	empty, err := v.Hash("tx_signature", nil)
	require.NoError(t, err)
	assert.Len(t, empty, cryptovault.HashSize)
}

func TestHashRejectsWrongLength(t *testing.T) {
	keys := newKeys()
	keys.hashBytes = 16
	_, err := cryptovault.New(keys).Hash("tx_signature", []byte("x"))
	assertInternal(t, err, "cryptovault.Hash")
}

func TestConcurrentUse(t *testing.T) {
	v, _, _ := newVault(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			agent := []string{agentA, agentB}[i%2]
			ct, err := v.SealString(ctx, agent, field, "value")
			if err == nil {
				_, err = v.OpenString(ctx, agent, field, ct)
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
