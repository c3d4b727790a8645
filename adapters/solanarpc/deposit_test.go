package solanarpc_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/agentfinance/toolkit/adapters/solanarpc/solanarpctest"
	"github.com/agentfinance/toolkit/billing"
	"github.com/gagliardetto/solana-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newClient(t testing.TB, url string, change func(*solanarpc.Config)) *solanarpc.Client {
	t.Helper()
	cfg := solanarpctest.Config(url)
	if change != nil {
		change(&cfg)
	}
	c, err := solanarpc.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// nodeWithFixtures serves every fixture under its signature.
func nodeWithFixtures(t testing.TB) (*solanarpctest.Node, map[string]fixtureFile) {
	t.Helper()
	fx := loadFixtures(t)
	n := solanarpctest.NewNode(t)
	for _, f := range fx {
		n.AddTransaction(f.Signature, f.Result)
	}
	return n, fx
}

func TestVerifyDepositAccepts(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	agent, foreign, other := agentPK.String(), foreignPK.String(), otherPK.String()
	tests := []struct {
		fixture  string
		asset    billing.Asset
		wallets  []string
		units    uint64
		decimals uint8
		quantity string
		sender   string
		bound    billing.Binding
	}{
		{"usdc_v0_lookup_table", billing.USDC, []string{agent}, 25_000_000, 6, "25.000000", agent, billing.BoundByWallet},
		{"usdc_legacy_creates_treasury_account", billing.USDC, []string{other, agent}, 10_000_000, 6, "10.000000", agent, billing.BoundByWallet},
		{"sol_legacy", billing.SOL, []string{agent}, 1_500_000_000, 9, "1.500000000", agent, billing.BoundByWallet},
		{"sol_v0_treasury_in_lookup_table", billing.SOL, []string{agent}, 250_000_000, 9, "0.250000000", agent, billing.BoundByWallet},
		{"pyusd_token2022", billing.PYUSD, []string{agent}, 12_500_000, 6, "12.500000", agent, billing.BoundByWallet},
		{"usdc_two_transfers", billing.USDC, []string{agent}, 10_000_000, 6, "10.000000", agent, billing.BoundByWallet},
		{"usdc_inner_instruction", billing.USDC, []string{agent}, 4_000_000, 6, "4.000000", agent, billing.BoundByWallet},
		{"usdc_memo_foreign_sender", billing.USDC, []string{agent}, 20_000_000, 6, "20.000000", foreign, billing.BoundByMemo},
		{"usdc_memo_v1_foreign_sender", billing.USDC, nil, 2_000_000, 6, "2.000000", foreign, billing.BoundByMemo},
		{"osr_native_token", billing.DefaultNativeToken, []string{agent}, 10_000_000_000_000, 9, "10000.000000000", agent, billing.BoundByWallet},
		{"usdt_to_treasury", billing.USDT, []string{agent}, 9_000_000, 6, "9.000000", agent, billing.BoundByWallet},
		{"usdc_foreign_sender", billing.USDC, []string{agent, foreign}, 6_000_000, 6, "6.000000", foreign, billing.BoundByWallet},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			sig := fx[tt.fixture].Signature
			d, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: sig, Asset: tt.asset, AgentID: fixtureAgentID, Wallets: tt.wallets})
			require.NoError(t, err)
			assert.Equal(t, sig, d.Signature)
			assert.Equal(t, tt.asset, d.Asset)
			assert.Equal(t, tt.units, d.BaseUnits)
			assert.Equal(t, tt.decimals, d.Decimals)
			assert.Equal(t, tt.sender, d.Sender)
			assert.Equal(t, tt.bound, d.BoundBy)
			q, err := d.Quantity()
			require.NoError(t, err)
			assert.Equal(t, tt.quantity, q.String())
		})
	}

	d, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: fx["usdc_v0_lookup_table"].Signature, Asset: billing.USDC, AgentID: fixtureAgentID, Wallets: []string{agent}})
	require.NoError(t, err)
	assert.Equal(t, uint64(312_000_101), d.Slot)
	assert.Equal(t, time.Unix(1767225600+101, 0).UTC(), d.BlockTime)
}

