// Package solanarpc verifies Solana deposits and presale purchases over
// Solana JSON-RPC (github.com/gagliardetto/solana-go). Client implements
// billing.DepositVerifier and agents.PresaleChecker.
package solanarpc

import (
	"fmt"
	"net/http"
	"time"

	"github.com/agentfinance/toolkit/billing"
	"github.com/gagliardetto/solana-go"
)

// TokenProgram names the SPL token program that owns a mint.
type TokenProgram string

// The token programs. The program changes the associated token account
// address of the treasury (its seeds include the program id).
const (
	ClassicToken TokenProgram = "token"      // TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
	Token2022    TokenProgram = "token-2022" // TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb
)

func (p TokenProgram) id() (solana.PublicKey, error) {
	switch p {
	case ClassicToken, "":
		return solana.TokenProgramID, nil
	case Token2022:
		return solana.Token2022ProgramID, nil
	}
	return solana.PublicKey{}, fmt.Errorf("unknown token program %q (want %q or %q)", p, ClassicToken, Token2022)
}

// Token is an SPL token accepted for deposits.
type Token struct {
	// Asset is the ticker the deposit endpoint asks for.
	Asset billing.Asset
	// Mint is the base58 mint address.
	Mint string
	// Decimals is the mint's number of decimals; a transaction whose token
	// balances report another number is refused.
	Decimals uint8
	// Program owns the mint ("" means ClassicToken).
	Program TokenProgram
}

