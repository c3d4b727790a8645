package solanarpc_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/gagliardetto/solana-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var presaleProgram = key("presale program").PublicKey()

func presaleRecord(t *testing.T, seed string, wallet solana.PublicKey) solana.PublicKey {
	t.Helper()
	return solanarpctest.PresaleRecord(presaleProgram, wallet, seed)
}

var accountValue = solanarpctest.AccountValue

func TestIsPresaleBuyer(t *testing.T) {
	n := solanarpctest.NewNode(t)
	c := newClient(t, n.URL(), func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	buyer, noRecord, funded, empty := key("buyer").PublicKey(), key("not a buyer").PublicKey(), key("funded pda").PublicKey(), key("empty record").PublicKey()
	n.AddAccount(presaleRecord(t, "presale", buyer).String(), accountValue(presaleProgram, []byte{1, 2, 3, 4, 5, 6, 7, 8}))
	n.AddAccount(presaleRecord(t, "presale", funded).String(), accountValue(solana.SystemProgramID, nil))
	n.AddAccount(presaleRecord(t, "presale", empty).String(), accountValue(presaleProgram, nil))

	for wallet, want := range map[solana.PublicKey]bool{buyer: true, noRecord: false, funded: false, empty: false} {
		got, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(wallet))
		require.NoError(t, err)
		assert.Equal(t, want, got, wallet.String())
	}

	rec, err := c.PresaleRecord(agents.WalletAddress(buyer))
	require.NoError(t, err)
	assert.Equal(t, presaleRecord(t, "presale", buyer), rec)

	calls := n.Calls("getAccountInfo")
	require.NotEmpty(t, calls)
	var opts map[string]any
	require.NoError(t, json.Unmarshal(calls[0].Params[1], &opts))
	assert.Equal(t, map[string]any{"encoding": "base64", "commitment": "finalized", "dataSlice": map[string]any{"offset": float64(0), "length": float64(8)}}, opts)
}

func TestIsPresaleBuyerUsesTheConfiguredSeed(t *testing.T) {
	n := solanarpctest.NewNode(t)
	buyer := key("buyer").PublicKey()
	n.AddAccount(presaleRecord(t, "purchase", buyer).String(), accountValue(presaleProgram, []byte{1}))
	def := newClient(t, n.URL(), func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	custom := newClient(t, n.URL(), func(cfg *solanarpc.Config) {
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
	n := solanarpctest.NewNode(t)
	c := newClient(t, n.URL(), nil)
	got, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
	require.NoError(t, err)
	assert.False(t, got)
	assert.Empty(t, n.Calls(""))
	_, err = c.PresaleRecord(agents.WalletAddress(agentPK))
	assert.Error(t, err)
}

func TestIsPresaleBuyerFailuresAreUnavailable(t *testing.T) {
	for name, setup := range map[string]func(n *solanarpctest.Node){
		"HTTP 503":       func(n *solanarpctest.Node) { n.Fail(503) },
		"JSON-RPC error": func(n *solanarpctest.Node) { n.Fail(-32603) },
		"timeout":        func(n *solanarpctest.Node) { n.Hang(true) },
		"devnet node":    func(n *solanarpctest.Node) { n.SetGenesis(solanarpctest.DevnetGenesis) },
	} {
		t.Run(name, func(t *testing.T) {
			n := solanarpctest.NewNode(t)
			setup(n)
			c := newClient(t, n.URL(), func(cfg *solanarpc.Config) {
				cfg.PresaleProgram, cfg.Timeout = presaleProgram.String(), 100*time.Millisecond
			})
			_, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
			require.Error(t, err)
			assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
		})
	}
}

func TestIsPresaleBuyerLookupFailureIsUnavailable(t *testing.T) {
	n := solanarpctest.NewNode(t)
	c := newClient(t, n.URL(), func(cfg *solanarpc.Config) { cfg.PresaleProgram = presaleProgram.String() })
	n.FailMethod("getAccountInfo", 500)
	_, err := c.IsPresaleBuyer(context.Background(), agents.WalletAddress(agentPK))
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
	assert.Len(t, n.Calls("getAccountInfo"), 1)
}
