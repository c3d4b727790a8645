package main

import (
	"crypto/ed25519"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/require"
)

// walletSteps sign a wallet in, link it, and credit a verified deposit:
// the wallet address and the transaction signature must appear in the
// database only sealed or as keyed hashes (so must the signed messages,
// which contain the address).
func walletSteps() []scenarioStep {
	return []scenarioStep{{name: "wallet sign-in, link and verified deposit", run: func(t *testing.T, s *scenario) {
		wallet := ed25519.PrivateKey(solanarpctest.AgentWallet)
		address := base58.Encode(wallet.Public().(ed25519.PublicKey))
		deposit := solanarpctest.MustFixture(t, "usdc_v0_lookup_table").Signature
		s.secrets = append(s.secrets, address, deposit)

		challenge := fmt.Sprintf("aft-auth:%s:%d", address, time.Now().Unix())
		status, m := s.call("POST", "/v1/agents/register-wallet", "", fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"message":%q}`,
			address, base58.Encode(ed25519.Sign(wallet, []byte(challenge))), challenge))
		require.Equal(t, http.StatusCreated, status, m)
		key, id := m["api_key"].(string), m["agent_id"].(string)
		s.secrets = append(s.secrets, key)

		link := fmt.Sprintf("aft-link:%s:%s:%d", id, address, time.Now().Unix())
		status, m = s.call("POST", "/v1/agents/link-wallet", key, fmt.Sprintf(`{"solana_wallet_address":%q,"signature":%q,"message":%q}`,
			address, base58.Encode(ed25519.Sign(wallet, []byte(link))), link))
		require.Equal(t, http.StatusOK, status, m)

		status, m = s.call("POST", "/v1/billing/deposit-usdc", key, `{"tx_signature":"`+deposit+`"}`)
		require.Equal(t, http.StatusOK, status, m)
		require.Equal(t, "25.00", m["compute_credits"])
	}}}
}
