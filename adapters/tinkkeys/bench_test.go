package tinkkeys

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/cryptovault"
)

// benchKeys returns a manager over a development key file whose master
// keyset holds masterKeys keys.
func benchKeys(b *testing.B, masterKeys int) *KeyManager {
	b.Helper()
	km, err := LoadOrCreateDevKeys(filepath.Join(b.TempDir(), "keys.json"))
	if err != nil {
		b.Fatal(err)
	}
	for range masterKeys - 1 {
		if _, err := km.Rotate(); err != nil {
			b.Fatal(err)
		}
	}
	return km
}

// BenchmarkSealOpenCached seals and opens a 64-byte field through a Vault
// with the agent's AEAD in the cache.
func BenchmarkSealOpenCached(b *testing.B) {
	ctx := context.Background()
	v := cryptovault.New(benchKeys(b, 1))
	pt := make([]byte, 64)
	b.SetBytes(int64(len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		ct, err := v.Seal(ctx, "agent-1", "memory_content", pt)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Open(ctx, "agent-1", "memory_content", ct); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeriveUncached derives an agent's AEAD without the cache: the
// cost of a cache miss, which grows with the number of master keys.
func BenchmarkDeriveUncached(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("master_keys=%d", n), func(b *testing.B) {
			s := benchKeys(b, n).state.Load()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.derive(fmt.Sprint("agent-", i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkLookupHash hashes an 88-byte value (a Solana signature) through
// a Vault.
func BenchmarkLookupHash(b *testing.B) {
	v := cryptovault.New(benchKeys(b, 1))
	sig := make([]byte, 88)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Hash("tx_signature", sig); err != nil {
			b.Fatal(err)
		}
	}
}