// DefaultTokens returns the mainnet stablecoins: USDC and USDT (classic
// Token program) and PYUSD (Token-2022), each with 6 decimals.
func DefaultTokens() []Token {
	return []Token{
		{Asset: billing.USDC, Mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", Decimals: 6, Program: ClassicToken},
		{Asset: billing.USDT, Mint: "Es9vMFrzaCERmKcoYhgNPJ9rg9fNimJik6Xvxp7UYA8e", Decimals: 6, Program: ClassicToken},
		{Asset: billing.PYUSD, Mint: "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo", Decimals: 6, Program: Token2022},
	}
}

// PublishedNativeToken is the published service's native token (OSR, 9
// decimals). Its token program is not published; classic is assumed.
// Deployments of their own token configure theirs instead.
var PublishedNativeToken = Token{Asset: billing.DefaultNativeToken, Mint: "E2grvu8fyeeuVaxj2DrHVBqv8j21jK3vyJpXG8FJjJNc", Decimals: 9, Program: ClassicToken}

// Network is a Solana cluster, identified by its genesis hash.
type Network string

// The public clusters.
const (
	Mainnet Network = "mainnet"
	Devnet  Network = "devnet"
	Testnet Network = "testnet"
)

// genesisHashes are the public clusters' genesis hashes (getGenesisHash).
var genesisHashes = map[Network]string{
	Mainnet: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
	Devnet:  "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
	Testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY",
}

// DefaultTimeout bounds every RPC call when Config.Timeout is zero.
const DefaultTimeout = 15 * time.Second

// DefaultPresaleSeed is the first PDA seed of a presale purchase record.
const DefaultPresaleSeed = "presale"

// Config configures a Client. Zero fields take the documented defaults.
type Config struct {
	// RPCURL is the JSON-RPC endpoint (required).
	RPCURL string
	// Headers are sent with every request (for RPC providers' API keys).
	Headers map[string]string
	// Network is the cluster deposits must be on (default Mainnet). The
	// node's getGenesisHash must match it; the answer is cached.
	Network Network
	// GenesisHash overrides the expected genesis hash (a local validator).
	GenesisHash string
	// Treasury is the base58 wallet receiving deposits (required). SPL
	// deposits must reach its associated token account for the mint.
	Treasury string
	// Tokens are the SPL tokens accepted (default DefaultTokens()). SOL is
	// always accepted, as lamports sent to Treasury itself.
	Tokens []Token
	// PresaleProgram is the base58 id of the presale program. Empty: no
	// wallet is a presale buyer.
	PresaleProgram string
	// PresaleSeed is the first seed of a buyer's purchase record (default
	// DefaultPresaleSeed). The record is the PDA of the program for the
	// seeds [PresaleSeed, wallet public key]; a wallet is a buyer when that
	// account exists, is owned by the program and holds data.
	PresaleSeed string
	// Timeout bounds every RPC call (default DefaultTimeout); the caller's
	// context deadline applies too.
	Timeout time.Duration
	// HTTPClient sends the requests (default: a client with Timeout).
	HTTPClient *http.Client
}

// token is a configured token with its derived addresses.
type token struct {
	Token
	mint        solana.PublicKey
	program     solana.PublicKey
	treasuryATA solana.PublicKey
}

// settings is a validated Config.
type settings struct {
	genesisHash    string
	network        string
	treasury       solana.PublicKey
	tokens         map[billing.Asset]*token
	presaleProgram solana.PublicKey
	presaleSeed    []byte
	timeout        time.Duration
}

// maxTokenDecimals bounds configured decimals (billing.VerifiedDeposit.Quantity).
const maxTokenDecimals = 30

func (c Config) settings() (settings, error) {
	s := settings{timeout: c.Timeout, presaleSeed: []byte(c.PresaleSeed), tokens: map[billing.Asset]*token{}}
	if c.RPCURL == "" {
		return s, fmt.Errorf("RPCURL is required")
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	network := c.Network
	if network == "" {
		network = Mainnet
	}
	s.network, s.genesisHash = string(network), c.GenesisHash
	if s.genesisHash == "" {
		h, ok := genesisHashes[network]
		if !ok {
			return s, fmt.Errorf("unknown network %q (want mainnet, devnet or testnet, or set GenesisHash)", network)
		}
		s.genesisHash = h
	}
	var err error
	if s.treasury, err = solana.PublicKeyFromBase58(c.Treasury); err != nil {
		return s, fmt.Errorf("treasury %q: %w", c.Treasury, err)
	}
	tokens := c.Tokens
	if tokens == nil {
		tokens = DefaultTokens()
	}
	for _, t := range tokens {
		if t.Asset == "" || t.Asset == billing.SOL {
			return s, fmt.Errorf("token %q: the asset must be a ticker other than SOL", t.Asset)
		}
		if _, dup := s.tokens[t.Asset]; dup {
			return s, fmt.Errorf("token %s configured twice", t.Asset)
		}
		if t.Decimals > maxTokenDecimals {
			return s, fmt.Errorf("token %s: %d decimals is more than %d", t.Asset, t.Decimals, maxTokenDecimals)
		}
		tk := &token{Token: t}
		if tk.mint, err = solana.PublicKeyFromBase58(t.Mint); err != nil {
			return s, fmt.Errorf("token %s mint %q: %w", t.Asset, t.Mint, err)
		}
		if tk.program, err = t.Program.id(); err != nil {
			return s, fmt.Errorf("token %s: %w", t.Asset, err)
		}
		if tk.treasuryATA, err = associatedTokenAddress(s.treasury, tk.mint, tk.program); err != nil {
			return s, fmt.Errorf("token %s: %w", t.Asset, err)
		}
		s.tokens[t.Asset] = tk
	}
	if c.PresaleProgram != "" {
		if s.presaleProgram, err = solana.PublicKeyFromBase58(c.PresaleProgram); err != nil {
			return s, fmt.Errorf("presale program %q: %w", c.PresaleProgram, err)
		}
	}
	if len(s.presaleSeed) == 0 {
		s.presaleSeed = []byte(DefaultPresaleSeed)
	}
	if len(s.presaleSeed) > solana.MaxSeedLength {
		return s, fmt.Errorf("presale seed longer than %d bytes", solana.MaxSeedLength)
	}
	return s, nil
}

// associatedTokenAddress derives wallet's associated token account for mint
// under either token program (solana.FindAssociatedTokenAddress covers only
// the classic program).
func associatedTokenAddress(wallet, mint, program solana.PublicKey) (solana.PublicKey, error) {
	ata, _, err := solana.FindProgramAddress([][]byte{wallet[:], program[:], mint[:]}, solana.SPLAssociatedTokenAccountProgramID)
	return ata, err
}
