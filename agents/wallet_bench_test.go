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
