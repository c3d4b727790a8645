package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit"
)

// Asset names a depositable asset by its ticker.
type Asset string

// The assets with fixed tickers. The service's native token is configured
// (its published ticker is DefaultNativeToken).
const (
	USDC  Asset = "USDC"  // USD Coin, SPL (classic Token program), 6 decimals
	USDT  Asset = "USDT"  // Tether, SPL (classic Token program), 6 decimals
	PYUSD Asset = "PYUSD" // PayPal USD, SPL (Token-2022), 6 decimals
	SOL   Asset = "SOL"   // native SOL, 9 decimals (lamports)
)

// DefaultNativeToken is the published ticker of the service's native token.
const DefaultNativeToken Asset = "OSR"

// Stablecoins lists the assets credited 1:1 in USD.
var Stablecoins = []Asset{USDC, USDT, PYUSD}

// IsStablecoin reports whether a is credited 1:1 in USD.
func (a Asset) IsStablecoin() bool {
	for _, s := range Stablecoins {
		if a == s {
			return true
		}
	}
	return false
}

// MaxTxSignatureLen bounds the text of a transaction signature: a 64-byte
// Solana signature is at most 88 base58 characters.
const MaxTxSignatureLen = 88

// DepositQuery asks a DepositVerifier to verify one deposit transaction.
type DepositQuery struct {
	// Signature is the transaction signature (tx_signature, base58).
	Signature string
	// Asset is the asset the deposit endpoint expects.
	Asset Asset
	// AgentID is the depositing agent. A transaction whose SPL Memo text is
	// exactly AgentID is bound to the agent whoever sent it.
	AgentID string
	// Wallets are the agent's registered and linked wallet addresses
	// (base58). A transaction whose funds come from one of them is bound to
	// the agent.
	Wallets []string
}

// Binding says how a deposit was tied to the depositing agent.
type Binding string

// The bindings.
const (
	BoundByWallet Binding = "wallet" // the funds came from one of the agent's wallets
	BoundByMemo   Binding = "memo"   // the transaction's memo is the agent id
)

// VerifiedDeposit is a deposit transaction that passed every check.
type VerifiedDeposit struct {
	// Signature is the transaction signature (the replay key).
	Signature string
	// Asset is the asset received.
	Asset Asset
	// BaseUnits is the treasury's net receipt in the asset's smallest unit
	// (token base units, or lamports for SOL); always > 0.
	BaseUnits uint64
	// Decimals is the asset's number of decimals (BaseUnits / 10^Decimals
	// is the quantity in whole tokens).
	Decimals uint8
	// Sender is the wallet the funds came from: the agent's wallet when
	// BoundBy is BoundByWallet, otherwise the largest contributor.
	Sender string
	// BoundBy says how the deposit was tied to the agent.
	BoundBy Binding
	// Slot is the slot the transaction was processed in.
	Slot uint64
	// BlockTime is the estimated production time (zero if the node has none).
	BlockTime time.Time
}

// Quantity returns BaseUnits / 10^Decimals exactly ("1.500000" for
// 1,500,000 base units of a 6-decimal token).
func (d VerifiedDeposit) Quantity() (toolkit.Amount, error) {
	if d.Decimals > 30 {
		return toolkit.Amount{}, fmt.Errorf("billing: %d decimals is more than 30", d.Decimals)
	}
	return toolkit.AmountFromBaseUnits(d.BaseUnits, d.Decimals), nil
}

// DepositVerifier verifies deposit transactions on chain (implemented by
// adapters/solanarpc). The caller credits a verified deposit at most once,
// keyed by its signature.
//
// VerifyDeposit fails with toolkit.Invalid naming the failed check (for
// example "tx_signature: the transfer's mint is X, expected the USDC mint
// Y"), and with toolkit.Unavailable when the transaction cannot be read
// now: the node is down or slow, or the transaction is unknown or not yet
// finalized. On either error nothing is credited and the signature is not
// consumed, so the client may retry.
type DepositVerifier interface {
	VerifyDeposit(ctx context.Context, q DepositQuery) (VerifiedDeposit, error)
}

// Price is an asset's USD price at an observed time.
type Price struct {
	Asset Asset
	// USD is the price of one whole token in USD, exactly as the source
	// published it.
	USD toolkit.Amount
	// ObservedAt is when the source last updated the price.
	ObservedAt time.Time
}

// PriceOracle quotes live USD prices (implemented by adapters/coingecko).
// It fails with toolkit.Unavailable when no fresh price can be had; it
// never substitutes a fallback price.
type PriceOracle interface {
	PriceUSD(ctx context.Context, asset Asset) (Price, error)
}

// WalletSource lists the wallets registered or linked to an agent, as
// base58 addresses (implemented by agents.Service). A deposit sent from
// one of them is bound to the agent.
type WalletSource interface {
	AgentWallets(ctx context.Context, agentID string) ([]string, error)
}

// NativeToken configures the service's own token and the USD it credits
// per token.
type NativeToken struct {
	// Asset is the ticker (default DefaultNativeToken): 2 to 10 upper-case
	// letters or digits, none of USDC, USDT, PYUSD and SOL. Its lower-case
	// form names the deposit endpoint's alias (deposit-osr).
	Asset Asset
	// Rate is the USD credited per token (default 0.005).
	Rate toolkit.Amount
	// PresaleRate is the USD credited per token to presale buyers
	// (default 0.004).
	PresaleRate toolkit.Amount
}

// DefaultNativeTokenConfig returns the published native token and rates:
// OSR at 0.005 USD per token, 0.004 for presale buyers.
func DefaultNativeTokenConfig() NativeToken {
	return NativeToken{Asset: DefaultNativeToken, Rate: toolkit.MustParseAmount("0.005"), PresaleRate: toolkit.MustParseAmount("0.004")}
}

// maxTickerLen bounds a native token ticker.
const maxTickerLen = 10

// setDefaults fills the zero fields with the defaults and validates.
func (n *NativeToken) setDefaults() error {
	def := DefaultNativeTokenConfig()
	if n.Asset == "" {
		n.Asset = def.Asset
	}
	if n.Rate.IsZero() {
		n.Rate = def.Rate
	}
	if n.PresaleRate.IsZero() {
		n.PresaleRate = def.PresaleRate
	}
	if len(n.Asset) < 2 || len(n.Asset) > maxTickerLen {
		return fmt.Errorf("billing: native token ticker %q must be 2 to %d characters", n.Asset, maxTickerLen)
	}
	for _, c := range n.Asset {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return fmt.Errorf("billing: native token ticker %q may contain only upper-case letters and digits", n.Asset)
		}
	}
	if n.Asset.IsStablecoin() || n.Asset == SOL {
		return fmt.Errorf("billing: native token ticker %q names another asset", n.Asset)
	}
	for _, r := range []toolkit.Amount{n.Rate, n.PresaleRate} {
		if r.Sign() <= 0 || !r.IsFinite() {
			return fmt.Errorf("billing: native token rates must be positive (got %s)", r)
		}
	}
	return nil
}
