package solanarpc_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/agentfinance/toolkit/agents"
	"github.com/gagliardetto/solana-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var presaleProgram = key("presale program").PublicKey()

// accountValue is a getAccountInfo value as a node encodes it (base64).
func accountValue(owner solana.PublicKey, data []byte) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"data": []string{base64.StdEncoding.EncodeToString(data), "base64"}, "executable": false,
		"lamports": 1_461_600, "owner": owner.String(), "rentEpoch": uint64(18446744073709551615), "space": len(data),
	})
	return b
}

func presaleRecord(t *testing.T, seed string, wallet solana.PublicKey) solana.PublicKey {
	t.Helper()
	pda, _, err := solana.FindProgramAddress([][]byte{[]byte(seed), wallet[:]}, presaleProgram)
	require.NoError(t, err)
	return pda
}

func TestIsPresaleBuyer(t *testing.T) {
	n := newFakeNode(t)
	c := newClient(t, n.srv.URL, func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	buyer, noRecord, funded, empty := key("buyer").PublicKey(), key("not a buyer").PublicKey(), key("funded pda").PublicKey(), key("empty record").PublicKey()
	n.accounts[presaleRecord(t, "presale", buyer).String()] = accountValue(presaleProgram, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	n.accounts[presaleRecord(t, "presale", funded).String()] = accountValue(solana.SystemProgramID, nil)
	n.accounts[presaleRecord(t, "presale", empty).String()] = accountValue(presaleProgram, nil)

	for wallet, want := range map[solana.PublicKey]bool{buyer: true, noRecord: false, funded: false, empty: false} {
		got, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(wallet))
		require.NoError(t, err)
		assert.Equal(t, want, got, wallet.String())
	}

	rec, err := c.PresaleRecord(agents.WalletAddress(buyer))
	require.NoError(t, err)
	assert.Equal(t, presaleRecord(t, "presale", buyer), rec)

	calls := n.callsTo("getAccountInfo")
	require.NotEmpty(t, calls)
	var opts map[string]any
	require.NoError(t, json.Unmarshal(calls[0].Params[1], &opts))
	assert.Equal(t, map[string]any{"encoding": "base64", "commitment": "finalized", "dataSlice": map[string]any{"offset": float64(0), "length": float64(8)}}, opts)
}

func TestIsPresaleBuyerUsesTheConfiguredSeed(t *testing.T) {
	n := newFakeNode(t)
	buyer := key("buyer").PublicKey()
	n.accounts[presaleRecord(t, "purchase", buyer).String()] = accountValue(presaleProgram, []byte{1})
	def := newClient(t, n.srv.URL, func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	custom := newClient(t, n.srv.URL, func(cfg *solanarpc.Config) {
		cfg.PresaleProgram, cfg.PresaleSeed = presaleProgram.String(), "purchase"
	})
	got, err := def.IsPresaleBuyer(context.Background(), agents.WalletAddress(buyer))
	require.NoError(t, err)
	assert.False(t, got)
	got, err = custom.IsPresaleBuyer(context.Background(), agents.WalletAddress(buyer))
	require.NoError(t, err)
	assert.True(t, got)
}

func TestIsPresaleBuyerWithoutProgramAsksNothing(t *testing.T) {
	n := newFakeNode(t)
	c := newClient(t, n.srv.URL, nil)
	got, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
	require.NoError(t, err)
	assert.False(t, got)
	assert.Empty(t, n.calls)
	_, err = c.PresaleRecord(agents.WalletAddress(agentPK))
	assert.Error(t, err)
}

func TestIsPresaleBuyerFailuresAreUnavailable(t *testing.T) {
	for name, setup := range map[string]func(n *fakeNode){
		"HTTP 503":       func(n *fakeNode) { n.fail = 503 },
		"JSON-RPC error": func(n *fakeNode) { n.fail = -32603 },
		"timeout":        func(n *fakeNode) { n.hang = true },
		"devnet node":    func(n *fakeNode) { n.genesis = devnetGenesis },
	} {
		t.Run(name, func(t *testing.T) {
			n := newFakeNode(t)
			n.set(setup)
			c := newClient(t, n.srv.URL, func(cfg *solanarpc.Config) {
				cfg.PresaleProgram, cfg.Timeout = presaleProgram.String(), 100*time.Millisecond
			})
			_, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
			require.Error(t, err)
			assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
		})
	}
}

func TestIsPresaleBuyerLookupFailureIsUnavailable(t *testing.T) {
	n := newFakeNode(t)
	c := newClient(t, n.srv.URL, func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	require.NoError(t, c.CheckNetwork(context.Background()))
	n.set(func(n *fakeNode) { n.fail = 500 })
	_, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
	assert.Len(t, n.callsTo("getAccountInfo"), 1)
}