func TestVerifyDepositRejects(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	agent := agentPK.String()
	tests := []struct {
		fixture string
		asset   billing.Asset
		kind    toolkit.Kind
		msg     string
	}{
		{"usdt_to_treasury", billing.USDC, toolkit.Invalid,
			"tx_signature: the transfer's mint is " + usdtMint.String() + ", expected the USDC mint " + usdcMint.String()},
		{"usdc_wrong_destination", billing.USDC, toolkit.Invalid,
			"tx_signature: the USDC transfer goes to token account " + oUSDC.String() + " (owner " + otherPK.String() + "), not to the treasury's token account " + tUSDC.String()},
		{"usdc_failed_on_chain", billing.USDC, toolkit.Invalid,
			`tx_signature: the transaction failed on chain ({"InstructionError":[0,{"Custom":1}]}), so it moved no funds`},
		{"usdc_zero_amount", billing.USDC, toolkit.Invalid,
			"tx_signature: the transaction moves no USDC into the treasury's token account " + tUSDC.String()},
		{"usdc_out_of_treasury", billing.USDC, toolkit.Invalid,
			"tx_signature: USDC moves out of the treasury's token account " + tUSDC.String() + "; a deposit must pay into it"},
		{"usdc_foreign_sender", billing.USDC, toolkit.Invalid,
			"tx_signature: the funds come from " + foreignPK.String() + ", which is not a wallet registered or linked to agent " + fixtureAgentID},
		{"usdc_memo_for_another_agent", billing.USDC, toolkit.Invalid,
			"tx_signature: the funds come from " + foreignPK.String() + ", which is not a wallet registered or linked to agent " + fixtureAgentID},
		{"sol_legacy", billing.USDC, toolkit.Invalid,
			"tx_signature: the transaction sends native SOL, not USDC; use the SOL deposit endpoint"},
		{"sol_legacy", billing.PYUSD, toolkit.Invalid,
			"tx_signature: the transaction sends native SOL, not PYUSD"},
		{"usdc_v0_lookup_table", billing.SOL, toolkit.Invalid,
			"tx_signature: the transaction sends USDC tokens (mint " + usdcMint.String() + ") to the treasury, not native SOL"},
		{"usdc_out_of_treasury", billing.SOL, toolkit.Invalid, // the treasury paid the fee
			"tx_signature: SOL moves out of the treasury wallet " + treasury.String() + "; a deposit must pay into it"},
		{"usdc_foreign_sender", billing.SOL, toolkit.Invalid,
			"tx_signature: the transaction sends USDC tokens (mint " + usdcMint.String() + ") to the treasury, not native SOL"},
		{"osr_native_token", billing.USDC, toolkit.Invalid,
			"tx_signature: the transfer's mint is " + osrMint.String() + ", expected the USDC mint " + usdcMint.String()},
		{"usdc_wrong_destination", billing.SOL, toolkit.Invalid,
			"tx_signature: the transaction sends no SOL to the treasury wallet " + treasury.String()},
		{"usdc_wrong_decimals", billing.USDC, toolkit.Internal, ""},
		{"usdc_v0_lookup_table", "DOGE", toolkit.Invalid, "DOGE deposits are not accepted by this server"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+" as "+string(tt.asset), func(t *testing.T) {
			_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: fx[tt.fixture].Signature, Asset: tt.asset, AgentID: fixtureAgentID, Wallets: []string{agent}})
			require.Error(t, err)
			assert.Equal(t, tt.kind, toolkit.KindOf(err), "%v", err)
			if tt.msg != "" {
				assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.msg), "got %q", toolkit.MessageOf(err))
			}
		})
	}
}

// TestVerifyDepositDerivesTheToken2022Account: configured as a classic
// mint, PYUSD is looked for in the wrong account and the deposit refused.
func TestVerifyDepositDerivesTheToken2022Account(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), func(cfg *solanarpc.Config) {
		cfg.Tokens = []solanarpc.Token{{Asset: billing.PYUSD, Mint: pyusdMint.String(), Decimals: 6, Program: solanarpc.ClassicToken}}
	})
	_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: fx["pyusd_token2022"].Signature, Asset: billing.PYUSD, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}})
	require.Error(t, err)
	assert.Equal(t, "tx_signature: the PYUSD transfer goes to token account "+tPYUSD.String()+" (owner "+treasury.String()+"), not to the treasury's token account "+classicATA(treasuryKey, pyusdMint).String(), toolkit.MessageOf(err))
}

