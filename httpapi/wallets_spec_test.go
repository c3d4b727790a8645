package httpapi_test

import (
	"crypto/ed25519"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegisterWalletWithTheSpecFields: a client that sends only the
// spec's wallet_address, signature and chain is signed in; the server
// found the second the wallet signed (3 seconds before the request), and
// the challenge stays single-use.
func TestRegisterWalletWithTheSpecFields(t *testing.T) {
	e := newEnv(t)
	w := newWallet(ed25519.NewKeyFromSeed([]byte(strings.Repeat("s", 32))))
	signedAt := e.clock.Now().Add(-3 * time.Second).Unix()
	body := fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"chain":"solana"}`, w.address, w.sign(fmt.Sprintf("aft-auth:%s:%d", w.address, signedAt)))
	status, m := e.do("POST", "/v1/agents/register-wallet", nil, body)
	require.Equal(t, http.StatusCreated, status, m)
	assert.Equal(t, "sandbox", m["mode"])
	assert.Equal(t, "0.00", m["balance"])
	assert.Regexp(t, `^aft_agent_[A-Za-z0-9]{40}$`, m["api_key"])

	status, m = e.do("POST", "/v1/agents/register-wallet", nil, body)
	assert.Equal(t, http.StatusConflict, status, "the same signature again: %v", m)

	bad := fmt.Sprintf(`{"wallet_address":%q,"signature":%q,"chain":"solana"}`, w.address, w.sign("Sign in"))
	status, m = e.do("POST", "/v1/agents/register-wallet", nil, bad)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "signature: does not verify for wallet_address over the challenge")
}
