package httpapi

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/google/jsonschema-go/jsonschema"
)

// RegisterWalletRequest is the body of POST /v1/agents/register-wallet.
// The wallet signs "<service>-auth:<wallet_address>:<unix seconds>" and
// the spec's three fields are enough: the server finds the signed second
// within the 5-minute window. Sending that exact text in message, or only
// its unix seconds in timestamp, makes it a single verification.
type RegisterWalletRequest struct {
	WalletAddress string `json:"wallet_address"`
	Signature     string `json:"signature"`
	Chain         string `json:"chain,omitempty"`
	Message       string `json:"message,omitempty"`
	Timestamp     int64  `json:"timestamp,omitempty"`
	AgentName     string `json:"agent_name,omitempty"`
	AgentType     string `json:"agent_type,omitempty"`
}

// RegisterWalletResponse is the answer of register-wallet: 201 with a new
// agent, 200 when the wallet's agent got a new key. It is a registration's
// answer (APIKey shown once; OwnerKey only when this sign-in created the
// agent and its owner) with the agent's balances.
type RegisterWalletResponse struct {
	RegisterResponse
	Balance        toolkit.Amount `json:"balance" example:"75.00" doc:"what the agent's calls are paid from now (pays_from); a new agent starts at zero"`
	RealBalance    toolkit.Amount `json:"real_balance" example:"75.00" doc:"real credits (verified deposits), spent by calls in live mode"`
	SandboxBalance toolkit.Amount `json:"sandbox_balance" example:"0.00" doc:"test credits (sandbox self-credit), spent by calls in sandbox mode only"`
	PaysFrom       string         `json:"pays_from" doc:"the credits the agent's calls are paid from now: test in sandbox mode, real otherwise"`
	Created        bool           `json:"created"`
}

// LinkWalletRequest is the body of POST /v1/agents/link-wallet. message
// is the signed text: any text containing the agent_id (such as "Link
// wallet to agent <agent_id>"), the recommended form being
// "<service>-link:<agent_id>:<solana_wallet_address>:<unix seconds>".
type LinkWalletRequest struct {
	SolanaWalletAddress string `json:"solana_wallet_address"`
	Signature           string `json:"signature"`
	Message             string `json:"message"`
}

// LinkWalletResponse is the answer of link-wallet.
type LinkWalletResponse struct {
	AgentID             string `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	SolanaWalletAddress string `json:"solana_wallet_address" example:"8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ"`
	IsPresaleBuyer      bool   `json:"is_presale_buyer"`
	Message             string `json:"message"`
}

// ChainDepositRequest is the body of the on-chain deposit endpoints.
type ChainDepositRequest struct {
	TxSignature string `json:"tx_signature"`
}

// StablecoinDepositResponse is the answer of deposit-usdc, -usdt and
// -pyusd: amount is the tokens received, compute_credits the USD credited
// (1:1) as real funds; the balances are DepositBalances.
type StablecoinDepositResponse struct {
	AgentID        string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Currency       string         `json:"currency"`
	Amount         toolkit.Amount `json:"amount" example:"25.00"`
	ComputeCredits toolkit.Amount `json:"compute_credits"`
	DepositBalances
	TxID        string `json:"tx_id"`
	TxSignature string `json:"tx_signature" example:"2nEgeuQrJUjcqTAufJULz121L8uKrvXfyRZeGtx5EXdfAQZ5dUs8Hate1GNcNwJi7FCCjC5ytZrHRYPHMpUcG7mQ"`
}

// SolDepositResponse is the answer of deposit-sol: compute_credits is
// amount × sol_price_usd rounded down to the micro-USD.
type SolDepositResponse struct {
	AgentID        string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Currency       string         `json:"currency"`
	Amount         toolkit.Amount `json:"amount" example:"25.00"`
	SolPriceUSD    toolkit.Amount `json:"sol_price_usd"`
	ComputeCredits toolkit.Amount `json:"compute_credits"`
	DepositBalances
	TxID        string `json:"tx_id"`
	TxSignature string `json:"tx_signature" example:"2nEgeuQrJUjcqTAufJULz121L8uKrvXfyRZeGtx5EXdfAQZ5dUs8Hate1GNcNwJi7FCCjC5ytZrHRYPHMpUcG7mQ"`
}

// NativeDepositResponse is the answer of the native-token deposit:
// usd_credited is osr_amount × rate_per_token rounded down to the
// micro-USD (the field keeps its published name whatever the ticker).
type NativeDepositResponse struct {
	AgentID        string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Currency       string         `json:"currency"`
	OSRAmount      toolkit.Amount `json:"osr_amount"`
	USDCredited    toolkit.Amount `json:"usd_credited"`
	RatePerToken   toolkit.Amount `json:"rate_per_token"`
	IsPresaleBuyer bool           `json:"is_presale_buyer"`
	DepositBalances
	TxID        string `json:"tx_id"`
	TxSignature string `json:"tx_signature" example:"2nEgeuQrJUjcqTAufJULz121L8uKrvXfyRZeGtx5EXdfAQZ5dUs8Hate1GNcNwJi7FCCjC5ytZrHRYPHMpUcG7mQ"`
}

// maxChainLen bounds the chain field (its one value is "solana").
const maxChainLen = 16

func (RegisterWalletRequest) constrain(s *jsonschema.Schema) {
	text(s, "wallet_address", 1, agents.MaxWalletAddressLen)
	text(s, "signature", 1, agents.MaxWalletSignatureLen)
	text(s, "chain", 0, maxChainLen)
	text(s, "message", 0, agents.MaxWalletMessageLen)
	s.Properties["timestamp"].Minimum, s.Properties["timestamp"].Maximum = ptr(1.0), ptr(999_999_999_999.0)
	text(s, "agent_name", 1, agents.MaxNameLen)
	enum(s, "agent_type", agents.Types())
	s.Properties["signature"].Description = "Ed25519 signature (base58, or base64) of the challenge <service>-auth:<wallet_address>:<unix seconds>, " +
		"signed within 5 minutes of server time"
	s.Properties["message"].Description = "optional: the exact signed challenge (one verification); " +
		"without message and timestamp the server searches the signed second of the window"
	s.Properties["timestamp"].Description = "optional: the unix seconds of the signed challenge (one verification)"
}

func (LinkWalletRequest) constrain(s *jsonschema.Schema) {
	text(s, "solana_wallet_address", 1, agents.MaxWalletAddressLen)
	text(s, "signature", 1, agents.MaxWalletSignatureLen)
	text(s, "message", 1, agents.MaxWalletMessageLen)
	s.Properties["message"].Description = "the signed text: any text containing the agent_id as a word (e.g. \"Link wallet to agent <agent_id>\"); " +
		"a 10-digit number in it is read as unix seconds and must be within 5 minutes of server time. " +
		"Recommended: <service>-link:<agent_id>:<solana_wallet_address>:<unix seconds>. Each signature is accepted once"
}

func (ChainDepositRequest) constrain(s *jsonschema.Schema) {
	text(s, "tx_signature", 1, billing.MaxTxSignatureLen)
}
