package solanarpc

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// Client verifies deposits and presale purchases against one Solana
// JSON-RPC endpoint. It is safe for concurrent use.
type Client struct {
	rpc *rpc.Client
	set settings
}

var (
	_ billing.DepositVerifier = (*Client)(nil)
	_ agents.PresaleChecker   = (*Client)(nil)
)

// New returns a Client for cfg. It makes no request; CheckNetwork does.
func New(cfg Config) (*Client, error) {
	set, err := cfg.settings()
	if err != nil {
		return nil, fmt.Errorf("solanarpc: %w", err)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: set.timeout}
	}
	rc := jsonrpc.NewClientWithOpts(cfg.RPCURL, &jsonrpc.RPCClientOpts{HTTPClient: hc, CustomHeaders: cfg.Headers})
	return &Client{rpc: rpc.NewWithCustomRPCClient(rc), set: set}, nil
}

// Close releases the client's idle connections.
func (c *Client) Close() error { return c.rpc.Close() }

// CheckNetwork asks the node for its genesis hash and compares it with the
// configured network's: a mismatch or a failed call is
// toolkit.Unavailable. Every deposit verification and presale check asks
// first, so that a node (or a provider's load balancer) switched to
// another cluster mid-run can never credit a deposit of the wrong network;
// an answer is never cached. Servers may also call it at start to fail
// fast on a misconfigured endpoint.
func (c *Client) CheckNetwork(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.set.timeout)
	defer cancel()
	hash, err := c.rpc.GetGenesisHash(ctx)
	if err != nil {
		return rpcUnavailable("solanarpc.CheckNetwork", "getGenesisHash", err)
	}
	if hash.String() != c.set.genesisHash {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: "solanarpc.CheckNetwork",
			Msg: "on-chain verification is unavailable: the server's Solana node is not on " + c.set.network + "; retry later",
			Err: fmt.Errorf("genesis hash %s, want %s (%s)", hash, c.set.genesisHash, c.set.network)}
	}
	return nil
}

// rpcUnavailable turns a failed RPC call into toolkit.Unavailable with a
// retry hint; the cause (URL, status, timeout) stays in Err for logs.
func rpcUnavailable(op, method string, err error) error {
	msg := "the Solana node could not be reached; nothing was recorded, retry in a minute"
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "the Solana node did not answer in time; nothing was recorded, retry in a minute"
	}
	return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, Msg: msg, Err: fmt.Errorf("%s: %w", method, err)}
}
