package agents_test

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/mr-tron/base58"
)

// A wallet signs the register-wallet challenge; the server checks it.
func ExampleWalletAuth_VerifyRegistration() {
	auth, _ := agents.NewWalletAuth("aft")
	key := ed25519.NewKeyFromSeed(make([]byte, 32)) // the wallet's key, client side
	wallet, _ := agents.ParseWalletAddress("wallet_address", base58.Encode(key.Public().(ed25519.PublicKey)))
	signedAt := time.Unix(1767225600, 0)

	challenge := auth.AuthChallenge(wallet, signedAt)
	signature := base58.Encode(ed25519.Sign(key, []byte(challenge)))

	proof, err := auth.VerifyRegistration(agents.WalletRegistration{
		WalletAddress: wallet.String(), Signature: signature, Chain: "solana", Message: challenge,
	}, signedAt.Add(time.Minute))
	fmt.Println(challenge)
	fmt.Println(err == nil, len(proof.Digest))

	_, err = auth.VerifyRegistration(agents.WalletRegistration{
		WalletAddress: wallet.String(), Signature: signature, Timestamp: signedAt.Unix(),
	}, signedAt.Add(10*time.Minute))
	fmt.Println(toolkit.MessageOf(err))
	// Output:
	// aft-auth:4zvwRjXUKGfvwnParsHAS3HuSVzV5cA4McphgmoCtajS:1767225600
	// true 32
	// timestamp: the timestamp 1767225600 is 600 seconds from server time 1767226200; it must be within 5 minutes (sign a fresh message)
}
