package cryptovault_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"

	"github.com/agentfinance/toolkit/cryptovault"
)

// stdlibKeys is a KeyManager over the standard library: each agent's
// AES-256-GCM key is HMAC-SHA256(master, agent id) and lookup hashes are
// HMAC-SHA256(lookup, data). It shows the port; production code uses
// adapters/tinkkeys, which adds key rotation and key files.
type stdlibKeys struct {
	master, lookup []byte
}

func (k *stdlibKeys) AgentAEAD(_ context.Context, agentID string) (cryptovault.AEAD, error) {
	mac := hmac.New(sha256.New, k.master)
	mac.Write([]byte(agentID))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, err
	}
	return gcmAEAD{gcm}, nil
}

func (k *stdlibKeys) LookupHash(data []byte) ([]byte, error) {
	mac := hmac.New(sha256.New, k.lookup)
	mac.Write(data)
	return mac.Sum(nil), nil
}

// gcmAEAD adapts a cipher.AEAD that chooses its own nonces.
type gcmAEAD struct{ gcm cipher.AEAD }

func (g gcmAEAD) Encrypt(plaintext, ad []byte) ([]byte, error) {
	return g.gcm.Seal(nil, nil, plaintext, ad), nil
}

func (g gcmAEAD) Decrypt(ciphertext, ad []byte) ([]byte, error) {
	return g.gcm.Open(nil, nil, ciphertext, ad)
}

func ExampleVault() {
	ctx := context.Background()
	keys := &stdlibKeys{master: []byte("example master key, never do this"), lookup: []byte("example lookup key")}
	v := cryptovault.New(keys, cryptovault.WithTamperObserver(func(_ context.Context, agentID, field string) {
		fmt.Printf("tamper: agent %s field %s\n", agentID, field)
	}))

	sealed, err := v.SealString(ctx, "agent-1", "wallet_address", "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")
	if err != nil {
		panic(err)
	}
	wallet, err := v.OpenString(ctx, "agent-1", "wallet_address", sealed)
	fmt.Println(wallet, err)

	// Another agent, or another field, cannot open it.
	_, err = v.OpenString(ctx, "agent-2", "wallet_address", sealed)
	fmt.Println(err != nil)

	// A lookup hash finds the sealed value without opening it.
	h, _ := v.Hash("wallet_address", []byte(wallet))
	fmt.Println(len(h))
	// Output:
	// 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU <nil>
	// tamper: agent agent-2 field wallet_address
	// true
	// 32
}
