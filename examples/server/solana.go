package main

import (
	"fmt"
	"time"

	"github.com/agentfinance/toolkit/httpapi/portal"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/coingecko"
	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/agentfinance/toolkit/billing"
)

// solanaConfig configures wallet sign-in, presale checks and on-chain deposits.
// With an empty RPCURL no deposit can be verified: the on-chain deposit
// endpoints answer 503 naming the missing setup, and link-wallet links
// without a presale check.
type solanaConfig struct {
	// RPCURL is the Solana JSON-RPC endpoint (it may carry a provider's
	// API key, so it is never printed in full).
	RPCURL string
	// Network is mainnet (default), devnet or testnet: the node's genesis
	// hash must match it, so a devnet node cannot credit a mainnet server.
	Network string
	// Treasury is the base58 wallet receiving deposits (required with
	// RPCURL).
	Treasury string
	// USDCMint, USDTMint and PYUSDMint override the mainnet mints (set
	// them for devnet). PYUSD is a Token-2022 mint; the others are
	// classic SPL mints. Each has 6 decimals.
	USDCMint, USDTMint, PYUSDMint string
	// NativeToken is the native token's ticker (default OSR), NativeMint
	// its mint (default the published OSR mint), NativeDecimals its
	// decimals (default 9) and NativeProgram its token program ("token",
	// the default, or "token-2022").
	NativeToken    string
	NativeMint     string
	NativeDecimals uint8
	NativeProgram  string
	// NativeRate and NativePresaleRate are the USD credited per native
	// token (defaults 0.005 and 0.004).
	NativeRate, NativePresaleRate toolkit.Amount
	// PresaleProgram is the base58 id of the presale program (empty: no
	// wallet is a presale buyer).
	PresaleProgram string
	// PriceAPIURL is the CoinGecko API root for the SOL price (default
	// https://api.coingecko.com); PriceAPIKey its key, if any.
	PriceAPIURL, PriceAPIKey string
	// PriceMaxAge is the oldest SOL price accepted (default 10 minutes).
	PriceMaxAge time.Duration
}

// solanaAdapters builds the deposit verifier, presale checker and price
// oracle, or nothing without an RPC URL.
func solanaAdapters(cfg solanaConfig) (*solanarpc.Client, *coingecko.Oracle, error) {
	if cfg.RPCURL == "" {
		return nil, nil, nil
	}
	tokens := depositTokens(cfg)
	client, err := solanarpc.New(solanarpc.Config{RPCURL: cfg.RPCURL, Network: solanarpc.Network(cfg.Network),
		Treasury: cfg.Treasury, Tokens: tokens, PresaleProgram: cfg.PresaleProgram})
	if err != nil {
		return nil, nil, fmt.Errorf("solana: %w", err)
	}
	oracle, err := coingecko.New(coingecko.Config{BaseURL: cfg.PriceAPIURL, APIKey: cfg.PriceAPIKey, MaxAge: cfg.PriceMaxAge})
	if err != nil {
		return nil, nil, fmt.Errorf("price API: %w", err)
	}
	return client, oracle, nil
}

// depositTokens are the tokens deposits may pay in: the stablecoins (mints
// overridable) and the native token.
func depositTokens(cfg solanaConfig) []solanarpc.Token {
	tokens := solanarpc.DefaultTokens()
	for i, mint := range []string{cfg.USDCMint, cfg.USDTMint, cfg.PYUSDMint} {
		if mint != "" {
			tokens[i].Mint = mint
		}
	}
	native := solanarpc.PublishedNativeToken
	if cfg.NativeToken != "" {
		native.Asset = billing.Asset(cfg.NativeToken)
	}
	if cfg.NativeMint != "" {
		native.Mint = cfg.NativeMint
	}
	if cfg.NativeDecimals != 0 {
		native.Decimals = cfg.NativeDecimals
	}
	if cfg.NativeProgram != "" {
		native.Program = solanarpc.TokenProgram(cfg.NativeProgram)
	}
	return append(tokens, native)
}

// topUpOf is what the portal's top-up page shows: the treasury and the
// mints of the accepted tokens (nothing without a Solana node).
func topUpOf(cfg solanaConfig) portal.TopUp {
	if cfg.RPCURL == "" {
		return portal.TopUp{}
	}
	out := portal.TopUp{Treasury: cfg.Treasury}
	for _, t := range depositTokens(cfg) {
		out.Tokens = append(out.Tokens, portal.Token{Ticker: string(t.Asset), Mint: t.Mint})
	}
	return out
}