func TestVerifyDepositAsksForFinalizedBase64(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	sig := fx["sol_legacy"].Signature
	_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: sig, Asset: billing.SOL, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}})
	require.NoError(t, err)
	calls := n.Calls("getTransaction")
	require.Len(t, calls, 1)
	require.Len(t, calls[0].Params, 2)
	var opts map[string]any
	require.NoError(t, json.Unmarshal(calls[0].Params[1], &opts))
	assert.Equal(t, map[string]any{"encoding": "base64", "commitment": "finalized", "maxSupportedTransactionVersion": float64(0)}, opts)
}

func TestVerifyDepositNotFinalizedIsUnavailable(t *testing.T) {
	n, _ := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	unknown := solana.SignatureFromBytes(make([]byte, 64)).String()
	_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: unknown, Asset: billing.USDC, AgentID: fixtureAgentID})
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "not found or not finalized yet")
	assert.Len(t, n.Calls("getTransaction"), 1)
}

func TestVerifyDepositChecksTheNetwork(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	n.SetGenesis(solanarpctest.DevnetGenesis)
	c := newClient(t, n.URL(), nil)
	q := billing.DepositQuery{Signature: fx["sol_legacy"].Signature, Asset: billing.SOL, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}}
	_, err := c.VerifyDeposit(context.Background(), q)
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "not on mainnet")
	assert.Empty(t, n.Calls("getTransaction"), "nothing is read from the wrong network")

	// Neither a mismatch nor a match is cached: every verification asks.
	n.SetGenesis(solanarpctest.MainnetGenesis)
	for range 3 {
		_, err = c.VerifyDeposit(context.Background(), q)
		require.NoError(t, err)
	}
	assert.Len(t, n.Calls("getGenesisHash"), 4)

	// A devnet configuration accepts the devnet node.
	d := solanarpctest.NewNode(t)
	d.SetGenesis(solanarpctest.DevnetGenesis)
	require.NoError(t, newClient(t, d.URL(), func(cfg *solanarpc.Config) { cfg.Network = solanarpc.Devnet }).CheckNetwork(context.Background()))
}

// TestVerifyDepositRechecksTheNetworkEveryTime: the node switches to the
// devnet cluster mid-run (a provider's load balancer, a reconfigured
// node); the next deposit is refused before its transaction is read, even
// though the same node answered as mainnet just before.
func TestVerifyDepositRechecksTheNetworkEveryTime(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	usdt := billing.DepositQuery{Signature: fx["usdt_to_treasury"].Signature, Asset: billing.USDT, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}}
	sol := billing.DepositQuery{Signature: fx["sol_legacy"].Signature, Asset: billing.SOL, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}}
	_, err := c.VerifyDeposit(context.Background(), sol)
	require.NoError(t, err, "mainnet: verified")

	n.SetGenesis(solanarpctest.DevnetGenesis)
	reads := len(n.Calls("getTransaction"))
	_, err = c.VerifyDeposit(context.Background(), usdt)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
	assert.Contains(t, toolkit.MessageOf(err), "not on mainnet")
	assert.Len(t, n.Calls("getTransaction"), reads, "the devnet node's transaction is never read")

	n.SetGenesis(solanarpctest.MainnetGenesis)
	_, err = c.VerifyDeposit(context.Background(), usdt)
	assert.NoError(t, err, "back on mainnet")
}

func TestVerifyDepositRPCFailuresAreUnavailable(t *testing.T) {
	_, fx := nodeWithFixtures(t)
	closed := httptest.NewServer(nil)
	closedURL := closed.URL
	closed.Close()
	tests := []struct {
		name  string
		url   func(n *solanarpctest.Node) string
		setup func(n *solanarpctest.Node)
	}{
		{"connection refused", func(*solanarpctest.Node) string { return closedURL }, nil},
		{"HTTP 500", nil, func(n *solanarpctest.Node) { n.Fail(500) }},
		{"HTTP 429", nil, func(n *solanarpctest.Node) { n.Fail(429) }},
		{"JSON-RPC error", nil, func(n *solanarpctest.Node) { n.Fail(-32005) }},
		{"timeout", nil, func(n *solanarpctest.Node) { n.Hang(true) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := solanarpctest.NewNode(t)
			url := n.URL()
			if tt.url != nil {
				url = tt.url(n)
			}
			if tt.setup != nil {
				tt.setup(n)
			}
			c := newClient(t, url, func(cfg *solanarpc.Config) { cfg.Timeout = 100 * time.Millisecond })
			_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: fx["sol_legacy"].Signature, Asset: billing.SOL, AgentID: fixtureAgentID})
			require.Error(t, err)
			assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
			assert.Contains(t, toolkit.MessageOf(err), "retry in a minute")
			assert.NotContains(t, toolkit.MessageOf(err), "127.0.0.1", "the node's address stays in the logs")
		})
	}
}

