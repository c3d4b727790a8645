package agents_test

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/mr-tron/base58"
)

func BenchmarkVerifyRegistration(b *testing.B) {
	auth, _ := agents.NewWalletAuth("aft")
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	wallet, _ := agents.ParseWalletAddress("wallet_address", base58.Encode(key.Public().(ed25519.PublicKey)))
	at := time.Unix(1767225600, 0)
	msg := auth.AuthChallenge(wallet, at)
	in := agents.WalletRegistration{WalletAddress: wallet.String(), Signature: base58.Encode(ed25519.Sign(key, []byte(msg))), Message: msg}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := auth.VerifyRegistration(in, at); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegisterWallet signs one wallet in again and again (each
// iteration a fresh challenge one second later, so each rotates the key):
// signature verification, two keyed hashes, one seal and one store
// transaction on memstore, with Tink keys.
func BenchmarkRegisterWallet(b *testing.B) {
	e := newWalletEnv(b)
	w := walletOf("bench")
	if _, err := e.signIn(w); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.now = e.now.Add(time.Second)
		if _, err := e.signIn(w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegisterWalletSearch verifies register-wallet requests with the
// spec's three fields only, so the server searches the signed second:
// an honest client that signed 2 seconds before the server's second (4
// verifications: now, now−1, now+1, now−2), and a bad signature, which
// costs the whole window (601 verifications). The message form
// (BenchmarkVerifyRegistration) is the one-verification baseline.
func BenchmarkRegisterWalletSearch(b *testing.B) {
	auth, _ := agents.NewWalletAuth("aft")
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	wallet, _ := agents.ParseWalletAddress("wallet_address", base58.Encode(key.Public().(ed25519.PublicKey)))
	now := time.Unix(1767225600, 0)
	honest := auth.AuthChallenge(wallet, now.Add(-2*time.Second))
	cases := []struct {
		name   string
		sig    []byte
		wantOK bool
	}{
		{"Honest", ed25519.Sign(key, []byte(honest)), true},
		{"BadSignature", ed25519.Sign(key, []byte("not the challenge")), false},
	}
	for _, c := range cases {
		in := agents.WalletRegistration{WalletAddress: wallet.String(), Signature: base58.Encode(c.sig), Chain: "solana"}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := auth.VerifyRegistration(in, now); (err == nil) != c.wantOK {
					b.Fatal(err)
				}
			}
		})
	}
}
