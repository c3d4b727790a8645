package main

import (
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
)

// solanaFlags declares the wallet and on-chain deposit flags on fs (each
// with its TOOLKIT_* variable) and returns the function that checks and
// converts them into cfg after fs.Parse.
func solanaFlags(fs *flag.FlagSet, env func(k, def string) string, getenv func(string) string, s *solanaConfig, walletService *string) func() error {
	fs.StringVar(walletService, "wallet-service", env("TOOLKIT_WALLET_SERVICE", "aft"),
		"service name in signed wallet messages <service>-auth:<wallet>:<unix seconds> (TOOLKIT_WALLET_SERVICE)")
	fs.StringVar(&s.RPCURL, "solana-rpc-url", env("TOOLKIT_SOLANA_RPC_URL", ""),
		"Solana JSON-RPC URL; unset: on-chain deposits answer 503 (TOOLKIT_SOLANA_RPC_URL)")
	fs.StringVar(&s.Network, "solana-network", env("TOOLKIT_SOLANA_NETWORK", "mainnet"),
		"network deposits must be on: mainnet, devnet or testnet (TOOLKIT_SOLANA_NETWORK)")
	fs.StringVar(&s.Treasury, "treasury", env("TOOLKIT_TREASURY", ""), "base58 treasury wallet receiving deposits (TOOLKIT_TREASURY)")
	fs.StringVar(&s.USDCMint, "usdc-mint", env("TOOLKIT_USDC_MINT", ""), "USDC mint (default: mainnet USDC) (TOOLKIT_USDC_MINT)")
	fs.StringVar(&s.USDTMint, "usdt-mint", env("TOOLKIT_USDT_MINT", ""), "USDT mint (default: mainnet USDT) (TOOLKIT_USDT_MINT)")
	fs.StringVar(&s.PYUSDMint, "pyusd-mint", env("TOOLKIT_PYUSD_MINT", ""), "PYUSD Token-2022 mint (default: mainnet PYUSD) (TOOLKIT_PYUSD_MINT)")
	fs.StringVar(&s.NativeToken, "native-token", env("TOOLKIT_NATIVE_TOKEN", "OSR"),
		"native token ticker; its endpoint is deposit-native and deposit-<ticker> (TOOLKIT_NATIVE_TOKEN)")
	fs.StringVar(&s.NativeMint, "native-mint", env("TOOLKIT_NATIVE_MINT", ""), "native token mint (default: the published OSR mint) (TOOLKIT_NATIVE_MINT)")
	fs.StringVar(&s.NativeProgram, "native-token-program", env("TOOLKIT_NATIVE_TOKEN_PROGRAM", "token"),
		"native token's program: token or token-2022 (TOOLKIT_NATIVE_TOKEN_PROGRAM)")
	decimals := fs.String("native-decimals", env("TOOLKIT_NATIVE_DECIMALS", "9"), "native token decimals (TOOLKIT_NATIVE_DECIMALS)")
	rate := fs.String("native-rate", env("TOOLKIT_NATIVE_RATE", "0.005"), "USD credited per native token (TOOLKIT_NATIVE_RATE)")
	presaleRate := fs.String("native-presale-rate", env("TOOLKIT_NATIVE_PRESALE_RATE", "0.004"),
		"USD credited per native token to presale buyers (TOOLKIT_NATIVE_PRESALE_RATE)")
	fs.StringVar(&s.PresaleProgram, "presale-program", env("TOOLKIT_PRESALE_PROGRAM", ""),
		"base58 presale program id; unset: no wallet is a presale buyer (TOOLKIT_PRESALE_PROGRAM)")
	fs.StringVar(&s.PriceAPIURL, "price-api-url", env("TOOLKIT_PRICE_API_URL", "https://api.coingecko.com"),
		"CoinGecko API root for the SOL price; the key is TOOLKIT_PRICE_API_KEY (TOOLKIT_PRICE_API_URL)")
	maxAge := fs.String("price-max-age", env("TOOLKIT_PRICE_MAX_AGE", "10m"), "oldest SOL price accepted (TOOLKIT_PRICE_MAX_AGE)")
	return func() error {
		s.PriceAPIKey = getenv("TOOLKIT_PRICE_API_KEY")
		d, err := strconv.ParseUint(*decimals, 10, 8)
		if err != nil || d > 30 {
			return fmt.Errorf("-native-decimals: must be an integer from 0 to 30, got %q", *decimals)
		}
		s.NativeDecimals = uint8(d)
		for _, a := range []struct {
			flag string
			text string
			dst  *toolkit.Amount
		}{{"-native-rate", *rate, &s.NativeRate}, {"-native-presale-rate", *presaleRate, &s.NativePresaleRate}} {
			v, err := toolkit.ParseAmount(a.text)
			if err != nil || v.Sign() <= 0 {
				return fmt.Errorf("%s: must be a positive decimal, got %q", a.flag, a.text)
			}
			*a.dst = v
		}
		if s.PriceMaxAge, err = time.ParseDuration(*maxAge); err != nil || s.PriceMaxAge <= 0 {
			return fmt.Errorf("-price-max-age: must be a positive duration like 10m, got %q", *maxAge)
		}
		if s.RPCURL != "" {
			if u, err := url.Parse(s.RPCURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("-solana-rpc-url: must be an http(s) URL")
			}
			if s.Treasury == "" {
				return fmt.Errorf("-treasury (TOOLKIT_TREASURY) is required with -solana-rpc-url: deposits must pay a treasury wallet")
			}
		}
		return nil
	}
}

// solanaNotice says how deposits are verified, without printing the RPC
// URL's query or credentials (providers put API keys there).
func solanaNotice(s solanaConfig) string {
	if s.RPCURL == "" {
		return "solana: no RPC URL set (-solana-rpc-url): on-chain deposits answer 503 and link-wallet links without a presale check"
	}
	u, _ := url.Parse(s.RPCURL)
	return fmt.Sprintf("solana: deposits to treasury %s verified on %s through %s://%s", s.Treasury, s.Network, u.Scheme, u.Host)
}