// TestVerifyDepositFailsWhenGetTransactionFails: the genesis call works,
// the transaction call does not.
func TestVerifyDepositFailsWhenGetTransactionFails(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	n.FailMethod("getTransaction", 502)
	_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: fx["sol_legacy"].Signature, Asset: billing.SOL, AgentID: fixtureAgentID})
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
}

func TestVerifyDepositRefusesMalformedSignatures(t *testing.T) {
	n := solanarpctest.NewNode(t)
	c := newClient(t, n.URL(), nil)
	for _, s := range []string{"", strings.Repeat("1", 89), "0OIl", solana.PublicKey{1}.String(), "5xYz..."} {
		_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: s, Asset: billing.USDC, AgentID: fixtureAgentID})
		require.Error(t, err, s)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), s)
		assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), "tx_signature: "), toolkit.MessageOf(err))
	}
	assert.Empty(t, n.Calls(""), "nothing is asked of the node")
}

func TestVerifyDepositRefusesAnotherTransaction(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	asked := fx["usdc_foreign_sender"].Signature
	n.AddTransaction(asked, fx["usdc_v0_lookup_table"].Result)
	_, err := c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: asked, Asset: billing.USDC, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}})
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
}

func TestNewValidatesConfig(t *testing.T) {
	ok := solanarpc.Config{RPCURL: "http://127.0.0.1:1", Treasury: treasury.String()}
	tests := map[string]func(*solanarpc.Config){
		"no URL":          func(c *solanarpc.Config) { c.RPCURL = "" },
		"bad treasury":    func(c *solanarpc.Config) { c.Treasury = "0x00" },
		"unknown network": func(c *solanarpc.Config) { c.Network = "localnet" },
		"SOL as a token":  func(c *solanarpc.Config) { c.Tokens = []solanarpc.Token{{Asset: billing.SOL, Mint: usdcMint.String()}} },
		"duplicate token": func(c *solanarpc.Config) { c.Tokens = append(solanarpc.DefaultTokens(), solanarpc.DefaultTokens()[0]) },
		"bad mint":        func(c *solanarpc.Config) { c.Tokens = []solanarpc.Token{{Asset: "X", Mint: "nope"}} },
		"bad program": func(c *solanarpc.Config) {
			c.Tokens = []solanarpc.Token{{Asset: "X", Mint: usdcMint.String(), Program: "token-2023"}}
		},
		"bad presale": func(c *solanarpc.Config) { c.PresaleProgram = "nope" },
		"long presale seed": func(c *solanarpc.Config) {
			c.PresaleProgram = routerProgram.String()
			c.PresaleSeed = strings.Repeat("s", 33)
		},
	}
	_, err := solanarpc.New(ok)
	require.NoError(t, err)
	for name, change := range tests {
		cfg := ok
		change(&cfg)
		_, err := solanarpc.New(cfg)
		assert.Error(t, err, name)
	}
	cfg := ok
	cfg.Network, cfg.GenesisHash = "localnet", "LocalGenesis111111111111111111111111111111"
	_, err = solanarpc.New(cfg)
	assert.NoError(t, err, "a custom genesis hash names any network")
}

// TestVerifyDepositRefusesInconsistentLookups: a v0 answer whose
// loadedAddresses do not match its lookups cannot be read safely.
func TestVerifyDepositRefusesInconsistentLookups(t *testing.T) {
	n, fx := nodeWithFixtures(t)
	c := newClient(t, n.URL(), nil)
	f := fx["usdc_v0_lookup_table"]
	var res map[string]any
	require.NoError(t, json.Unmarshal(f.Result, &res))
	res["meta"].(map[string]any)["loadedAddresses"] = map[string]any{"writable": []any{}, "readonly": []any{}}
	broken, err := json.Marshal(res)
	require.NoError(t, err)
	n.AddTransaction(f.Signature, broken)
	_, err = c.VerifyDeposit(context.Background(), billing.DepositQuery{Signature: f.Signature, Asset: billing.USDC, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}})
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), "%v", err)
}
